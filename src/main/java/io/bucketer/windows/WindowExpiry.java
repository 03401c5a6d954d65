package io.bucketer.windows;

import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.SeriesKey;
import io.bucketer.buckets.TimeWeightings;

/**
 * Forgets the windows of a series, and the readings sealed off its finest windows, that no reading
 * can change any more and that no window which can still change is emitted from. Apart from the
 * lifecycle, which only says when (its series' clock crossed a window boundary), because what may
 * go has rules of its own: a finest window holds the readings that windows of every granularity are
 * emitted from, a finer window the summaries of the coarser ones; and each expiry starts where the
 * series' previous one stopped.
 *
 * <p>A finest window also holds the reading a later window's time-weighted part starts from (its
 * {@code carry_in}), up to the series' {@code max.gap} before that window: it is kept that much
 * longer than the horizon alone would keep it. With the default 24h horizon and 5m gap that is
 * minutes more of a day; with a short horizon (0s turns late merging off) it is what keeps the
 * time-weighted average edge-correct, rather than a setting refused.
 */
final class WindowExpiry {

  private final WindowStore store;
  private final WindowTimes times;
  private final Granularity finest;
  private final TimeWeightings timeWeightings;

  WindowExpiry(
      final WindowStore store, final WindowTimes times, final TimeWeightings timeWeightings) {
    this.store = store;
    this.times = times;
    this.finest = times.finest();
    this.timeWeightings = timeWeightings;
  }

  /**
   * Forgets the windows, and the readings, of {@code series} that no reading can change any more at
   * {@code clock} and that no window which can still change is emitted from.
   *
   * @param expiredAt what the series' previous expiry returned; {@code Long.MIN_VALUE} for none
   *     since the start
   * @return the {@code changeable} time this expiry reached, for the series' next one
   */
  long expire(final SeriesKey series, final long expiredAt, final long clock) {
    final long changeable = times.changeable(clock);
    // Everything up to the bounds of the series' last expiry is gone already, so each deletion
    // starts there rather than at the series' first key: RocksDB keeps a deleted key's tombstone
    // until compaction, and a range from the start would walk the tombstones of every earlier
    // expiry, once per window boundary, for as long as the series lives.
    final long maxGap = timeWeightings.of(series).maxGapMillis();
    for (final Granularity granularity : times.granularities()) {
      if (!granularity.equals(finest)) {
        store.deleteBetween(
            series,
            granularity,
            expiredAt == Long.MIN_VALUE
                ? Long.MIN_VALUE
                : expiredUpTo(granularity, expiredAt, maxGap) + 1,
            expiredUpTo(granularity, changeable, maxGap));
      }
    }
    final long finestFrom =
        expiredAt == Long.MIN_VALUE ? Long.MIN_VALUE : expiredUpTo(finest, expiredAt, maxGap) + 1;
    final long finestUpTo = expiredUpTo(finest, changeable, maxGap);
    store.deleteBetween(series, finest, finestFrom, finestUpTo);
    store.deleteSealedRunsBetween(series, finestFrom, finestUpTo);
    return Math.max(expiredAt, changeable);
  }

  /**
   * The start of the last window of {@code granularity} that no reading can change at {@code
   * changeable} and that no window which can still change is emitted from. A finest window holds
   * readings that every granularity's windows may be emitted from: it goes once no window of any
   * granularity that overlaps it can change, i.e. all of them end by the last boundary at or before
   * {@code changeable}, and once its readings are more than {@code maxGap} before every window that
   * can still change, which may carry its last one in. A coarser window goes once it is settled and
   * so is every window summarising it.
   */
  private long expiredUpTo(
      final Granularity granularity, final long changeable, final long maxGap) {
    final long size = granularity.sizeMillis();
    if (granularity.equals(finest)) {
      long upTo = Long.MAX_VALUE;
      for (final Granularity any : times.granularities()) {
        upTo =
            Math.min(
                upTo, Math.floorDiv(lastSettledEnd(any, changeable) - maxGap - size, size) * size);
      }
      return upTo;
    }
    long settledEnd = lastSettledEnd(granularity, changeable);
    for (final Granularity coarser : times.rolledUpFrom(granularity)) {
      settledEnd = Math.min(settledEnd, lastSettledEnd(coarser, changeable));
    }
    return Math.floorDiv(settledEnd - size, size) * size;
  }

  /** The last window boundary of {@code granularity} at or before {@code changeable}. */
  private static long lastSettledEnd(final Granularity granularity, final long changeable) {
    final long size = granularity.sizeMillis();
    return Math.floorDiv(changeable, size) * size;
  }
}
