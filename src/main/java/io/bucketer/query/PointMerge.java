package io.bucketer.query;

import io.bucketer.buckets.BucketStats;
import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.TimeWeighted;
import io.bucketer.sketch.ValueSketch;
import java.util.ArrayList;
import java.util.List;

/**
 * Consecutive windows of one granularity merged into the points of a chart, {@code k} windows a
 * point ({@link Resolution}). {@link #merged} is the one place where a point's fields are made from
 * its windows' fields: a field added to {@link WindowTotals} is merged there, with the point's span
 * and all its windows at hand. Merges are exact: the point's totals equal those of its readings.
 */
final class PointMerge {

  private PointMerge() {}

  /**
   * The points of {@code windows}, in start order: one per point of {@code resolution} that has a
   * window with readings; each window as it is when a point is one window.
   *
   * @param windows windows of {@code resolution.read()} in start order
   */
  static List<WindowTotals> of(final List<WindowTotals> windows, final Resolution resolution) {
    if (resolution.windowsPerPoint() == 1) {
      return windows;
    }
    final Granularity point = resolution.point();
    final List<WindowTotals> points = new ArrayList<>();
    final List<WindowTotals> inPoint = new ArrayList<>();
    long pointStart = Long.MIN_VALUE;
    for (final WindowTotals window : windows) {
      final long start = resolution.pointStart(window.start());
      if (start != pointStart && !inPoint.isEmpty()) {
        points.add(merged(point, pointStart, inPoint));
        inPoint.clear();
      }
      pointStart = start;
      inPoint.add(window);
    }
    if (!inPoint.isEmpty()) {
      points.add(merged(point, pointStart, inPoint));
    }
    return points;
  }

  /**
   * One point {@code [start, start + point)} from its windows with readings, in start order: their
   * readings' totals (each window's taken as later than the one before), open while any window is.
   */
  static WindowTotals merged(
      final Granularity point, final long start, final List<WindowTotals> windows) {
    BucketStats stats = windows.get(0).stats();
    boolean open = windows.get(0).open();
    for (final WindowTotals window : windows.subList(1, windows.size())) {
      stats = stats.merge(window.stats());
      open |= window.open();
    }
    return new WindowTotals(
        point, start, stats, open, timeWeighted(point, start, windows), null, sketch(windows));
  }

  /**
   * The point's quantile sketch: its windows' sketches merged, exactly, when each window has one
   * and all have the same relative accuracy; else null, unknown (a window read from the state, or
   * from a document without a sketch). Unlike the time-weighted part, windows without readings add
   * nothing to it.
   */
  private static ValueSketch sketch(final List<WindowTotals> windows) {
    final List<ValueSketch> sketches = new ArrayList<>(windows.size());
    for (final WindowTotals window : windows) {
      final ValueSketch sketch = window.sketch();
      if (sketch == null
          || sketch.count() != window.count()
          || sketch.relativeAccuracy() != windows.get(0).sketch().relativeAccuracy()) {
        return null;
      }
      sketches.add(sketch);
    }
    return ValueSketch.mergeAll(sketches.get(0).relativeAccuracy(), sketches);
  }

  /**
   * The point's time-weighted part: its windows' parts added up, when they are every window of the
   * point, each with its part. A window without readings in the point would need the bridge over
   * it, from the readings on either side, which a point does not hold: then null, unknown.
   */
  private static TimeWeighted timeWeighted(
      final Granularity point, final long start, final List<WindowTotals> windows) {
    TimeWeighted sum = TimeWeighted.NONE;
    long next = start;
    for (final WindowTotals window : windows) {
      if (window.timeWeighted() == null || window.start() != next) {
        return null;
      }
      sum = sum.followedBy(window.timeWeighted());
      next = window.end();
    }
    return next == point.windowEnd(start) ? sum : null;
  }
}
