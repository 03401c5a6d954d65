package io.bucketer.windows;

import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.SeriesKey;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

/**
 * Reads the windows a task holds: what both the window lifecycle and a query need, without saying
 * where the windows live. A window's key is its series, granularity and start; a series' windows of
 * one granularity are read in start order.
 */
public interface WindowReader {

  /** One window: its start and its state. */
  record Window(long start, WindowState state) {}

  /** A run of readings sealed off the tail of the finest window starting at {@code windowStart}. */
  record SealedRun(long windowStart, int number, ReadingRun readings) {}

  WindowState get(SeriesKey series, Granularity granularity, long start);

  /** The windows of {@code series} with {@code first <= start <= last}, in start order. */
  List<Window> range(SeriesKey series, Granularity granularity, long first, long last);

  /**
   * The windows of {@code series} starting after {@code after} up to {@code last}, in start order,
   * for {@code after} a start of {@code granularity}'s: the windows a clock's move closes, or those
   * that may still be open. Up to 8 possible starts are looked up one by one: a series that reports
   * steadily has one or two there, which a window cache answers without reading its store. More are
   * read as a {@link #range}, which reads the store always, and in RocksDB runs past its end to the
   * next live key: the next series' windows, behind the tombstones of every window of it that
   * expired since the last compaction, a day's worth once a processor has run for longer than the
   * lateness horizon.
   */
  default List<Window> startingAfter(
      final SeriesKey series, final Granularity granularity, final long after, final long last) {
    final int mostLookedUp = 8;
    final long size = granularity.sizeMillis();
    if (after == Long.MIN_VALUE || (last - after) / size > mostLookedUp) {
      return range(series, granularity, after + 1, last);
    }
    final List<Window> windows = new ArrayList<>(2);
    for (long start = after + size; start <= last; start += size) {
      final WindowState state = get(series, granularity, start);
      if (state != null) {
        windows.add(new Window(start, state));
      }
    }
    return windows;
  }

  /** Start of the latest window of {@code series}, if it has any. */
  OptionalLong latestStart(SeriesKey series, Granularity granularity);

  /**
   * The sealed runs of the finest windows of {@code series} with {@code firstStart <= start <=
   * lastStart}, by window start and then run number.
   */
  List<SealedRun> sealedRuns(SeriesKey series, long firstStart, long lastStart);
}
