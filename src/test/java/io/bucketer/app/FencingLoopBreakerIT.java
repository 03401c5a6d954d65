package io.bucketer.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import io.bucketer.avro.Reading;
import io.bucketer.buckets.Granularity;
import io.bucketer.config.KafkaSettings;
import io.bucketer.config.WindowSettings;
import io.bucketer.metrics.BucketerMetrics;
import io.bucketer.recovery.FencingLoop;
import io.bucketer.recovery.FencingLoopBreaker;
import io.bucketer.simulate.ReadingGenerator;
import io.bucketer.testing.BucketStoreAssertions;
import io.bucketer.testing.CapturedLog;
import io.bucketer.testing.GeneratedReadings;
import io.bucketer.testing.InProcessRun;
import io.bucketer.testing.LocalInfrastructure;
import io.bucketer.testing.Meters;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A processor whose transactions cannot commit within their timeout loops on fencing: the broker
 * aborts each one, the stream thread is fenced, rejoins and tries the same work again. The fault
 * here ({@link SlowAcknowledgements}) holds every transaction open past a 1 s timeout, and lets a 2
 * s one through. The processor must find the loop, restart Kafka Streams with twice the timeout,
 * say so and count it, then bucket every reading exactly once (what {@code /ready} says meanwhile
 * is {@code FencingLoopBreakerTest}'s).
 */
@Tag("integration")
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class FencingLoopBreakerIT {

  private static final Granularity MINUTE = Granularity.parse("1m");
  private static final Granularity HOUR = Granularity.parse("1h");
  private static final Duration DEADLINE = Duration.ofMinutes(3);

  private static LocalInfrastructure infrastructure;

  @TempDir Path stateDir;

  @BeforeAll
  static void startInfrastructure() {
    // The broker looks for transactions open past their timeout every half second, not every
    // 10 s, so that each one of the fault is aborted before it could commit.
    infrastructure =
        LocalInfrastructure.start(
            Map.of("transaction.abort.timed.out.transaction.cleanup.interval.ms", "500"));
  }

  @AfterAll
  static void stopInfrastructure() {
    infrastructure.close();
  }

  @Test
  void shouldBreakAFencingLoopByRestartingWithTwiceTheTransactionTimeoutAndLoseNothing()
      throws Exception {
    final List<Reading> readings =
        GeneratedReadings.of(
            new ReadingGenerator.Options(
                6,
                Instant.parse("2025-06-01T09:00:00Z"),
                Duration.ofSeconds(5),
                Duration.ofMillis(500),
                0,
                24,
                1440,
                7));
    final SimpleMeterRegistry meters = new SimpleMeterRegistry();

    try (CapturedLog log =
            CapturedLog.of(
                Level.INFO, FencingLoop.class.getName(), FencingLoopBreaker.class.getName());
        InProcessRun run = new InProcessRun(infrastructure.endpoints(), stateDir, 1, overrides());
        BucketerApp app = run.start(meters)) {
      run.send(readings);

      await("a restart of kafka streams that breaks the fencing loop")
          .atMost(DEADLINE)
          .until(() -> restarts(meters) >= 1);
      run.awaitReadingsInBuckets(readings.size(), MINUTE, HOUR);
      await("ready").atMost(DEADLINE).until(() -> app.notReadyReason().isEmpty());

      BucketStoreAssertions.assertStoreEqualsComputation(run.store(), readings, MINUTE, HOUR);
      assertThat(restarts(meters)).as("one restart: 2 s lets every transaction through").isOne();
      assertThat(log.text())
          .contains("not committing: kafka streams has processed")
          .contains(
              "breaking a fencing loop: restarting kafka streams with a transaction timeout of"
                  + " 2.0 s (was 1.0 s)")
          .contains("restarted kafka streams with a transaction timeout of 2.0 s");
      assertThat(run.deadLetters()).isEmpty();
    }
  }

  private static double restarts(final SimpleMeterRegistry meters) {
    return Meters.count(
        meters, BucketerMetrics.STREAM_THREAD_RESTARTS, "cause", BucketerApp.FENCING_LOOP);
  }

  private static Map<String, String> overrides() {
    return Map.of(
        WindowSettings.IDLE_TIMEOUT,
        "2s",
        KafkaSettings.CLIENT_PREFIX + "transaction.timeout.ms",
        "1000",
        KafkaSettings.CLIENT_PREFIX + "producer.interceptor.classes",
        SlowAcknowledgements.class.getName());
  }
}
