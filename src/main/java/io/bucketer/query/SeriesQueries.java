package io.bucketer.query;

import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.Measurement;
import io.bucketer.buckets.RollupPlan;
import io.bucketer.buckets.SeriesKey;
import java.util.List;

/**
 * The read path: statistics of a series over a range, and its windows of one granularity, from
 * MongoDB and, when given, the processor's live state. Statistics follow {@link RangePlan}: whole
 * windows of the coarsest granularity that fits, finer ones at the edges, raw readings where an
 * edge cuts a window of the finest.
 */
public final class SeriesQueries {

  /** The statistics of a range, and what was read to compute them. */
  public record Statistics(
      long count, double sum, double min, double max, long documentsRead, long stateWindowsRead) {

    /** NaN for an empty range. */
    public double average() {
      return count == 0 ? Double.NaN : sum / count;
    }
  }

  /** Windows of one granularity, and what was read to find them. */
  public record Windows(List<WindowTotals> windows, long documentsRead, long stateWindowsRead) {}

  private final StoredBuckets stored;
  private final RollupPlan plan;

  public SeriesQueries(final StoredBuckets stored) {
    this.stored = stored;
    this.plan = new RollupPlan(stored.granularities());
  }

  public List<Granularity> granularities() {
    return plan.granularities();
  }

  /**
   * count, sum, avg, min and max of {@code series} over {@code [from, to)}.
   *
   * @throws IllegalArgumentException when {@code from >= to}
   */
  public Statistics statistics(
      final SeriesKey series, final long from, final long to, final LiveWindows live) {
    final SeriesView view = new SeriesView(series, stored, live, plan);
    long count = 0;
    double sum = 0;
    double min = Double.POSITIVE_INFINITY;
    double max = Double.NEGATIVE_INFINITY;
    for (final RangePlan.Part part : RangePlan.of(plan.granularities(), from, to)) {
      if (part instanceof RangePlan.WholeBuckets whole) {
        for (final WindowTotals window :
            view.windows(whole.granularity(), whole.from(), whole.to())) {
          count += window.count();
          sum += window.sum();
          min = Math.min(min, window.min());
          max = Math.max(max, window.max());
        }
      } else {
        for (final Measurement measurement : view.measurements(part.from(), part.to())) {
          count++;
          sum += measurement.value();
          min = Math.min(min, measurement.value());
          max = Math.max(max, measurement.value());
        }
      }
    }
    return new Statistics(count, sum, min, max, view.documentsRead(), view.stateWindowsRead());
  }

  /**
   * The windows of {@code granularity} that overlap {@code [from, to)} and have readings, whole (a
   * chart's points), in start order.
   *
   * @throws IllegalArgumentException when {@code granularity} is not configured
   */
  public Windows windows(
      final SeriesKey series,
      final Granularity granularity,
      final long from,
      final long to,
      final LiveWindows live) {
    if (!plan.granularities().contains(granularity)) {
      throw new IllegalArgumentException("not a configured granularity: " + granularity);
    }
    final SeriesView view = new SeriesView(series, stored, live, plan);
    final List<WindowTotals> windows = view.windows(granularity, granularity.windowStart(from), to);
    return new Windows(windows, view.documentsRead(), view.stateWindowsRead());
  }

  /** True when MongoDB or the live state has any window of {@code series}. */
  public boolean exists(final SeriesKey series, final LiveWindows live) {
    final Granularity finest = plan.granularities().get(0);
    return live.holdsAny(series, finest) || stored.hasSeries(series);
  }

  /** Up to {@code limit} stored series whose sensor id starts with {@code prefix}, in order. */
  public List<SeriesKey> series(final String prefix, final int limit) {
    return stored.series(prefix, limit);
  }
}
