package io.bucketer.buckets;

import java.util.ArrayList;
import java.util.List;

/**
 * One bucket document of a closed window: a window of one series at one granularity whose end plus
 * the grace period has passed.
 *
 * <p>Like MongoDB's own time-series buckets, a window whose readings do not fit one bucket is
 * written as several: bucket {@code seq} of {@code buckets}, each with the computed fields of its
 * own measurements ({@link #stats}) and the totals of the whole window ({@link #window}), so "the
 * window's average" stays a one-document read. A window closed again after a late reading carries a
 * higher {@code revision}; a store keeps the highest.
 *
 * <p>Measurements are sorted by time; readings with equal times keep their arrival order.
 */
public record ClosedBucket(
    SeriesKey series,
    Granularity granularity,
    long windowStart,
    BucketStats stats,
    List<Measurement> measurements,
    BucketStats window,
    int seq,
    int buckets,
    int revision) {

  public ClosedBucket {
    measurements = List.copyOf(measurements);
    if (stats.count() != measurements.size()) {
      throw new IllegalArgumentException(
          "bucket count " + stats.count() + " != " + measurements.size() + " measurements");
    }
    if (seq < 0 || seq >= buckets || revision < 0) {
      throw new IllegalArgumentException(
          "bucket " + seq + " of " + buckets + ", revision " + revision + " is not a bucket");
    }
  }

  /** A whole window in a single bucket, first revision. */
  public ClosedBucket(
      final SeriesKey series,
      final Granularity granularity,
      final long windowStart,
      final BucketStats stats,
      final List<Measurement> measurements) {
    this(series, granularity, windowStart, stats, measurements, stats, 0, 1, 0);
  }

  /**
   * The buckets of a whole window: its measurements in time order, cut into runs of at most {@code
   * maxMeasurements}, each with its own computed fields and the window's totals.
   */
  public static List<ClosedBucket> ofWindow(
      final SeriesKey series,
      final Granularity granularity,
      final long windowStart,
      final BucketStats window,
      final List<Measurement> sortedMeasurements,
      final int revision,
      final int maxMeasurements) {
    if (window.count() != sortedMeasurements.size()) {
      throw new IllegalStateException(
          "window "
              + series
              + " "
              + granularity
              + "@"
              + windowStart
              + " counts "
              + window.count()
              + " readings but holds "
              + sortedMeasurements.size());
    }
    final int total = sortedMeasurements.size();
    final int buckets = Math.max(1, (total + maxMeasurements - 1) / maxMeasurements);
    final List<ClosedBucket> result = new ArrayList<>(buckets);
    for (int seq = 0; seq < buckets; seq++) {
      final List<Measurement> part =
          sortedMeasurements.subList(
              seq * maxMeasurements, Math.min(total, (seq + 1) * maxMeasurements));
      final BucketStats stats =
          buckets == 1 ? window : BucketStats.ofAll(part, window.utcOffsetMinutes());
      result.add(
          new ClosedBucket(
              series, granularity, windowStart, stats, part, window, seq, buckets, revision));
    }
    return result;
  }

  public long windowEnd() {
    return granularity.windowEnd(windowStart);
  }
}
