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
   * As {@link #put}, for a window the caller knows this store does not hold: a read found none, or
   * no window of its series can start so late (see {@link WindowLifecycle#accept}). A store that
   * logs its changes logs it as new without looking it up ({@link #logNew}). By default {@link
   * #put}.
   */
  default void putNew(
      final SeriesKey series,
      final Granularity granularity,
      final long start,
      final WindowState state) {
    put(series, granularity, start, state);
  }

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

  /**
   * Makes a window's change durable without writing the window where {@link #get} and the other
   * reads find it: for a caller that holds the window itself, reads it from its own memory, and
   * hands it over with {@link #keep} before it lets go of it (a window cache). A store that logs
   * its changes logs this one, counted as {@link #update} would count it; {@code before} is as
   * there. By default, a store with nothing to defer: {@link #update}.
   */
  default void logChange(
      final SeriesKey series,
      final Granularity granularity,
      final long start,
      final WindowState before,
      final WindowState state) {
    update(series, granularity, start, before, state);
  }

  /**
   * As {@link #logChange} with no {@code before}, for a window the caller knows this store does not
   * hold: a read found none, and nothing has written it since. A store that counts its windows
   * counts it without looking it up.
   */
  default void logNew(
      final SeriesKey series,
      final Granularity granularity,
      final long start,
      final WindowState state) {
    logChange(series, granularity, start, null, state);
  }

  /**
   * As {@link #logChange}, for a change the caller found to be readings appended and perhaps the
   * window's close, and nothing else ({@link AppendedReadings}, valid during the call only): a
   * store that logs changes writes the readings alone, without a state made for either side. By
   * default {@link #logChange} with both states.
   */
  default void logAppended(
      final SeriesKey series,
      final Granularity granularity,
      final long start,
      final AppendedReadings appended) {
    logChange(series, granularity, start, appended.before(), appended.after());
  }

  /**
   * Writes a window where reads find it, whose changes {@link #logChange} has already made durable:
   * nothing is logged. By default nothing to do, as {@link #logChange} wrote it.
   */
  default void keep(
      final SeriesKey series,
      final Granularity granularity,
      final long start,
      final WindowState state) {}

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
