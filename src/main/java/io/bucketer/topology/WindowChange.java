package io.bucketer.topology;

import io.bucketer.buckets.BucketStats;
import io.bucketer.buckets.RunningStats;
import io.bucketer.windows.ReadingRun;
import io.bucketer.windows.WindowState;

/**
 * One change of one key of a task's window state, as the window log records it: a window written
 * whole or grown by readings, a run of readings sealed off a finest window, or either deleted. The
 * log groups changes by granularity and window start ({@link WindowLog}); within a group a change
 * names its series, and replaying a group's changes in order rebuilds its windows exactly.
 */
sealed interface WindowChange {

  /** The series the changed window or run belongs to, as {@link SeriesKeySerde} encodes it. */
  byte[] series();

  /** The window as a whole: new, merged, restated, sealed or revised. */
  record Whole(byte[] series, WindowState state) implements WindowChange {}

  /**
   * The window as it was with readings appended to its tail and added to its sums in arrival order,
   * each with {@code utcOffsetMinutes}, and then closed if {@code closes}. Recorded only when
   * applying it to the window as it was gives exactly the window as it is: at live traffic nearly
   * every change of a finest window, a reading or two per commit.
   */
  record Appended(
      byte[] series, boolean closes, Integer utcOffsetMinutes, long[] timestamps, double[] values)
      implements WindowChange {

    /** The sums of a window of sums {@code before} with these readings added. */
    BucketStats statsAfter(final BucketStats before) {
      // in place, not a BucketStats and two Measurements a reading: the same sums to the bit
      final RunningStats stats = new RunningStats(before);
      for (int i = 0; i < timestamps.length; i++) {
        stats.add(timestamps[i], values[i], utcOffsetMinutes);
      }
      return stats.stats();
    }
  }

  /** The window deleted: it expired. */
  record Deleted(byte[] series) implements WindowChange {}

  /** A run of readings sealed off the finest window of the group, numbered. */
  record RunSealed(byte[] series, int number, ReadingRun run) implements WindowChange {}

  /** A sealed run deleted with its window. */
  record RunDeleted(byte[] series, int number) implements WindowChange {}

  /**
   * The change that takes a window from {@code before} to {@code after}: readings appended when
   * that says it exactly, else the window whole. {@code before} is {@code null} when not known.
   */
  static WindowChange between(
      final byte[] series, final WindowState before, final WindowState after) {
    if (before == null
        || before.revision() != after.revision()
        || before.sealedRuns() != after.sealedRuns()
        || (before.closed() && !after.closed())
        || !before.quality().equals(after.quality())
        || !after.tail().startsWith(before.tail())) {
      return new Whole(series, after);
    }
    final int appended = after.tail().size() - before.tail().size();
    final long[] timestamps = new long[appended];
    final double[] values = new double[appended];
    for (int i = 0; i < appended; i++) {
      timestamps[i] = after.tail().timestamp(before.tail().size() + i);
      values[i] = after.tail().value(before.tail().size() + i);
    }
    final Appended change =
        new Appended(
            series,
            after.closed() && !before.closed(),
            after.stats().utcOffsetMinutes(),
            timestamps,
            values);
    // The sums must come out the same, bit for bit, when the log is replayed: where they would
    // not (a reading counted but not kept, a restated value), the window goes whole.
    // Only the sums are worked out here: the tails were compared above, and building one would
    // copy the window's readings.
    return change.statsAfter(before.stats()).equals(after.stats())
        ? change
        : new Whole(series, after);
  }
}
