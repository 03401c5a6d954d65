package io.bucketer.query;

import io.bucketer.buckets.Measurement;
import io.bucketer.buckets.TimeWeighted;
import io.bucketer.buckets.TimeWeighting;
import java.util.List;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * The time-weighted part of a range {@code [from, to)}, folded from what the range's plan reads, in
 * time order: the stored parts of whole windows, the part of each stretch read as raw readings, and
 * between them the bridges over time no stored window holds (the hold of the last reading before
 * it). The sum is the range's part exactly ({@link TimeWeighted#followedBy} adds adjacent parts),
 * not an average of averages.
 *
 * <p>A window read from the processor's state has no part of its own: an open one has none until it
 * closes, a closed one not before its document is stored. Its part is computed from its readings,
 * the state's: for an open window as if it closed now (its last reading holds for the max gap, to
 * the window's end at most), which its stored part will equal if no reading joins it.
 *
 * <p>It is unknown, with the reason why, when a stored window read has no part (a document written
 * before schema_version 3) or one computed with another max gap than the series' own: a sum of such
 * parts would be a wrong number, not a rough one.
 */
final class RangeTimeWeight {

  /**
   * Why a range's part is unknown: a window read has none (a document written before schema_version
   * 3, or a closed window the processor's state holds and has not stored yet).
   */
  static final String WITHOUT_PART = "window_without_time_weight";

  static final String MAX_GAP_CHANGED = "max_gap_changed";

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
  private final Supplier<StoredBuckets.ReadingBefore> readingBeforeFrom;
  private final Function<WindowTotals, List<Measurement>> readingsOf;
  private final Predicate<WindowTotals> fromState;

  /** Up to where the range has been folded. */
  private long at;

  /** The series' last reading before {@link #at}; known once anything was folded or looked up. */
  private Measurement last;

  private boolean lastKnown;
  private TimeWeighted sum = TimeWeighted.NONE;
  private String missing;

  /**
   * @param readingBeforeFrom looks up the series' last reading before {@code from}, called only
   *     when the range does not start with a stored window (whose part holds that reading's hold)
   * @param readingsOf the readings of a window of the state
   * @param fromState tells a window read from the processor's state
   */
  RangeTimeWeight(
      final long from,
      final long to,
      final TimeWeighting how,
      final Supplier<StoredBuckets.ReadingBefore> readingBeforeFrom,
      final Function<WindowTotals, List<Measurement>> readingsOf,
      final Predicate<WindowTotals> fromState) {
    this.from = from;
    this.to = to;
    this.how = how;
    this.readingBeforeFrom = readingBeforeFrom;
    this.readingsOf = readingsOf;
    this.fromState = fromState;
    this.at = from;
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
      missing = MAX_GAP_CHANGED;
      return;
    }
    bridgeTo(window.start());
    if (missing == null) {
      sum = sum.followedBy(window.timeWeighted());
      last = window.stats().last();
      lastKnown = true;
      at = window.end();
    }
  }

  /** The readings of the stretch {@code [start, end)}, next in time order, read raw. */
  void readings(final long start, final long end, final List<Measurement> sorted) {
    if (missing != null) {
      return;
    }
    lookUpLast();
    bridgeTo(start);
    if (missing == null) {
      sum = sum.followedBy(TimeWeighted.ofReadings(start, end, last, sorted, null, how));
      if (!sorted.isEmpty()) {
        last = sorted.get(sorted.size() - 1);
      }
      at = end;
    }
  }

  Result finish() {
    bridgeTo(to);
    return missing == null
        ? new Result(sum, how, to - from, null)
        : new Result(null, how, to - from, missing);
  }

  /** Folds in the time from {@link #at} to {@code time}, where no stored window holds readings. */
  private void bridgeTo(final long time) {
    if (time <= at) {
      return;
    }
    lookUpLast();
    if (missing == null) {
      sum = sum.followedBy(TimeWeighted.bridge(at, time, last, null, how));
      at = time;
    }
  }

  /** The reading before {@code from}, when nothing folded so far has told it. */
  private void lookUpLast() {
    if (lastKnown || missing != null) {
      return;
    }
    final StoredBuckets.ReadingBefore before = readingBeforeFrom.get();
    if (before.known()) {
      last = before.reading();
      lastKnown = true;
    } else {
      missing = WITHOUT_PART;
    }
  }
}
