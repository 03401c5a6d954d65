package io.bucketer.windows;

import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.SeriesKey;
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

  /** Start of the latest window of {@code series}, if it has any. */
  OptionalLong latestStart(SeriesKey series, Granularity granularity);

  /**
   * The sealed runs of the finest windows of {@code series} with {@code firstStart <= start <=
   * lastStart}, by window start and then run number.
   */
  List<SealedRun> sealedRuns(SeriesKey series, long firstStart, long lastStart);
}
