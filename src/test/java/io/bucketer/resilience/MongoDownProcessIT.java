package io.bucketer.resilience;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.bucketer.avro.Reading;
import io.bucketer.buckets.Granularity;
import io.bucketer.config.HttpSettings;
import io.bucketer.embedded.LoopbackPorts;
import io.bucketer.embedded.ProcessorProcess;
import io.bucketer.query.StoredDocuments;
import io.bucketer.simulate.ReadingGenerator;
import io.bucketer.testing.BucketStoreAssertions;
import io.bucketer.testing.CuttableTcpProxy;
import io.bucketer.testing.GeneratedReadings;
import io.bucketer.testing.IsolatedRun;
import io.bucketer.testing.LocalInfrastructure;
import io.bucketer.testing.MongoThroughProxy;
import io.bucketer.testing.PacedProducer;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * MongoDB down, seen from outside a processor in its own JVM ({@code bucketer run}, the product's
 * logging): down at start, then up; and down for two minutes under load. Meanwhile {@code /ready}
 * is 503 with the one line that names MongoDB's address and the cause, {@code /health} stays 200,
 * the log stays short, and once MongoDB is back every reading is in its bucket.
 */
@Tag("integration")
// A hung run fails here instead of holding CI until its limit; the two-minute outage needs 4.
@Timeout(value = 6, unit = TimeUnit.MINUTES)
class MongoDownProcessIT {

  private static final Granularity MINUTE = Granularity.parse("1m");
  private static final Granularity HOUR = Granularity.parse("1h");
  private static final Instant HISTORY = Instant.parse("2025-06-01T09:00:00Z");

  /**
   * The "down at start, up a minute later", shortened: the sink retries with a backoff
   * capped at 1 s here ({@link MongoThroughProxy}), so 15 s is already more than ten attempts in
   * the same loop that a minute would run; a longer wait would only repeat them.
   */
  private static final Duration DOWN_AT_START = Duration.ofSeconds(15);

  /** The log-volume outage, in real time: the one test that takes this long. */
  private static final Duration LONG_OUTAGE = Duration.ofMinutes(2);

  /**
   * At most this many lines at WARN or above, or from bucketer's own loggers, while MongoDB is down
   * for two minutes: 4 a minute. The sink says its cause once, then once a minute while it lasts
   * (RepeatedWarning), which is 3 lines; the rest is slack for a line that another component (the
   * MongoDB driver, a Kafka client) may write once per outage, never per attempt: the sink retries
   * about once a second, so a line per attempt would be over a hundred.
   */
  private static final int MOST_LINES_IN_LONG_OUTAGE = 8;

  /** {@code <time> <LEVEL> [<thread>] <logger> - <message>}: the product's text log format. */
  private static final Pattern LOG_LINE =
      Pattern.compile("^\\S+ (TRACE|DEBUG|INFO|WARN|ERROR) +\\[.*?\\] (\\S+) - (.*)$");

  private static LocalInfrastructure infrastructure;

  @TempDir(cleanup = CleanupMode.ON_SUCCESS)
  Path dir;

  private final HttpClient http = HttpClient.newHttpClient();
  private CuttableTcpProxy proxy;
  private int port;

  @BeforeAll
  static void startInfrastructure() {
    infrastructure = LocalInfrastructure.start(ResilienceSettings.broker());
  }

  @AfterAll
  static void stopInfrastructure() {
    infrastructure.close();
  }

  @BeforeEach
  void startProxy() {
    final URI mongo = URI.create(infrastructure.mongoUri());
    proxy = CuttableTcpProxy.start(mongo.getHost(), mongo.getPort());
    port = LoopbackPorts.free(1).get(0);
  }

  @AfterEach
  void stopProxy() {
    proxy.close();
  }

  @Test
  void shouldSayMongoDbIsUnreachableWhileItIsDownAtStartThenStoreEveryReading() throws Exception {
    final List<Reading> readings = readings(8, 2_400, 31);
    try (IsolatedRun run = newRun()) {
      proxy.cut();
      final ProcessorProcess processor = startConsuming(run);
      final StoredDocuments store = run.store();
      final String unreachable = "MongoDB 127.0.0.1:" + proxy.port() + ": unreachable: ";
      try (PacedProducer gateways =
          PacedProducer.start(infrastructure, run.inputTopic(), readings, 2_000, Map.of())) {
        await("/ready 503 naming MongoDB's address and the cause")
            .atMost(IsolatedRun.DEADLINE)
            .failFast(run::assertNoProcessorDiedOnItsOwn)
            .until(() -> notReadyBecause(unreachable));

        await("not ready for that reason while MongoDB stays down, and alive")
            .during(DOWN_AT_START)
            .atMost(DOWN_AT_START.plusSeconds(10))
            .pollInterval(Duration.ofMillis(500))
            .failFast(run::assertNoProcessorDiedOnItsOwn)
            .until(
                () ->
                    notReadyBecause(unreachable)
                        && get("/health").statusCode() == 200
                        && store.documents(MINUTE) == 0);
        proxy.restore();

        await("/ready 200 once MongoDB is up")
            .atMost(IsolatedRun.DEADLINE)
            .failFast(run::assertNoProcessorDiedOnItsOwn)
            .until(() -> get("/ready").statusCode() == 200);
        assertThat(gateways.awaitDone(IsolatedRun.DEADLINE)).isEqualTo(readings.size());
      }
      run.awaitInputConsumed(); // then the idle timeout closes the last windows
      run.awaitReadingsInBuckets(readings.size(), MINUTE, HOUR);

      BucketStoreAssertions.assertStoreEqualsComputation(store, readings, MINUTE);
      BucketStoreAssertions.assertStoreEqualsComputation(store, readings, HOUR);
      final List<String> log = Files.readAllLines(processor.log(), StandardCharsets.UTF_8);
      assertThat(log)
          .anyMatch(
              line ->
                  line.contains("WARN")
                      && line.contains("cannot create the bucket indexes yet")
                      && line.contains(unreachable))
          .noneMatch(line -> line.contains("com.mongodb."));
      assertThat(log)
          .filteredOn(line -> line.contains("the bucket indexes are in place, after"))
          .singleElement()
          .asString()
          .contains(" INFO ");
      assertThat(processor.stop()).isEqualTo(ProcessorProcess.ENDED_BY_SIGTERM);
    }
  }

  @Test
  void shouldLogAFewLinesWhileMongoDbIsDownForTwoMinutesAndLoseNoReading() throws Exception {
    // 16 sensors, 100 readings a second for 3 minutes: readings keep coming through the outage.
    final List<Reading> readings = readings(16, 18_000, 37);
    try (IsolatedRun run = newRun()) {
      final ProcessorProcess processor = startConsuming(run);
      final StoredDocuments store = run.store();
      try (PacedProducer gateways =
          PacedProducer.start(infrastructure, run.inputTopic(), readings, 100, Map.of())) {
        await("buckets being written")
            .atMost(IsolatedRun.DEADLINE)
            .failFast(run::assertNoProcessorDiedOnItsOwn)
            .until(() -> store.documents(MINUTE) > 0);

        final int linesBeforeCut = lines(processor).size();
        final long sentAtCut = gateways.acknowledged();
        proxy.cut();
        final long cutAt = System.nanoTime();
        await("MongoDB down for two minutes: not ready, alive")
            .during(LONG_OUTAGE)
            .atMost(LONG_OUTAGE.plusSeconds(30))
            .pollInterval(Duration.ofSeconds(1))
            .failFast(run::assertNoProcessorDiedOnItsOwn)
            .until(() -> get("/ready").statusCode() == 503 && get("/health").statusCode() == 200);
        final List<String> untilRestore = lines(processor);
        final List<String> outage = untilRestore.subList(linesBeforeCut, untilRestore.size());
        final long sentDuringOutage = gateways.acknowledged() - sentAtCut;
        proxy.restore();
        final long outageSeconds = (System.nanoTime() - cutAt) / 1_000_000_000L;
        final int linesBeforeRestore = linesBeforeCut + outage.size();

        assertThat(gateways.awaitDone(Duration.ofMinutes(3))).isEqualTo(readings.size());
        run.awaitInputConsumed();
        run.awaitReadingsInBuckets(readings.size(), MINUTE, HOUR);
        final List<String> all = lines(processor);
        final List<String> afterRestore = all.subList(linesBeforeRestore, all.size());

        final List<String> counted = outage.stream().filter(MongoDownProcessIT::counts).toList();
        System.out.printf(
            "MongoDownProcessIT: MongoDB down %d s while %d readings were produced; %d log lines"
                + " in all, %d of them at WARN or above or bucketer's own:%n  %s%n",
            outageSeconds,
            sentDuringOutage,
            outage.size(),
            counted.size(),
            String.join("\n  ", counted));
        assertThat(sentDuringOutage).as("readings produced during the outage").isPositive();
        assertThat(counted)
            .as("lines at WARN or above, or bucketer's own, during the outage")
            .hasSizeLessThanOrEqualTo(MOST_LINES_IN_LONG_OUTAGE)
            .anyMatch(line -> line.contains("MongoDB 127.0.0.1:" + proxy.port() + ": unreachable"))
            // the cause said in words, not followed by the driver's cluster description
            .noneMatch(line -> line.contains("com.mongodb."));
        assertThat(afterRestore)
            .filteredOn(line -> line.contains("MongoDB acknowledges bucket writes again"))
            .singleElement()
            .asString()
            .contains(" INFO ");
        BucketStoreAssertions.assertStoreEqualsComputation(store, readings, MINUTE);
        BucketStoreAssertions.assertStoreEqualsComputation(store, readings, HOUR);
        assertThat(processor.stop()).isEqualTo(ProcessorProcess.ENDED_BY_SIGTERM);
      }
    }
  }

  /** MongoDB through the proxy, short client timeouts, the resilience tests' settings. */
  private IsolatedRun newRun() throws Exception {
    final Map<String, String> settings = new HashMap<>(MongoThroughProxy.settings(proxy));
    return new IsolatedRun(infrastructure, dir, 2, ResilienceSettings.processor(settings));
  }

  /** The processor in its own JVM, serving on {@link #port}, once it consumes the input. */
  private ProcessorProcess startConsuming(final IsolatedRun run) {
    final ProcessorProcess processor =
        run.startProcessor("a", Map.of(HttpSettings.PORT, String.valueOf(port)));
    run.awaitConsumingBy(processor);
    return processor;
  }

  /** In order, a reading every 2 s of event time per sensor. */
  private static List<Reading> readings(final int sensors, final long count, final long seed) {
    return GeneratedReadings.of(
        new ReadingGenerator.Options(
            sensors, HISTORY, Duration.ofSeconds(2), Duration.ZERO, 0, 0, count, seed));
  }

  /**
   * A line of the processor's log that the bound counts: at WARN or above, from bucketer's own
   * loggers at any level, or a line of a stack trace (no level of its own).
   */
  private static boolean counts(final String line) {
    final Matcher matcher = LOG_LINE.matcher(line);
    if (!matcher.matches()) {
      return !line.isBlank();
    }
    final String level = matcher.group(1);
    final String logger = matcher.group(2);
    return level.equals("WARN")
        || level.equals("ERROR")
        // logback may shorten a long name's packages to their initials
        || logger.startsWith("io.bucketer.")
        || logger.startsWith("i.b.");
  }

  private boolean notReadyBecause(final String reason) throws Exception {
    final HttpResponse<String> ready = get("/ready");
    return ready.statusCode() == 503 && ready.body().contains(reason);
  }

  private HttpResponse<String> get(final String path) throws Exception {
    return http.send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
            .timeout(Duration.ofSeconds(5))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private static List<String> lines(final ProcessorProcess processor) throws IOException {
    return Files.readAllLines(processor.log(), StandardCharsets.UTF_8);
  }
}
