package io.bucketer.windows;

import io.bucketer.buckets.BucketStats;
import io.bucketer.buckets.Measurement;
import io.bucketer.buckets.WindowQuality;

/**
 * One window of one series as the state keeps it: running sums, whether the window has closed, the
 * revision of its last emitted buckets, and, for a window of the finest granularity, its readings.
 *
 * <p>The readings live with the sums so that a reading costs one update of one value, which the
 * window cache ({@link WriteBehindWindows}) writes once per commit. They are kept in arrival order:
 * the newest in {@link #tail}, and, once the tail reaches {@link WindowLifecycle#TAIL_CAPACITY}, in
 * runs sealed off it and stored apart ({@link #sealedRuns} of them), so that a busy sensor's window
 * is never rewritten whole for each reading. A window of a coarser granularity holds sums only.
 *
 * <p>Its {@link WindowQuality} counts the readings it collapsed as resends and those that joined it
 * late. A late reading counts in every window it joins when it is late for its finest window, so
 * that a coarser window's counts stay the sum of its finer windows'.
 */
public record WindowState(
    BucketStats stats,
    boolean closed,
    int revision,
    int sealedRuns,
    ReadingRun tail,
    WindowQuality quality) {

  /** A new open window of sums only, rolled up from a finer window of this quality. */
  public static WindowState open(final BucketStats stats, final WindowQuality quality) {
    return new WindowState(stats, false, 0, 0, ReadingRun.EMPTY, quality);
  }

  /** A new open window of sums only. */
  public static WindowState open(final BucketStats stats) {
    return open(stats, WindowQuality.NONE);
  }

  /** A new open window holding one reading. */
  public static WindowState openWith(
      final Measurement measurement, final Integer utcOffsetMinutes) {
    return new WindowState(
        BucketStats.of(measurement, utcOffsetMinutes),
        false,
        0,
        0,
        ReadingRun.of(measurement),
        WindowQuality.NONE);
  }

  /** This window with one more reading kept; a closed window gets a new revision. */
  public WindowState withReading(final Measurement measurement, final Integer utcOffsetMinutes) {
    return new WindowState(
        stats.add(measurement, utcOffsetMinutes),
        closed,
        nextRevision(),
        sealedRuns,
        tail.with(measurement),
        quality);
  }

  /** This window's sums with one more reading, not kept; a closed window gets a new revision. */
  public WindowState withSums(final Measurement measurement, final Integer utcOffsetMinutes) {
    return new WindowState(
        stats.add(measurement, utcOffsetMinutes),
        closed,
        nextRevision(),
        sealedRuns,
        tail,
        quality);
  }

  /**
   * This window with its sums computed again, after a reading's value was replaced; a closed window
   * gets a new revision.
   */
  public WindowState restated(final BucketStats recomputed) {
    return new WindowState(recomputed, closed, nextRevision(), sealedRuns, tail, quality);
  }

  /** This window with the sums and counts of a closed finer window. */
  public WindowState merge(final BucketStats finer, final WindowQuality finerQuality) {
    return new WindowState(
        stats.merge(finer), closed, revision, sealedRuns, tail, quality.plus(finerQuality));
  }

  /** This window with a reading's value replaced in its unsealed readings. */
  public WindowState withTail(final ReadingRun newTail) {
    return new WindowState(stats, closed, revision, sealedRuns, newTail, quality);
  }

  /**
   * This window having collapsed one more reading onto a time it held. Not a new revision: nothing
   * it summarises changed, and a replayed record would otherwise rewrite every window it touches;
   * the count shows in the window's next document.
   */
  public WindowState withResend() {
    return new WindowState(stats, closed, revision, sealedRuns, tail, quality.withResend());
  }

  /** This window counting one more reading that came after its finest window had closed. */
  public WindowState withLateReading() {
    return new WindowState(stats, closed, revision, sealedRuns, tail, quality.withLateReading());
  }

  /**
   * This window unchanged but for a new revision, when it is closed: emitted again because a
   * reading in a neighbouring window moved its edge ({@link EdgeRevisions}).
   */
  public WindowState revised() {
    return new WindowState(stats, closed, nextRevision(), sealedRuns, tail, quality);
  }

  public WindowState close() {
    return new WindowState(stats, true, revision, sealedRuns, tail, quality);
  }

  /** This window once its tail is stored apart as run number {@link #sealedRuns}. */
  public WindowState tailSealed() {
    return new WindowState(stats, closed, revision, sealedRuns + 1, ReadingRun.EMPTY, quality);
  }

  private int nextRevision() {
    return closed ? revision + 1 : revision;
  }
}
