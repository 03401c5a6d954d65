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
