package io.bucketer.resilience;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.bucketer.avro.Reading;
import io.bucketer.buckets.Granularity;
import io.bucketer.config.HttpSettings;
import io.bucketer.config.KafkaSettings;
import io.bucketer.embedded.LoopbackPorts;
import io.bucketer.embedded.ProcessorProcess;
import io.bucketer.query.StoredDocuments;
import io.bucketer.simulate.ReadingGenerator;
import io.bucketer.testing.BucketStoreAssertions;
import io.bucketer.testing.GeneratedReadings;
import io.bucketer.testing.IsolatedRun;
import io.bucketer.testing.LocalInfrastructure;
import io.bucketer.testing.PacedProducer;
import io.bucketer.testing.Timeline;
import io.bucketer.topics.DeadLetterTopic;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.NewPartitions;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * The processor, a separate JVM, is frozen (SIGSTOP) while readings keep arriving, for 15 s, 60 s
 * and 3 minutes, and thawed (SIGCONT) after each: a collector pause, a starved VM, a paused
 * container. It runs as deployed: a static member ({@code instance.id}), Kafka's 45 s session
 * timeout and bucketer's 30 s transaction timeout.
 *
 * <ul>
 *   <li>15 s outlives neither timeout: the processor goes on where it stood, counts the stall and
 *       stays ready.
 *   <li>60 s and 3 minutes outlive both: the broker aborted the open transaction and the group
 *       evicted the member. Kafka Streams rejoins and restores the state by itself; meanwhile
 *       {@code /ready} says so in one line, and it is ready again within {@link #READY_BOUND}.
 * </ul>
 *
 * <p>Another test adds input partitions during a one-minute stall. At the end of each, every
 * reading is in exactly one bucket of each granularity, none dead-lettered.
 */
@Tag("integration")
// Each test's stalls and the stream around them take at most about seven minutes; a hung run fails
// here instead of holding CI until its limit.
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class StallRecoveryIT {

  private static final Granularity MINUTE = Granularity.parse("1m");
  private static final Granularity HOUR = Granularity.parse("1h");
  private static final String INSTANCE = "a";
  // 36,000 readings at 100 a second: about 360 s of sending, longer than the 255 s of stalls and
  // the recoveries between them, so that readings arrive during and after each stall.
  private static final int READINGS = 36_000;
  private static final double RATE = 100;
  private static final long NEW_DOCUMENTS_BEFORE_A_STALL = 10;
  // 24,000 readings at 200 a second: about two minutes of sending, the stall in the middle.
  private static final int GROWTH_READINGS = 24_000;
  private static final double GROWTH_RATE = 200;

  /**
   * Longest time from a thaw to {@code /ready} answering 200 again. A stall shorter than the
   * timeouts costs nothing; a longer one a rejoin, the restore of the instance's state and a
   * commit, seconds on an idle machine: 60 s leaves room for a loaded CI machine.
   */
  private static final Duration READY_BOUND = Duration.ofSeconds(60);

  private static final Pattern STALLS =
      Pattern.compile(
          "(?m)^bucketer_process_stalls_total\\{[^}]*outlived=\"([a-z-]+)\"[^}]*} ([0-9.]+)$");

  private static final Pattern FENCING_LOOP_RESTARTS =
      Pattern.compile(
          "(?m)^bucketer_stream_thread_restarts_total\\{[^}]*cause=\"fencing-loop\"[^}]*} ([0-9.]+)$");

  private static final Pattern TASKS_CLOSED =
      Pattern.compile("(?m)^kafka_stream_thread_task_closed_total\\{[^}]*} ([0-9.E+]+)$");

  private static LocalInfrastructure infrastructure;

  private final HttpClient http = HttpClient.newHttpClient();

  @TempDir(cleanup = CleanupMode.ON_SUCCESS)
  Path dir;

  @BeforeAll
  static void startInfrastructure() {
    infrastructure = LocalInfrastructure.start(ResilienceSettings.broker());
  }

  @AfterAll
  static void stopInfrastructure() {
    infrastructure.close();
  }

  @Test
  void shouldComeBackByItselfFromStallsOfFifteenSecondsOneMinuteAndThreeMinutes() throws Exception {
    // 20 sensors every 5 s of event time, 5 % out of order.
    final List<Reading> readings =
        GeneratedReadings.of(
            new ReadingGenerator.Options(
                20,
                Instant.parse("2025-06-01T09:00:00Z"),
                Duration.ofSeconds(5),
                Duration.ofMillis(500),
                0.05,
                20,
                READINGS,
                11));
    final Timeline timeline = new Timeline();
    final int port = LoopbackPorts.free(1).get(0);
    try (IsolatedRun run =
        new IsolatedRun(infrastructure, dir, 3, ResilienceSettings.asDeployed(Map.of()))) {
      final StoredDocuments store = run.store();
      final ProcessorProcess processor = run.startProcessor(INSTANCE, endpoints(port));
      run.awaitConsumingBy(processor);
      timeline.mark("consuming");
      try (PacedProducer gateways =
          PacedProducer.start(infrastructure, run.inputTopic(), readings, RATE, Map.of())) {
        stall(run, store, processor, port, Duration.ofSeconds(15), false, timeline);
        stall(run, store, processor, port, Duration.ofSeconds(60), true, timeline);
        stall(run, store, processor, port, Duration.ofMinutes(3), true, timeline);
        assertThat(gateways.acknowledged())
            .as("readings still to come after the last stall: it stalled under load")
            .isLessThan(READINGS);
        assertThat(gateways.awaitDone(Duration.ofMinutes(3))).isEqualTo(READINGS);
        timeline.mark("all sent");
      }
      run.awaitInputConsumed(); // then the idle timeout closes the last windows
      run.awaitReadingsInBuckets(READINGS, MINUTE, HOUR);
      timeline.mark("all in buckets");

      assertThat(stalls(port))
          .as("stalls counted by what they outlived")
          .containsEntry("session-timeout", 2.0)
          .hasEntrySatisfying("nothing", count -> assertThat(count).isGreaterThanOrEqualTo(1.0));
      assertNoFencingLoopRestart(port);
      assertEveryReadingInExactlyOneBucket(run, store, readings);
      assertThat(processor.stop())
          .as("SIGTERM ends the processor, its shutdown hook closing the app in time")
          .isEqualTo(ProcessorProcess.ENDED_BY_SIGTERM);
      System.out.printf(
          "StallRecoveryIT: %d readings, %d 1m and %d 1h documents; %s%n",
          READINGS, store.documents(MINUTE), store.documents(HOUR), timeline);
    }
  }

  /**
   * The input grows from two partitions to four while the processor stands still for a minute, and
   * the gateways, keyed by sensor id, move a part of the sensors to the new partitions. Thawed, it
   * recovers, takes the new partitions, and merges what arrived out of order across them.
   */
  @Test
  void shouldComeBackByItselfFromAStallWhileInputPartitionsAreAdded() throws Exception {
    // 100 sensors every second of event time, at 200 a second: 12,000 readings in a minute.
    final List<Reading> readings =
        GeneratedReadings.of(
            new ReadingGenerator.Options(
                100,
                Instant.parse("2025-06-01T08:59:40Z"),
                Duration.ofSeconds(1),
                Duration.ofMillis(200),
                0.05,
                100,
                GROWTH_READINGS,
                29));
    final Timeline timeline = new Timeline();
    final int port = LoopbackPorts.free(1).get(0);
    // The clients notice new partitions when they refresh metadata, every 5 minutes by default.
    final String metadataMaxAge = "1000";
    try (IsolatedRun run =
        new IsolatedRun(
            infrastructure,
            dir,
            2,
            ResilienceSettings.asDeployed(
                Map.of(KafkaSettings.CLIENT_PREFIX + "metadata.max.age.ms", metadataMaxAge)))) {
      final StoredDocuments store = run.store();
      final ProcessorProcess processor = run.startProcessor(INSTANCE, endpoints(port));
      run.awaitConsumingBy(processor);
      timeline.mark("consuming");
      try (PacedProducer gateways =
          PacedProducer.start(
              infrastructure,
              run.inputTopic(),
              readings,
              GROWTH_RATE,
              Map.of(ProducerConfig.METADATA_MAX_AGE_CONFIG, metadataMaxAge))) {
        stall(
            run,
            store,
            processor,
            port,
            Duration.ofSeconds(60),
            true,
            timeline,
            () -> {
              run.admin()
                  .createPartitions(Map.of(run.inputTopic(), NewPartitions.increaseTo(4)))
                  .all()
                  .get(30, TimeUnit.SECONDS);
              timeline.mark("partitions added");
            });
        run.awaitConsumingBy(processor);
        timeline.mark("consuming 4 partitions");
        assertThat(gateways.awaitDone(IsolatedRun.DEADLINE)).isEqualTo(GROWTH_READINGS);
        timeline.mark("all sent");
      }
      run.awaitInputConsumed();
      run.awaitReadingsInBuckets(GROWTH_READINGS, MINUTE, HOUR);
      timeline.mark("all in buckets");

      assertNoFencingLoopRestart(port);
      assertEveryReadingInExactlyOneBucket(run, store, readings);
      System.out.printf(
          "StallRecoveryIT: growth: %d readings, %d 1m and %d 1h documents; %s%n",
          GROWTH_READINGS, store.documents(MINUTE), store.documents(HOUR), timeline);
    }
  }

  private static Map<String, String> endpoints(final int port) {
    return Map.of(
        KafkaSettings.INSTANCE_ID,
        INSTANCE,
        HttpSettings.PORT,
        String.valueOf(port),
        HttpSettings.BIND_ADDRESS,
        LoopbackPorts.HOST);
  }

  /** None dead-lettered, and MongoDB's buckets of each granularity as computed apart. */
  private static void assertEveryReadingInExactlyOneBucket(
      final IsolatedRun run, final StoredDocuments store, final List<Reading> readings) {
    assertThat(
            DeadLetterTopic.countByReason(infrastructure.bootstrapServers(), run.deadLetterTopic()))
        .as("readings sent to the dead-letter topic")
        .isEmpty();
    BucketStoreAssertions.assertStoreEqualsComputation(store, readings, MINUTE);
    BucketStoreAssertions.assertStoreEqualsComputation(store, readings, HOUR);
  }

  /** A stall with nothing else happening meanwhile. */
  private void stall(
      final IsolatedRun run,
      final StoredDocuments store,
      final ProcessorProcess processor,
      final int port,
      final Duration length,
      final boolean recovers,
      final Timeline timeline)
      throws Exception {
    stall(run, store, processor, port, length, recovers, timeline, () -> {});
  }

  /** Something else that happens while the processor stands still. */
  @FunctionalInterface
  private interface Fault {
    void happen() throws Exception;
  }

  /**
   * Once buckets are being written, freezes the processor for {@code length} and thaws it; then
   * waits until it is ready again and has committed input and written buckets since the thaw.
   * {@code recovers}: the stall outlived the timeouts, so {@code /ready} says it is recovering
   * before it is ready again. {@code meanwhile} happens at the start of the stall.
   */
  private void stall(
      final IsolatedRun run,
      final StoredDocuments store,
      final ProcessorProcess processor,
      final int port,
      final Duration length,
      final boolean recovers,
      final Timeline timeline,
      final Fault meanwhile)
      throws Exception {
    final long documentsBefore = store.documents(MINUTE);
    await("new bucket documents in MongoDB before the stall")
        .atMost(IsolatedRun.DEADLINE)
        .pollInterval(Duration.ofMillis(100))
        .failFast(run::assertNoProcessorDiedOnItsOwn)
        .until(() -> store.documents(MINUTE) >= documentsBefore + NEW_DOCUMENTS_BEFORE_A_STALL);
    assertThat(status(port)).as("ready before the stall").isEqualTo(200);
    final double tasksClosedBefore = tasksClosed(port);
    processor.freeze();
    timeline.mark("frozen for " + length.toSeconds() + " s");
    final long committedAtTheStall = run.group().committedInputRecords();
    final long documentsAtTheStall = store.documents(MINUTE);
    meanwhile.happen();
    // The fault is a stall of this length: the test holds it, as an outage test holds a dependency
    // down. Nothing is waited for.
    final long thawAt = System.nanoTime() + length.toNanos();
    await("the stall's " + length.toSeconds() + " s")
        .atMost(length.plusSeconds(10))
        .pollInterval(Duration.ofMillis(200))
        .until(() -> System.nanoTime() >= thawAt);
    if (recovers) {
      assertThat(run.group().partitionsByMember(run.inputTopic()))
          .as("the group evicted the frozen member once its session timed out")
          .isEmpty();
    }
    processor.thaw();
    final long thawedAt = System.nanoTime();
    timeline.mark("thawed");
    if (recovers) {
      final String reason =
          await("/ready saying the processor recovers from the stall")
              .atMost(Duration.ofSeconds(20))
              .pollInterval(Duration.ofMillis(100))
              .until(() -> readyBody(port), body -> body.contains("recovering from a"));
      assertThat(reason)
          .as("/ready's one line while it recovers")
          .contains("stall that ended at")
          .contains("longer than the transaction timeout (30 s) and the session timeout (45 s)");
    }
    try {
      await("the processor ready again, committing input and writing buckets")
          .atMost(IsolatedRun.DEADLINE)
          .pollInterval(Duration.ofMillis(100))
          .failFast(run::assertNoProcessorDiedOnItsOwn)
          .until(
              () ->
                  status(port) == 200
                      && run.group().committedInputRecords() > committedAtTheStall
                      && store.documents(MINUTE) > documentsAtTheStall);
    } catch (ConditionTimeoutException e) {
      // What the processor was doing, for a failure seen on a loaded machine only.
      System.out.printf(
          "StallRecoveryIT: not recovered: /ready %d %s; committed %d (%d at the stall);"
              + " minute documents %d (%d at the stall); the processor's log ends:%n%s%n",
          status(port),
          readyBody(port),
          run.group().committedInputRecords(),
          committedAtTheStall,
          store.documents(MINUTE),
          documentsAtTheStall,
          processor.logTail(150));
      throw e;
    }
    final Duration readyAfter = Duration.ofNanos(System.nanoTime() - thawedAt);
    timeline.mark("ready again");
    if (recovers) {
      assertThat(tasksClosed(port))
          .as("tasks closed by the threads the stall fenced and the group evicted")
          .isGreaterThan(tasksClosedBefore);
    } else {
      assertThat(tasksClosed(port))
          .as("tasks closed across a stall shorter than the transaction timeout: none fenced")
          .isEqualTo(tasksClosedBefore);
    }
    System.out.printf(
        "StallRecoveryIT: %d s stall: ready and processing %.1f s after the thaw%n",
        length.toSeconds(), readyAfter.toMillis() / 1e3);
    assertThat(readyAfter)
        .as("time from the thaw of a %d s stall to the processor ready again", length.toSeconds())
        .isLessThanOrEqualTo(READY_BOUND);
  }

  /**
   * The tasks Kafka Streams' stream threads closed so far, from their own meter in the processor's
   * scrape: a fenced or evicted thread closes its tasks, so a stall that outlived nothing leaves
   * the count as it was.
   */
  private double tasksClosed(final int port) throws Exception {
    final Matcher matcher = TASKS_CLOSED.matcher(get(port, "/metrics").body());
    double closed = 0;
    boolean found = false;
    while (matcher.find()) {
      closed += Double.parseDouble(matcher.group(1));
      found = true;
    }
    assertThat(found).as("kafka_stream_thread_task_closed_total in the scrape").isTrue();
    return closed;
  }

  /**
   * A stall's recovery processes little before its first commit, and restores meanwhile: the
   * fencing-loop check must not take it for a loop and restart Kafka Streams.
   */
  private void assertNoFencingLoopRestart(final int port) throws Exception {
    final Matcher matcher = FENCING_LOOP_RESTARTS.matcher(get(port, "/metrics").body());
    assertThat(matcher.find()).as("fencing-loop restarts in the scrape").isTrue();
    assertThat(Double.parseDouble(matcher.group(1))).as("fencing-loop restarts").isZero();
  }

  /** The stalls counted so far by what they outlived, from the processor's scrape. */
  private Map<String, Double> stalls(final int port) throws Exception {
    final Matcher matcher = STALLS.matcher(get(port, "/metrics").body());
    final Map<String, Double> counts = new TreeMap<>();
    while (matcher.find()) {
      counts.put(matcher.group(1), Double.parseDouble(matcher.group(2)));
    }
    return counts;
  }

  private int status(final int port) throws Exception {
    return get(port, "/ready").statusCode();
  }

  private String readyBody(final int port) throws Exception {
    return get(port, "/ready").body();
  }

  private HttpResponse<String> get(final int port, final String path) throws Exception {
    return http.send(
        HttpRequest.newBuilder(URI.create("http://" + LoopbackPorts.HOST + ":" + port + path))
            .timeout(Duration.ofSeconds(10))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }
}
