package io.bucketer.query;

import io.bucketer.buckets.Interpolation;
import io.bucketer.buckets.Measurement;
import io.bucketer.buckets.TimeWeighted;
import io.bucketer.buckets.TimeWeighting;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * The time-weighted part of a range {@code [from, to)}, folded from what the range's plan reads, in
 * time order: the stored parts of whole windows, and between them stretches computed from raw
 * readings (where an edge cuts a minute, or the state's windows) and the time no window with
 * readings holds (held by the last reading before it). The sum is the range's part exactly ({@link
 * TimeWeighted#followedBy} adds adjacent parts), not an average of averages.
 *
 * <p>A stretch between stored windows is computed only once the reading after it is known, the
 * first of the next window or stretch: with linear interpolation its last line runs to that
 * reading. One at the range's end looks it up ({@code readingAfterTo}, linear only).
 *
 * <p>A window read from the processor's state has no part of its own: an open one has none until it
 * closes, a closed one not before its document is stored. Its part is computed from its readings,
 * the state's: for an open window as if it closed now (its last reading holds for the max gap, to
 * the window's end at most), which its stored part will equal if no reading joins it.
 *
 * <p>It is unknown, with the reason why, when a stored window read has no part (a document written
 * before schema_version 3) or one computed with another max gap or interpolation than the series'
 * own: a sum of such parts would be a wrong number, not a rough one.
 */
final class RangeTimeWeight {

  /**
   * Why a range's part is unknown: a window read has none (a document written before schema_version
   * 3, or a closed window the processor's state holds and has not stored yet).
   */
  static final String WITHOUT_PART = "window_without_time_weight";

  static final String MAX_GAP_CHANGED = "max_gap_changed";

  static final String INTERPOLATION_CHANGED = "interpolation_changed";

  /**
   * The range's part.
   *
   * @param part the range's part; null when unknown
   * @param weighting what it was computed with
   * @param spanMillis the range's length, {@code to - from}
   * @param missing why the part is unknown; null when it is known
   */
  record Result(TimeWeighted part, TimeWeighting weighting, long spanMillis, String missing) {}

  private final long from;
  private final long to;
  private final TimeWeighting how;
  private final Supplier<StoredBuckets.NearReading> readingBeforeFrom;
  private final Supplier<StoredBuckets.NearReading> readingAfterTo;
  private final Function<WindowTotals, List<Measurement>> readingsOf;
  private final Predicate<WindowTotals> fromState;

  /** Up to where the range has been folded, or is pending. */
  private long at;

  /** The start of the stretch not folded yet, up to {@link #at}; {@link #at} when none is. */
  private long pendingFrom;

  /** The raw readings of the pending stretch, in time order. */
  private final List<Measurement> pendingReadings = new ArrayList<>();

  /** The series' last reading before {@link #pendingFrom}; known once anything was folded. */
  private Measurement last;

  private boolean lastKnown;
  private TimeWeighted sum = TimeWeighted.NONE;
  private String missing;

  /**
   * @param readingBeforeFrom looks up the series' last reading before {@code from}, called only
   *     when the range does not start with a stored window (whose part holds that reading's hold)
   * @param readingAfterTo looks up the series' first reading at or after {@code to}, called only
   *     with linear interpolation when the range does not end with a stored window
   * @param readingsOf the readings of a window of the state
   * @param fromState tells a window read from the processor's state
   */
  RangeTimeWeight(
      final long from,
      final long to,
      final TimeWeighting how,
      final Supplier<StoredBuckets.NearReading> readingBeforeFrom,
      final Supplier<StoredBuckets.NearReading> readingAfterTo,
      final Function<WindowTotals, List<Measurement>> readingsOf,
      final Predicate<WindowTotals> fromState) {
    this.from = from;
    this.to = to;
    this.how = how;
    this.readingBeforeFrom = readingBeforeFrom;
    this.readingAfterTo = readingAfterTo;
    this.readingsOf = readingsOf;
    this.fromState = fromState;
    this.at = from;
    this.pendingFrom = from;
  }

  /** A whole window, next in time order, with readings. */
  void window(final WindowTotals window) {
    if (missing != null) {
      return;
    }
    if (window.timeWeighted() == null && fromState.test(window)) {
      readings(window.start(), window.end(), readingsOf.apply(window));
      return;
    }
    if (window.timeWeighted() == null) {
      missing = WITHOUT_PART;
      return;
    }
    if (window.weighting() != null && !window.weighting().equals(how)) {
      missing =
          window.weighting().maxGapMillis() != how.maxGapMillis()
              ? MAX_GAP_CHANGED
              : INTERPOLATION_CHANGED;
      return;
    }
    at = window.start();
    foldPending(window.stats().first());
    if (missing == null) {
      sum = sum.followedBy(window.timeWeighted());
      last = window.stats().last();
      lastKnown = true;
      at = window.end();
      pendingFrom = at;
    }
  }

  /** The readings of the stretch {@code [start, end)}, next in time order, read raw. */
  void readings(final long start, final long end, final List<Measurement> sorted) {
    if (missing == null) {
      pendingReadings.addAll(sorted);
      at = end;
    }
  }

  Result finish() {
    at = to;
    if (missing == null && pendingFrom < at) {
      foldPending(readingAfterTo());
    }
    return missing == null
        ? new Result(sum, how, to - from, null)
        : new Result(null, how, to - from, missing);
  }

  /**
   * Folds in the pending stretch {@code [pendingFrom, at)}, its raw readings and the time no window
   * with readings holds, now that the reading after it, {@code next} (or null), is known.
   */
  private void foldPending(final Measurement next) {
    if (pendingFrom >= at) {
      return;
    }
    lookUpLast();
    if (missing == null) {
      sum =
          sum.followedBy(
              TimeWeighted.ofReadings(pendingFrom, at, last, pendingReadings, next, how));
      if (!pendingReadings.isEmpty()) {
        last = pendingReadings.get(pendingReadings.size() - 1);
      }
      pendingReadings.clear();
      pendingFrom = at;
    }
  }

  /**
   * The reading the range's last line runs to: looked up only with linear interpolation, which
   * alone draws it; null when unknown (the line then holds, as step does, and the stretch would be
   * off: so unknown makes the part unknown).
   */
  private Measurement readingAfterTo() {
    if (how.interpolation() != Interpolation.LINEAR) {
      return null;
    }
    final StoredBuckets.NearReading after = readingAfterTo.get();

    if (!after.known()) {
      missing = WITHOUT_PART;
      return null;
    }
    return after.reading();
  }

  /** The reading before {@code from}, when nothing folded so far has told it. */
  private void lookUpLast() {
    if (lastKnown || missing != null) {
      return;
    }
    final StoredBuckets.NearReading before = readingBeforeFrom.get();

    if (before.known()) {
      last = before.reading();
      lastKnown = true;
    } else {
      missing = WITHOUT_PART;
    }
  }
}
