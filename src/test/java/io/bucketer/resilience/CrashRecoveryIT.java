package io.bucketer.resilience;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.bucketer.avro.Reading;
import io.bucketer.buckets.Granularity;
import io.bucketer.config.KafkaSettings;
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
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * The processor, a separate JVM, is killed with SIGKILL while it writes buckets, and restarted on
 * the state directory it left, several times in one stream. Exactly-once processing must leave
 * MongoDB with every reading in exactly one bucket of each granularity: nothing lost with the
 * killed process, nothing counted twice when the restart replays what the kill interrupted, nor
 * when gateways resend readings the killed process had counted.
 *
 * <p>It runs as deployed: a stable {@code instance.id} (a StatefulSet pod's name) and Kafka's 45 s
 * session timeout. Each restart must resume within {@link #RESUME_BOUND}: as the same static member
 * it takes its partitions back at once, where a dynamic member would wait for the killed one's
 * session to expire.
 */
@Tag("integration")
// A hung run fails here, after five minutes, instead of holding CI until its limit.
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class CrashRecoveryIT {

  private static final Granularity MINUTE = Granularity.parse("1m");
  private static final Granularity HOUR = Granularity.parse("1h");
  private static final int KILLS = 3;
  private static final int READINGS = 30_000;
  // 30,000 readings at 1,000 a second: about 30 s of sending, long enough for three kills and
  // restarts, each restart with readings still to come that show it processing again.
  private static final double RATE = 1_000;
  private static final int RESENT_EVERY = 10;
  private static final int RESENT_LATER = 5_000;
  private static final long NEW_DOCUMENTS_BEFORE_A_KILL = 20;
  private static final String INSTANCE = "a";

  /**
   * Longest time from a restart to the restarted processor processing again ({@link
   * #awaitResumed}): well above the few seconds a static member takes, below the 45 s session a
   * dynamic member waits for.
   */
  private static final Duration RESUME_BOUND = Duration.ofSeconds(30);

  private static LocalInfrastructure infrastructure;

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
  void shouldHoldEveryReadingExactlyOnceAfterTheProcessorIsKilledWhileWritingBuckets()
      throws Exception {
    // 20 sensors every 5 s of event time from a day in the past: 7,500 s of history, so about
    // 2,500 minute buckets to write while the kills happen, and 5 % of readings out of order.
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
                7));
    // Gateways resend every tenth reading 5,000 readings (about 5 s, and 20 minutes of event time)
    // later: after its window closed, and for many after a kill and restart too. Each counts once.
    final List<Reading> sent = new ArrayList<>(readings);
    for (int i = RESENT_EVERY - 1; i < READINGS; i += RESENT_EVERY) {
      sent.add(Math.min(sent.size(), i + RESENT_LATER), readings.get(i));
    }
    final Timeline timeline = new Timeline();
    final Map<String, String> instance = Map.of(KafkaSettings.INSTANCE_ID, INSTANCE);
    try (IsolatedRun run =
        new IsolatedRun(infrastructure, dir, 3, ResilienceSettings.asDeployed(Map.of()))) {
      final StoredDocuments store = run.store();
      ProcessorProcess processor = run.startProcessor(INSTANCE, instance);
      run.awaitConsumingBy(processor);
      timeline.mark("consuming");
      final List<Long> readingsInBucketsAtKills = new ArrayList<>();
      try (PacedProducer gateways =
          PacedProducer.start(infrastructure, run.inputTopic(), sent, RATE, Map.of())) {
        for (int kill = 0; kill < KILLS; kill++) {
          awaitNewDocuments(run, store);
          readingsInBucketsAtKills.add(store.readingsInBuckets(MINUTE));
          assertThat(gateways.acknowledged())
              .as("readings sent before kill %d: the restart needs more to come", kill + 1)
              .isLessThan(sent.size());
          processor.kill();
          timeline.mark("killed at " + readingsInBucketsAtKills.get(kill) + " readings in buckets");
          final long committedAtKill = run.group().committedInputRecords();
          final long documentsAtKill = store.documents(MINUTE);
          final long restartedAt = System.nanoTime();
          processor = run.startProcessor(INSTANCE, instance);
          // The group cannot tell this start from the killed one: the broker keeps a static
          // member's client id when its instance id joins again. Its output tells them apart.
          awaitResumed(run, store, committedAtKill, documentsAtKill);
          final Duration resumedAfter = Duration.ofNanos(System.nanoTime() - restartedAt);
          System.out.printf(
              "CrashRecoveryIT: kill %d: resumed %.1f s after restart%n",
              kill + 1, resumedAfter.toMillis() / 1e3);
          timeline.mark("restarted, resumed");
          assertThat(resumedAfter)
              .as("time from restart %d to the processor processing again", kill + 1)
              .isLessThanOrEqualTo(RESUME_BOUND);
        }
        assertThat(gateways.awaitDone(IsolatedRun.DEADLINE)).isEqualTo(sent.size());
        timeline.mark("all sent");
      }
      run.awaitInputConsumed(); // then the idle timeout closes the last windows
      run.awaitReadingsInBuckets(READINGS, MINUTE, HOUR);
      timeline.mark("all in buckets");

      assertThat(readingsInBucketsAtKills)
          .as("each kill hit a processor that had written buckets since its start, mid-stream")
          .hasSize(KILLS)
          .isSorted()
          .doesNotHaveDuplicates()
          .allSatisfy(written -> assertThat(written).isBetween(1L, READINGS - 1L));
      assertThat(
              DeadLetterTopic.countByReason(
                  infrastructure.bootstrapServers(), run.deadLetterTopic()))
          .as("readings sent to the dead-letter topic")
          .isEmpty();
      BucketStoreAssertions.assertStoreEqualsComputation(store, readings, MINUTE);
      BucketStoreAssertions.assertStoreEqualsComputation(store, readings, HOUR);
      assertThat(processor.stop())
          .as("SIGTERM ends the last processor, its shutdown hook closing the app in time")
          .isEqualTo(ProcessorProcess.ENDED_BY_SIGTERM);
      System.out.printf(
          "CrashRecoveryIT: %d readings, %d 1m and %d 1h documents; %s%n",
          READINGS, store.documents(MINUTE), store.documents(HOUR), timeline);
    }
  }

  /**
   * Waits until a processor started after a kill processes again: the group committed input beyond
   * what it had at the kill (with exactly-once only a member that processed it commits), and
   * MongoDB holds more bucket documents than then. The killed JVM was gone at the kill, so the new
   * one did both.
   */
  private static void awaitResumed(
      final IsolatedRun run,
      final StoredDocuments store,
      final long committed,
      final long documents) {
    await("the restarted processor committing input and writing buckets")
        .atMost(IsolatedRun.DEADLINE)
        .pollInterval(Duration.ofMillis(100))
        .failFast(run::assertNoProcessorDiedOnItsOwn)
        .until(
            () ->
                run.group().committedInputRecords() > committed
                    && store.documents(MINUTE) > documents);
  }

  /** Waits until buckets are being written: MongoDB gained documents since this start. */
  private static void awaitNewDocuments(final IsolatedRun run, final StoredDocuments store) {
    final long before = store.documents(MINUTE);
    await("new bucket documents in MongoDB")
        .atMost(IsolatedRun.DEADLINE)
        .pollInterval(Duration.ofMillis(100))
        .failFast(run::assertNoProcessorDiedOnItsOwn)
        .until(() -> store.documents(MINUTE) >= before + NEW_DOCUMENTS_BEFORE_A_KILL);
  }
}
