package io.bucketer.query;

import io.bucketer.buckets.BucketStats;
import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.Interpolation;
import io.bucketer.buckets.Measurement;
import io.bucketer.buckets.TimeWeighted;
import io.bucketer.buckets.TimeWeighting;
import io.bucketer.buckets.WindowQuality;
import io.bucketer.sketch.ValueSketch;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

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
    int from = 0;
    while (from < windows.size()) {
      final long start = resolution.pointStart(windows.get(from).start());
      int to = from + 1;
      while (to < windows.size() && resolution.pointStart(windows.get(to).start()) == start) {
        to++;
      }
      points.add(
          merged(
              point,
              start,
              windows.subList(from, to),
              from > 0 ? windows.get(from - 1) : null,
              to < windows.size() ? windows.get(to) : null));
      from = to;
    }
    return points;
  }

  /** One point from its windows alone: {@link #merged} knowing no window around the point. */
  static WindowTotals merged(
      final Granularity point, final long start, final List<WindowTotals> windows) {
    return merged(point, start, windows, null, null);
  }

  /**
   * One point {@code [start, start + point)} from its windows with readings, in start order: their
   * readings' totals (each window's taken as later than the one before), open while any window is,
   * and their resends and late readings added up (unknown when a window's are; the windows without
   * readings count none), and the weighted median of their learned intervals ({@link
   * LearnedIntervals}: each window's weighted by its readings).
   *
   * @param before the window with readings before the point, or null when none was read
   * @param after the window with readings after the point, or null when none was read
   */
  static WindowTotals merged(
      final Granularity point,
      final long start,
      final List<WindowTotals> windows,
      final WindowTotals before,
      final WindowTotals after) {
    BucketStats stats = windows.get(0).stats();
    boolean open = windows.get(0).open();
    WindowQuality quality = windows.get(0).quality();
    for (final WindowTotals window : windows.subList(1, windows.size())) {
      stats = stats.merge(window.stats());
      open |= window.open();
      quality = quality == null || window.quality() == null ? null : quality.plus(window.quality());
    }
    return new WindowTotals(
        point,
        start,
        stats,
        open,
        timeWeighted(point, start, windows, before, after),
        null,
        sketch(windows),
        quality,
        LearnedIntervals.medianOf(windows));
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
   * The point's time-weighted part: its windows' parts added up, with the bridges over the windows
   * without readings between them, held by the last reading before each (with linear interpolation
   * running to the first after it), as a range's part adds them ({@link RangeTimeWeight}). Null,
   * unknown, when a window has no part, or they were computed otherwise, or a bridge at the point's
   * start or end needs a reading from a window that was not read (before the first point, or after
   * the last under linear interpolation).
   */
  private static TimeWeighted timeWeighted(
      final Granularity point,
      final long start,
      final List<WindowTotals> windows,
      final WindowTotals before,
      final WindowTotals after) {
    final TimeWeighting how = windows.get(0).weighting();
    TimeWeighted sum = TimeWeighted.NONE;
    long at = start;
    WindowTotals previous = before;
    for (final WindowTotals window : windows) {
      if (window.timeWeighted() == null || !Objects.equals(how, window.weighting())) {
        return null;
      }
      if (window.start() > at) {
        if (previous == null || how == null) {
          return null;
        }
        sum =
            sum.followedBy(
                TimeWeighted.bridge(
                    at, window.start(), previous.stats().last(), window.stats().first(), how));
      }
      sum = sum.followedBy(window.timeWeighted());
      at = window.end();
      previous = window;
    }
    final long end = point.windowEnd(start);
    if (at < end) {
      if (how == null) {
        return null;
      }
      final Measurement last = previous.stats().last();
      final boolean reachesOn = last.timestamp() + how.maxGapMillis() > at;
      if (reachesOn && how.interpolation() == Interpolation.LINEAR && after == null) {
        return null;
      }
      sum =
          sum.followedBy(
              TimeWeighted.bridge(
                  at, end, last, after == null ? null : after.stats().first(), how));
    }
    return sum;
  }
}
