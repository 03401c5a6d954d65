package io.bucketer.query;

import io.bucketer.buckets.BucketStats;
import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.TimeWeighted;
import io.bucketer.buckets.TimeWeighting;
import io.bucketer.buckets.WindowQuality;
import io.bucketer.sketch.ValueSketch;

/**
 * The computed fields of one window of one series, whether read from a stored bucket, from the
 * summaries a coarser bucket holds of it, or from the processor's state: one point of a chart, one
 * whole part of a range's statistics.
 *
 * @param open true while the window has not closed: more readings may still join it
 * @param timeWeighted the window's time-weighted part as its document stores it; null when unknown
 *     (a document written before it was kept, or a window read from the processor's state)
 * @param weighting what the time-weighted part was computed with; null when there is none
 * @param sketch the quantile sketch of the window's values as its document stores it; null when
 *     unknown (quantiles off, a document written before sketches were kept or whose sketch does not
 *     decode, a window read from the processor's state)
 * @param quality the resends and late readings the window counted; null when unknown (a document
 *     written before schema_version 4)
 * @param learnedIntervalMillis the window's learned interval, for a metric that learns it: its
 *     document's {@code window.learned_interval_ms} (a summary's, that of the document holding it),
 *     or learned from its readings for a window of the processor's state; for a chart point, the
 *     weighted median of its windows' ({@link LearnedIntervals}). Null when it has none, or the
 *     metric does not learn one
 */
public record WindowTotals(
    Granularity granularity,
    long start,
    BucketStats stats,
    boolean open,
    TimeWeighted timeWeighted,
    TimeWeighting weighting,
    ValueSketch sketch,
    WindowQuality quality,
    Long learnedIntervalMillis) {

  /** Totals without a learned interval. */
  public WindowTotals(
      final Granularity granularity,
      final long start,
      final BucketStats stats,
      final boolean open,
      final TimeWeighted timeWeighted,
      final TimeWeighting weighting,
      final ValueSketch sketch,
      final WindowQuality quality) {
    this(granularity, start, stats, open, timeWeighted, weighting, sketch, quality, null);
  }

  /** These totals with {@code learnedIntervalMillis}. */
  WindowTotals withLearnedInterval(final Long learnedIntervalMillis) {
    return new WindowTotals(
        granularity,
        start,
        stats,
        open,
        timeWeighted,
        weighting,
        sketch,
        quality,
        learnedIntervalMillis);
  }

  /** Totals whose resends and late readings are not known. */
  public WindowTotals(
      final Granularity granularity,
      final long start,
      final BucketStats stats,
      final boolean open,
      final TimeWeighted timeWeighted,
      final TimeWeighting weighting,
      final ValueSketch sketch) {
    this(granularity, start, stats, open, timeWeighted, weighting, sketch, null);
  }

  /** Totals without a quantile sketch. */
  public WindowTotals(
      final Granularity granularity,
      final long start,
      final BucketStats stats,
      final boolean open,
      final TimeWeighted timeWeighted,
      final TimeWeighting weighting) {
    this(granularity, start, stats, open, timeWeighted, weighting, null, null);
  }

  /** Totals with a time-weighted part whose weighting is not known. */
  public WindowTotals(
      final Granularity granularity,
      final long start,
      final BucketStats stats,
      final boolean open,
      final TimeWeighted timeWeighted) {
    this(granularity, start, stats, open, timeWeighted, null, null, null);
  }

  /** Totals without a time-weighted part. */
  public WindowTotals(
      final Granularity granularity,
      final long start,
      final BucketStats stats,
      final boolean open) {
    this(granularity, start, stats, open, null, null, null, null);
  }

  public long end() {
    return granularity.windowEnd(start);
  }

  public long count() {
    return stats.count();
  }

  public double sum() {
    return stats.sum();
  }

  public double min() {
    return stats.min();
  }

  public double max() {
    return stats.max();
  }

  public double average() {
    return stats.average();
  }

  /**
   * The totals of both windows' readings, in this window: open while either part is, with the
   * resends and late readings of both (unknown when either's are). Only open parts are added, which
   * have no time-weighted part, no sketch and no learned interval yet: the state's windows learn
   * theirs from their readings once read ({@link SeriesView#learnedInterval}).
   */
  WindowTotals plus(final WindowTotals other) {
    final boolean otherIsLater = other.stats.lastTimestamp() >= stats.lastTimestamp();
    return new WindowTotals(
        granularity,
        start,
        otherIsLater ? stats.merge(other.stats) : other.stats.merge(stats),
        open || other.open,
        null,
        null,
        null,
        quality == null || other.quality == null ? null : quality.plus(other.quality));
  }
}
