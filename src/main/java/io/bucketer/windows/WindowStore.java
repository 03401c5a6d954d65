package io.bucketer.windows;

import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.SeriesKey;
import java.util.OptionalLong;

/**
 * The state the window lifecycle keeps for the series of one task: its windows, the readings sealed
 * off its finest windows, and each series' clock where it cannot be derived from its windows.
 */
public interface WindowStore extends WindowReader {

  void put(SeriesKey series, Granularity granularity, long start, WindowState state);

  /**
   * As {@link #put}, told the state this window had when it was last put or read, {@code null} when
   * that is not known: a store that logs its changes records only what changed since.
   */
  default void update(
      final SeriesKey series,
      final Granularity granularity,
      final long start,
      final WindowState before,
      final WindowState state) {
    put(series, granularity, start, state);
  }

  /** Deletes the windows of {@code series} that start in {@code [from, upTo]}. */
  void deleteBetween(SeriesKey series, Granularity granularity, long from, long upTo);

  void putSealedRun(SeriesKey series, long windowStart, int number, ReadingRun readings);

  /** Deletes the sealed runs of the finest windows of {@code series} that start in the range. */
  void deleteSealedRunsBetween(SeriesKey series, long from, long upTo);

  /** The clock last stored for {@code series}: a lower bound of its true clock. */
  OptionalLong storedClock(SeriesKey series);

  void storeClock(SeriesKey series, long clock);

  /** Visits every window of {@code granularity}, every series; read once when a task starts. */
  void forEach(Granularity granularity, WindowVisitor visitor);

  /** A visitor of {@link #forEach}. */
  @FunctionalInterface
  interface WindowVisitor {
    void visit(SeriesKey series, long start, WindowState state);
  }
}
