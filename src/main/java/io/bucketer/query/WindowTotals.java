package io.bucketer.query;

import io.bucketer.buckets.BucketStats;
import io.bucketer.buckets.Granularity;

/**
 * The computed fields of one window of one series, whether read from a stored bucket or from the
 * processor's state: one point of a chart, one whole part of a range's statistics.
 *
 * @param open true while the window has not closed: more readings may still join it
 */
public record WindowTotals(
    Granularity granularity,
    long start,
    long count,
    double sum,
    double min,
    double max,
    boolean open) {

  static WindowTotals of(
      final Granularity granularity,
      final long start,
      final BucketStats stats,
      final boolean open) {
    return new WindowTotals(
        granularity, start, stats.count(), stats.sum(), stats.min(), stats.max(), open);
  }

  public long end() {
    return granularity.windowEnd(start);
  }

  public double average() {
    return sum / count;
  }

  /** The totals of both windows' readings, in this window: open while either part is. */
  WindowTotals plus(final WindowTotals other) {
    return new WindowTotals(
        granularity,
        start,
        count + other.count,
        sum + other.sum,
        Math.min(min, other.min),
        Math.max(max, other.max),
        open || other.open);
  }
}
