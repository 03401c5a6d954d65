package io.bucketer.windows;

import io.bucketer.buckets.ClosedBucket;
import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.Interpolation;
import io.bucketer.buckets.SeriesKey;
import io.bucketer.buckets.TimeWeighting;
import io.bucketer.buckets.TimeWeightings;
import java.util.List;
import java.util.function.Consumer;

/**
 * Emits again, with a new revision, the closed windows whose edge a reading moves when it joins a
 * window, or its value changes, after they were emitted.
 *
 * <p>A window's time-weighted part reaches beyond its readings at its edges: its first segment
 * starts with the value carried in from the series' last reading before it, and, with linear
 * interpolation, its last segment runs towards the series' first reading after it. So a reading
 * that becomes the last of its window moves the leading edge of the next window with readings, if
 * its hold reaches that window; and with linear interpolation, a reading that becomes the first of
 * its window moves the trailing edge of the window with readings before it, if it is within the max
 * gap of that window's last reading. Windows without readings between them have no documents: there
 * is nothing else to revise.
 *
 * <p>The windows of every granularity that hold the moved edge are emitted again, those that also
 * hold the reading too, though its own window's revision has just emitted them with the edge moved:
 * a coarse window's revision then counts one change for each of its finer windows that changed, so
 * it stays the sum of their revisions when every change came after it closed, which is what a
 * backfill builds it with ({@code RolledUpWindow}). The next window is later than the reading's, so
 * within the lateness horizon, and in the store. The one before may be past the horizon (it is kept
 * for its max gap beyond, for the reading the next window carries in: {@link WindowExpiry}); such a
 * window is final, as for any late reading, and keeps its edge.
 */
final class EdgeRevisions {

  private final WindowStore store;
  private final WindowTimes times;
  private final Granularity finest;
  private final TimeWeightings weightings;
  private final WindowBuckets buckets;

  /** Whether any series is weighted linearly. */
  private final boolean anyLinear;

  EdgeRevisions(
      final WindowStore store,
      final WindowTimes times,
      final TimeWeightings weightings,
      final WindowBuckets buckets) {
    this.store = store;
    this.times = times;
    this.finest = times.finest();
    this.weightings = weightings;
    this.buckets = buckets;
    this.anyLinear =
        weightings.defaults().interpolation() == Interpolation.LINEAR
            || weightings.byMetric().values().stream()
                .anyMatch(weighting -> weighting.interpolation() == Interpolation.LINEAR);
  }

  /**
   * Whether a reading of {@code series} in an open window may move the edge of a closed window
   * before it: with linear interpolation only. Otherwise only a reading in a closed window moves an
   * edge.
   */
  boolean reachesBack(final SeriesKey series) {
    // Asked for every reading: with no linear metric configured (the default), no lookup at all.
    return anyLinear && weightings.of(series).interpolation() == Interpolation.LINEAR;
  }

  /**
   * After the reading at {@code timestamp} joined its finest window, or its value changed there:
   * emits again the closed windows whose edge it moves, but not those past the lateness horizon at
   * {@code clock}, which no reading changes any more.
   */
  void afterChangeAt(
      final SeriesKey series,
      final long timestamp,
      final long clock,
      final Consumer<ClosedBucket> emit) {
    final long start = finest.windowStart(timestamp);
    final WindowState window = store.get(series, finest, start);
    final TimeWeighting weighting = weightings.of(series);
    // Windows close in time order: a window after an open one is open, and emitted later with
    // what it carries in then. Only linear interpolation reaches back to a closed window.
    final boolean linear = weighting.interpolation() == Interpolation.LINEAR;
    if (window == null || !(window.closed() || linear)) {
      return;
    }
    if (window.closed() && timestamp == window.stats().lastTimestamp()) {
      final WindowReader.Window next = nextWithReadings(series, start, timestamp, weighting);
      if (next != null && next.state().closed()) {
        revise(series, next.start(), clock, emit);
      }
    }
    if (linear && timestamp == window.stats().firstTimestamp()) {
      final WindowReader.Window previous =
          previousWithReadings(series, start, timestamp, weighting);
      if (previous != null
          && previous.state().closed()
          && timestamp - previous.state().stats().lastTimestamp() <= weighting.maxGapMillis()) {
        revise(series, previous.start(), clock, emit);
      }
    }
  }

  /**
   * The first finest window after {@code start} that the hold of the reading at {@code time}
   * reaches, or null.
   */
  private WindowReader.Window nextWithReadings(
      final SeriesKey series, final long start, final long time, final TimeWeighting weighting) {
    final long lastReached = finest.windowStart(time + weighting.maxGapMillis() - 1);
    if (lastReached <= start) {
      return null;
    }
    final List<WindowReader.Window> later = store.range(series, finest, start + 1, lastReached);
    return later.isEmpty() ? null : later.get(0);
  }

  /**
   * The last finest window before {@code start} that starts within the max gap before {@code time},
   * or null.
   */
  private WindowReader.Window previousWithReadings(
      final SeriesKey series, final long start, final long time, final TimeWeighting weighting) {
    final long earliest = finest.windowStart(time - weighting.maxGapMillis());
    if (earliest >= start) {
      return null;
    }
    final List<WindowReader.Window> earlier = store.range(series, finest, earliest, start - 1);
    return earlier.isEmpty() ? null : earlier.get(earlier.size() - 1);
  }

  /**
   * Emits again, with a new revision, the closed windows of every granularity that hold the finest
   * window at {@code movedStart}, within the horizon.
   */
  private void revise(
      final SeriesKey series,
      final long movedStart,
      final long clock,
      final Consumer<ClosedBucket> emit) {
    for (final Granularity granularity : times.granularities()) {
      final long start = granularity.windowStart(movedStart);
      if (times.beyondHorizonAt(granularity.windowEnd(start)) <= clock) {
        continue;
      }
      final WindowState state = store.get(series, granularity, start);
      if (state != null && state.closed()) {
        final WindowState revised = state.revised();
        store.put(series, granularity, start, revised);
        buckets.emit(series, granularity, start, revised, emit);
      }
    }
  }
}
