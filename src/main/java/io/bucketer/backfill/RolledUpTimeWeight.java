package io.bucketer.backfill;

import io.bucketer.buckets.Interpolation;
import io.bucketer.buckets.Measurement;
import io.bucketer.buckets.TimeWeighted;
import io.bucketer.buckets.TimeWeighting;
import io.bucketer.buckets.WindowExtras;
import io.bucketer.query.StoredBuckets.NearReading;
import io.bucketer.query.StoredWindows.StoredWindow;
import io.bucketer.sketch.ValueSketch;
import java.util.List;
import java.util.function.LongUnaryOperator;
import java.util.function.Supplier;

/**
 * The time-weighted part of a rolled-up window, folded from its source windows' stored parts in
 * start order with the bridges over the source windows without readings between them, as {@link
 * TimeWeighted#followedBy} adds adjacent parts: the stream's part of the same window, to floating
 * rounding (the stream sums the same pieces in another grouping, and documents store integrals in
 * value·s).
 *
 * <p>A bridge is held by the reading before it: the last reading of the source window before, or,
 * before the first, the series' last reading before the window ({@code lastBefore}), looked up only
 * when the first source window starts later than the window and carries in no reading (which would
 * hold the whole bridge). With linear interpolation a bridge's line runs to the next source
 * window's first reading; after the last one, to the series' first reading after the window ({@code
 * firstAfter}), looked up only when the last reading's hold reaches past the last source window.
 *
 * <p>Unknown (no part) when a source window has none, or one computed with another weighting than
 * the first's, or a lookup cannot tell: a part from a guess would be a wrong number.
 */
final class RolledUpTimeWeight {

  private RolledUpTimeWeight() {}

  /**
   * The window's extras: its part and carried-in reading when they can be built, and {@code
   * sketch}; null when there is neither.
   *
   * @param sources the source windows with readings, in start order, within {@code [start, end)}
   * @param sourceEnd the end of a source window, from its start
   */
  static WindowExtras extras(
      final long start,
      final long end,
      final List<StoredWindow> sources,
      final LongUnaryOperator sourceEnd,
      final Supplier<NearReading> lastBefore,
      final Supplier<NearReading> firstAfter,
      final ValueSketch sketch) {
    final TimeWeighting how = sources.get(0).weighting();
    for (final StoredWindow source : sources) {
      if (source.timeWeighted() == null || how == null || !how.equals(source.weighting())) {
        return withoutPart(sketch);
      }
    }
    final StoredWindow first = sources.get(0);
    Measurement last;
    if (first.start() == start || first.carryIn() != null) {
      // The first source's carried-in reading is the series' last before it, and before the
      // window: its hold reaches the first source, so it holds all of the bridge before it.
      last = first.carryIn();
    } else {
      final NearReading before = lastBefore.get();
      if (!before.known()) {
        return withoutPart(sketch);
      }
      last = before.reading();
    }
    final Measurement carryIn =
        last != null && last.timestamp() + how.maxGapMillis() > start ? last : null;
    TimeWeighted sum = TimeWeighted.NONE;
    long at = start;
    for (final StoredWindow source : sources) {
      if (at < source.start()) {
        sum =
            sum.followedBy(
                TimeWeighted.bridge(at, source.start(), last, source.stats().first(), how));
      }
      sum = sum.followedBy(source.timeWeighted());
      last = source.stats().last();
      at = sourceEnd.applyAsLong(source.start());
    }
    if (at < end) {
      Measurement after = null;
      if (how.interpolation() == Interpolation.LINEAR
          && last.timestamp() + how.maxGapMillis() > at) {
        final NearReading next = firstAfter.get();
        if (!next.known()) {
          return withoutPart(sketch);
        }
        after = next.reading();
      }
      sum = sum.followedBy(TimeWeighted.bridge(at, end, last, after, how));
    }
    return new WindowExtras(sum, carryIn, how, sketch);
  }

  /** The extras of a window whose part cannot be built: its sketch alone, or none. */
  private static WindowExtras withoutPart(final ValueSketch sketch) {
    return sketch == null ? null : WindowExtras.ofSketch(sketch);
  }
}
