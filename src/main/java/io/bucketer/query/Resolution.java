package io.bucketer.query;

import io.bucketer.buckets.Granularity;
import java.util.List;
import java.util.OptionalLong;

/**
 * How a chart over {@code [from, to)} is drawn from the stored windows: which configured
 * granularity is read, and how many consecutive windows of it each point merges.
 *
 * <p>Points are aligned to multiples of their width from the epoch, as windows are, so the same
 * instant falls in the same point however the range moves (a chart scrolled by a minute keeps its
 * points). Every point is whole: the one {@code from} cuts starts before it, the one {@code to}
 * cuts ends after it.
 *
 * @param read the granularity whose windows are read
 * @param windowsPerPoint how many consecutive windows of {@code read} make one point (k)
 * @param firstStart the first point's start: {@code from} aligned down to the point's width
 * @param points the points in {@code [from, to)}: with readings or not
 * @param widened true when the points were made wider than asked, to stay within the limit
 */
public record Resolution(
    Granularity read, long windowsPerPoint, long firstStart, long points, boolean widened) {

  /** The windows of {@code granularity} as they are, one per point: a chart asked for by it. */
  public static Resolution of(final Granularity granularity, final long from, final long to) {
    final long first = granularity.windowStart(from);
    return new Resolution(
        granularity, 1, first, ceilDiv(to - first, granularity.sizeMillis()), false);
  }

  /**
   * The width a chart asks for: {@code ceil((to - from) / maxDataPoints)} (Grafana's max data
   * points), or {@code interval} (Grafana's {@code $__interval_ms}), the wider of the two when both
   * are given.
   *
   * @throws IllegalArgumentException when neither is given, or one is not positive
   */
  public static long step(
      final long rangeMillis, final OptionalLong maxDataPoints, final OptionalLong intervalMillis) {
    if (maxDataPoints.isEmpty() && intervalMillis.isEmpty()) {
      throw new IllegalArgumentException("a chart needs a point count or an interval");
    }
    if (maxDataPoints.orElse(1) < 1 || intervalMillis.orElse(1) < 1) {
      throw new IllegalArgumentException("a point count and an interval must be positive");
    }
    final long byCount =
        maxDataPoints.isPresent() ? ceilDiv(rangeMillis, maxDataPoints.getAsLong()) : 1;
    return Math.max(byCount, intervalMillis.orElse(1));
  }

  /**
   * Points at least {@code step} wide over {@code [from, to)}: the coarsest configured granularity
   * no wider than the step (the finest when each is wider), {@code k = ceil(step / g)} of its
   * windows per point; a configured granularity exactly {@code k} windows wide is read instead, one
   * window a point, from fewer documents. Points never exceed {@code maxPoints}: a step that would
   * give more is widened to the narrowest width that gives no more ({@code widened}), rather than
   * refused, so that a chart always gets an answer.
   *
   * @param configured the configured granularities, any order
   */
  public static Resolution pick(
      final List<Granularity> configured,
      final long from,
      final long to,
      final long step,
      final int maxPoints) {
    if (from >= to || step < 1 || maxPoints < 1 || configured.isEmpty()) {
      throw new IllegalArgumentException("a chart needs a range, a step, a limit, a granularity");
    }
    final List<Granularity> finestFirst = configured.stream().sorted().toList();
    final Resolution asked = forStep(finestFirst, from, to, step);
    if (asked.points <= maxPoints) {
      return asked;
    }
    // (to - from) / maxPoints leaves at most one point over the limit, the one the alignment adds,
    // and one window more a point removes it after a few tries. Only a limit of one point, for a
    // range across a boundary of the grid, may need many: past 64 tries the width doubles instead.
    Resolution picked =
        forStep(finestFirst, from, to, Math.max(step, ceilDiv(to - from, maxPoints)));
    for (int tries = 1; picked.points > maxPoints; tries++) {
      final long wider = tries < 64 ? picked.pointMillis() + 1 : 2 * picked.pointMillis();
      picked = forStep(finestFirst, from, to, wider);
    }
    return new Resolution(
        picked.read, picked.windowsPerPoint, picked.firstStart, picked.points, true);
  }

  private static Resolution forStep(
      final List<Granularity> finestFirst, final long from, final long to, final long step) {
    Granularity read = finestFirst.get(0);
    for (final Granularity granularity : finestFirst) {
      if (granularity.sizeMillis() <= step) {
        read = granularity;
      }
    }
    long k = ceilDiv(step, read.sizeMillis());
    final long width = Math.multiplyExact(k, read.sizeMillis());
    for (final Granularity granularity : finestFirst) {
      if (granularity.sizeMillis() == width) {
        read = granularity;
        k = 1;
      }
    }
    final long first = Math.floorDiv(from, width) * width;
    return new Resolution(read, k, first, ceilDiv(to - first, width), false);
  }

  /** The width of one point: {@code k} windows of {@code read}. */
  public long pointMillis() {
    return windowsPerPoint * read.sizeMillis();
  }

  /** The points' width as a granularity: the read one itself when each point is one window. */
  public Granularity point() {
    return windowsPerPoint == 1 ? read : Granularity.ofMillis(pointMillis());
  }

  /** The end of the last point, at or after {@code to}. */
  public long lastEnd() {
    return firstStart + points * pointMillis();
  }

  /** The start of the point holding {@code timestamp}. */
  public long pointStart(final long timestamp) {
    return Math.floorDiv(timestamp, pointMillis()) * pointMillis();
  }

  /** Java 17 has no Math.ceilDiv; both arguments are positive here. */
  private static long ceilDiv(final long dividend, final long divisor) {
    return -Math.floorDiv(-dividend, divisor);
  }
}
