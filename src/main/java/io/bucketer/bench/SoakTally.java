package io.bucketer.bench;

import io.bucketer.avro.Reading;
import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.SeriesKey;
import io.bucketer.query.StoredDocuments;
import io.bucketer.query.StoredDocuments.WindowId;
import io.bucketer.simulate.ReadingGenerator;
import java.io.PrintStream;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Predicate;

/**
 * The soak's final check: every reading the fleet sent against what MongoDB holds, window by
 * window. The fleet's readings come from a seeded generator, so the expected count of each series'
 * window is computed again from the same options; MongoDB's is the sum of the window's documents'
 * counts. A window whose counts differ lost readings or counted some twice.
 */
final class SoakTally {

  private SoakTally() {}

  /** What one granularity's comparison found. */
  record Result(
      Granularity granularity,
      long windows,
      long readings,
      long storedReadings,
      long windowsShort,
      long windowsOver,
      long windowsMissing,
      long windowsUnexpected,
      long otherReadings,
      long windowsOpen,
      long readingsOpen) {

    boolean exact() {
      return windowsShort == 0
          && windowsOver == 0
          && windowsMissing == 0
          && windowsUnexpected == 0
          && readings == storedReadings;
    }

    String line() {
      return String.format(
          "%s windows: %,d closed expected holding %,d readings (and %,d still open holding %,d);"
              + " MongoDB holds %,d of the fleet's readings; windows short %,d, over %,d, missing"
              + " %,d, not sent %,d: %s",
          granularity.label(),
          windows,
          readings,
          windowsOpen,
          readingsOpen,
          storedReadings,
          windowsShort,
          windowsOver,
          windowsMissing,
          windowsUnexpected,
          exact() ? "exact" : "NOT EXACT");
    }
  }

  /**
   * Compares the windows of {@code granularity} that the fleet's readings ({@code fleet}) make and
   * that ended by {@code closedBy} with those stored (a live window that has not ended yet is still
   * open, in the processor's state, and in no document); the readings of stored series that {@code
   * fleetSeries} says are not the fleet's (the flood's) are summed apart.
   */
  static Result compare(
      final ReadingGenerator.Options fleet,
      final Granularity granularity,
      final StoredDocuments store,
      final Predicate<String> fleetSeries,
      final Instant closedBy) {
    final Map<WindowId, Long> expected = new HashMap<>();
    final Map<WindowId, Long> open = new HashMap<>();
    final ReadingGenerator readings = new ReadingGenerator(fleet);
    long total = 0;
    long readingsOpen = 0;
    while (readings.hasNext()) {
      final Reading reading = readings.next();
      final long startMillis = granularity.windowStart(reading.getTimestamp().toEpochMilli());
      final Instant start = Instant.ofEpochMilli(startMillis);
      if (granularity.windowEnd(startMillis) > closedBy.toEpochMilli()) {
        open.merge(
            new WindowId(new SeriesKey(reading.getSensorId(), reading.getMetric()), start),
            1L,
            Long::sum);
        readingsOpen++;
        continue;
      }
      expected.merge(
          new WindowId(new SeriesKey(reading.getSensorId(), reading.getMetric()), start),
          1L,
          Long::sum);
      total++;
    }
    final Map<WindowId, Long> stored = store.countsByWindow(granularity);
    long storedReadings = 0;
    long windowsShort = 0;
    long windowsOver = 0;
    long windowsMissing = 0;
    long windowsUnexpected = 0;
    long otherReadings = 0;
    for (final Map.Entry<WindowId, Long> window : stored.entrySet()) {
      if (!fleetSeries.test(window.getKey().series().sensorId())) {
        otherReadings += window.getValue();
        continue;
      }
      storedReadings += window.getValue();
      final Long wanted = expected.get(window.getKey());
      if (wanted == null) {
        windowsUnexpected++;
      } else if (window.getValue() < wanted) {
        windowsShort++;
      } else if (window.getValue() > wanted) {
        windowsOver++;
      }
    }
    for (final WindowId window : expected.keySet()) {
      if (!stored.containsKey(window)) {
        windowsMissing++;
      }
    }
    return new Result(
        granularity,
        expected.size(),
        total,
        storedReadings,
        windowsShort,
        windowsOver,
        windowsMissing,
        windowsUnexpected,
        otherReadings,
        open.size(),
        readingsOpen);
  }

  /** Prints each result's line. */
  static void print(final Iterable<Result> results, final PrintStream out) {
    results.forEach(result -> out.println("  " + result.line()));
  }
}
