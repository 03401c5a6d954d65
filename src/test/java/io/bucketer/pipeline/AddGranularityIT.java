package io.bucketer.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.bucketer.app.BucketerApp;
import io.bucketer.avro.Reading;
import io.bucketer.buckets.Granularity;
import io.bucketer.config.WindowSettings;
import io.bucketer.testing.InProcessRun;
import io.bucketer.testing.LocalInfrastructure;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
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
import org.junit.jupiter.api.io.TempDir;

/**
 * docs/operations.md "Adding a granularity", through the processor and a real broker: it runs with
 * minutes and hours, stops, and starts again on its state with quarter hours and days added. The
 * hours keep every reading, the one that spans the restart included; the new granularities' windows
 * that begin after the restart are written whole, and the ones that span it are left to backfill.
 */
@Tag("integration")
// A hung run fails here, after five minutes, instead of holding CI until its limit.
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class AddGranularityIT {

  private static final Granularity MINUTE = Granularity.parse("1m");
  private static final Granularity QUARTER = Granularity.parse("15m");
  private static final Granularity HOUR = Granularity.parse("1h");
  private static final Granularity DAY = Granularity.parse("1d");
  private static final Instant DAY_START = Instant.parse("2025-06-01T00:00:00Z");
  private static final Instant RESTART = Instant.parse("2025-06-01T13:37:00Z");
  // Closes the last hour of the first day and the day: 01:00 + grace on the next one.
  private static final Instant LAST = Instant.parse("2025-06-02T01:00:31Z");
  private static final long STEP_MILLIS = 30_000;
  private static final List<String> SENSORS = List.of("sensor-a", "sensor-b", "sensor-c");

  private static LocalInfrastructure infrastructure;

  @TempDir Path stateDir;

  @BeforeAll
  static void startInfrastructure() {
    infrastructure = LocalInfrastructure.start();
  }

  @AfterAll
  static void stopInfrastructure() {
    infrastructure.close();
  }

  @Test
  void shouldKeepEveryReadingAndLeaveTheWindowsThatSpanTheRestartToBackfill() throws Exception {
    // Windows close only by their series' own time here: the counts below are exact.
    final Map<String, String> before =
        Map.of(WindowSettings.GRANULARITIES, "1m,1h", WindowSettings.IDLE_TIMEOUT, "1h");
    try (InProcessRun run = new InProcessRun(infrastructure.endpoints(), stateDir, 3, before)) {
      final List<Reading> first = readings(DAY_START, RESTART);
      try (BucketerApp app = run.start()) {
        run.send(first);
        run.awaitReadingsInBuckets(before(first, "2025-06-01T13:36:00Z"), MINUTE);
      }

      final List<Reading> second = readings(RESTART, LAST);
      final List<Reading> all = new ArrayList<>(first);
      all.addAll(second);
      try (BucketerApp app =
          run.start(
              Map.of(WindowSettings.GRANULARITIES, "1m,15m,1h,1d"), new SimpleMeterRegistry())) {
        run.send(second);
        final long closed = before(all, "2025-06-02T01:00:00Z");
        await("every reading in the minutes and the hours")
            .atMost(InProcessRun.DEADLINE)
            .untilAsserted(
                () ->
                    assertThat(
                            List.of(
                                run.store().readingsInBuckets(MINUTE),
                                run.store().readingsInBuckets(HOUR)))
                        .containsExactly(closed, closed));
      }

      assertThat(run.store().readingsInBuckets(QUARTER))
          .as("quarter hours from the first that begins after the restart")
          .isEqualTo(between(all, "2025-06-01T13:45:00Z", "2025-06-02T01:00:00Z"));
      assertThat(run.store().documents(DAY)).as("the day that spans the restart").isZero();
      assertThat(run.deadLetters()).as("dead letters").isEmpty();
    }
  }

  /** A reading every 30 s of each sensor in {@code [from, to)}. */
  private static List<Reading> readings(final Instant from, final Instant to) {
    final List<Reading> readings = new ArrayList<>();
    for (long t = from.toEpochMilli(); t < to.toEpochMilli(); t += STEP_MILLIS) {
      for (final String sensor : SENSORS) {
        readings.add(
            new Reading(
                sensor, Instant.ofEpochMilli(t), 20.0 + (t / 1_000) % 11, "temperature", null));
      }
    }
    return readings;
  }

  private static long before(final List<Reading> readings, final String end) {
    return between(readings, "2000-01-01T00:00:00Z", end);
  }

  private static long between(final List<Reading> readings, final String from, final String to) {
    final Instant start = Instant.parse(from);
    final Instant end = Instant.parse(to);
    return readings.stream()
        .filter(r -> !r.getTimestamp().isBefore(start) && r.getTimestamp().isBefore(end))
        .count();
  }
}
