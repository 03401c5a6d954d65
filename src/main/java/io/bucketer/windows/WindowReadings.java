package io.bucketer.windows;

import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.Measurement;
import io.bucketer.buckets.SeriesKey;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The readings of any stretch of a series' time, gathered from the finest windows that overlap it:
 * every reading is kept once, in the finest window that holds it, however many granularities
 * contain it.
 */
public final class WindowReadings {

  private WindowReadings() {}

  /**
   * The readings of {@code series} with {@code from <= timestamp < to}, in time order; readings
   * with equal times keep their arrival order.
   */
  public static List<Measurement> between(
      final WindowReader windows,
      final Granularity finest,
      final SeriesKey series,
      final long from,
      final long to) {
    final List<Measurement> found = new ArrayList<>();
    if (from >= to) {
      return found;
    }
    final long firstStart = finest.windowStart(from);
    final long lastStart = finest.windowStart(to - 1);
    final List<WindowReader.SealedRun> sealed = windows.sealedRuns(series, firstStart, lastStart);
    int next = 0;
    for (final WindowReader.Window window : windows.range(series, finest, firstStart, lastStart)) {
      // Runs and their window are stored and deleted together, so a run without its window is
      // not expected; skipping one keeps a reader from counting readings its window has not.
      while (next < sealed.size() && sealed.get(next).windowStart() < window.start()) {
        next++;
      }
      while (next < sealed.size() && sealed.get(next).windowStart() == window.start()) {
        sealed.get(next++).readings().collect(from, to, found);
      }
      window.state().tail().collect(from, to, found);
    }
    // Stable: equal times keep arrival order. Runs are sorted per window in arrival order, and
    // mostly in time order already, where the sort costs one pass.
    found.sort(Comparator.comparingLong(Measurement::timestamp));
    return found;
  }

  /**
   * The readings of one finest window whose state is at hand, in time order: its tail, and its
   * sealed runs from the store only if it has any. Closing a window of a 1 Hz sensor then reads
   * nothing back from the store.
   */
  public static List<Measurement> of(
      final WindowReader windows,
      final SeriesKey series,
      final long start,
      final WindowState state) {
    final List<Measurement> found = new ArrayList<>();
    if (state.sealedRuns() > 0) {
      for (final WindowReader.SealedRun run : windows.sealedRuns(series, start, start)) {
        run.readings().collect(Long.MIN_VALUE, Long.MAX_VALUE, found);
      }
    }
    state.tail().collect(Long.MIN_VALUE, Long.MAX_VALUE, found);
    found.sort(Comparator.comparingLong(Measurement::timestamp));
    return found;
  }
}
