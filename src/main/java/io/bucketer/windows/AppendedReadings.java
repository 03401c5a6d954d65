package io.bucketer.windows;

import io.bucketer.buckets.RunningStats;
import io.bucketer.buckets.StatsFields;

/**
 * A cached window's change since its log last had it, when that change is readings appended to its
 * unsealed ones and added to its sums in arrival order, and perhaps its close: nothing else. The
 * window cache finds it from the values it holds ({@link #between}) and hands it to a store that
 * logs changes ({@link WindowStore#logAppended}), which writes the readings alone.
 *
 * <p><b>Why.</b> At live traffic every cached window changes at every commit, by a reading. Found
 * from two {@link WindowState}s (the window as logged and as it is), the change cost both states
 * made anew, the readings copied out and added to a new {@code BucketStats}: once per reading. Here
 * the readings stay on the window's arrays, and the sums are checked against the window's own
 * values: at 100,000 live sensors the processor allocated 9 % less per reading and spent 5 % less
 * CPU (docs/benchmarks.md). What the commit still pays is the first touch of each changed window's
 * values, last touched a second before.
 *
 * <p>Valid only during the call it is handed to: the cache sets it again for its next window.
 */
public final class AppendedReadings {

  private WindowValues logged;
  private WindowValues current;
  private ReadingRun readings = ReadingRun.EMPTY;
  private int from;
  private Integer utcOffsetMinutes;

  /** Where the sums are added again, to check them: one for all the windows of a cache. */
  private RunningStats sums;

  /**
   * Whether {@code current} is {@code logged} with readings appended (perhaps none) and perhaps
   * closed, and nothing else, to the bit; if so, this now tells those readings. The same test as
   * the log's own ({@code WindowChange.between}), on values: a window whose readings moved to new
   * arrays since it was logged is left to that test, which compares them one by one.
   */
  boolean between(final WindowValues logged, final WindowValues current) {
    if (logged.revision() != current.revision()
        || logged.sealedRuns() != current.sealedRuns()
        || (logged.closed() && !current.closed())
        || !logged.quality().equals(current.quality())
        // on the same arrays, the longer run starts with the shorter: they are only appended to
        || !current.tailArrays().sharesArraysWith(logged.tailArrays())
        || current.tailSize() < logged.tailSize()) {
      return false;
    }
    final ReadingRun tail = current.tail();
    final Integer offset = current.utcOffsetMinutes();
    if (sums == null) {
      sums = new RunningStats(logged);
    } else {
      sums.reset(logged);
    }
    for (int i = logged.tailSize(); i < tail.size(); i++) {
      sums.add(tail.timestamp(i), tail.value(i), offset);
    }
    // where the readings alone would not give the sums back (a reading counted but not kept, a
    // value restated), the window goes whole
    if (!StatsFields.same(sums, current)) {
      return false;
    }
    this.logged = logged;
    this.current = current;
    this.readings = tail;
    this.from = logged.tailSize();
    this.utcOffsetMinutes = offset;
    return true;
  }

  /** The window's unsealed readings: those appended are the ones from {@link #from} on. */
  public ReadingRun readings() {
    return readings;
  }

  /** The position in {@link #readings} of the first reading appended. */
  public int from() {
    return from;
  }

  /** How many readings were appended. */
  public int count() {
    return readings.size() - from;
  }

  /** Whether the window closed with this change. */
  public boolean closes() {
    return current.closed() && !logged.closed();
  }

  /** The UTC offset each appended reading is added to the sums with: the window's latest. */
  public Integer utcOffsetMinutes() {
    return utcOffsetMinutes;
  }

  /** The window as the log had it, made anew: for a store that logs whole states. */
  public WindowState before() {
    return logged.state();
  }

  /** The window as it is now, made anew. */
  public WindowState after() {
    return current.state();
  }
}
