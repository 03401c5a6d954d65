package io.bucketer.query;

import io.bucketer.buckets.BucketStats;
import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.Measurement;
import io.bucketer.buckets.SeriesKey;
import io.bucketer.buckets.WindowQuality;
import java.util.List;

/**
 * The windows a processor instance still holds in its state for the series it owns: the open ones,
 * and the closed ones it keeps for the lateness horizon, with their readings. They are newer than
 * MongoDB: an open window is not there at all, and a closed one may be on its way.
 *
 * <p>A window of a rolled-up granularity holds only the finer windows that have closed: the
 * readings of an open finer window are in that window alone.
 */
public interface LiveWindows {

  /**
   * One window as the state holds it.
   *
   * @param quality the resends and late readings it counted so far; a window of a rolled-up
   *     granularity counts those of the finer windows that have closed, as its readings
   */
  record Window(long start, BucketStats stats, boolean open, WindowQuality quality) {

    /** A window that collapsed no resend and took no late reading. */
    public Window(final long start, final BucketStats stats, final boolean open) {
      this(start, stats, open, WindowQuality.NONE);
    }
  }

  /** The windows of {@code granularity} of {@code series} starting in {@code [from, to)}. */
  List<Window> windows(SeriesKey series, Granularity granularity, long from, long to);

  /** The readings of {@code series} with {@code from <= timestamp < to}, in time order. */
  List<Measurement> measurements(SeriesKey series, long from, long to);

  /** True when any window of {@code granularity} of {@code series} is held, without reading it. */
  boolean holdsAny(SeriesKey series, Granularity granularity);

  /** No state: answers come from MongoDB alone. */
  LiveWindows NONE =
      new LiveWindows() {
        @Override
        public List<Window> windows(
            final SeriesKey series, final Granularity granularity, final long from, final long to) {
          return List.of();
        }

        @Override
        public List<Measurement> measurements(
            final SeriesKey series, final long from, final long to) {
          return List.of();
        }

        @Override
        public boolean holdsAny(final SeriesKey series, final Granularity granularity) {
          return false;
        }
      };
}
