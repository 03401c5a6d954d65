package io.bucketer.windows;

import io.bucketer.buckets.BucketStats;
import io.bucketer.buckets.ClosedBucket;
import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.Measurement;
import io.bucketer.buckets.SeriesKey;
import io.bucketer.windows.WindowLifecycle.Outcome;
import java.util.List;
import java.util.function.Consumer;

/**
 * Readings at a time their series already holds: a series and an event time identify a reading. A
 * resend, with the same value, counts once and changes nothing; another value is dropped or
 * replaces the held one, as {@link DuplicateTimestamps} says. A replacement restates every window
 * that holds the reading and emits again those that have closed: running sums can take a reading
 * added, but not one taken back, so each window's sums are computed again from what it summarises.
 * Apart from the lifecycle, which only asks {@link #heldAt} for each reading and hands the rare
 * reading at a held time over to {@link #resolve}.
 */
final class HeldReadings {

  /**
   * Where a finest window holds a reading at {@code timestamp}: in its tail ({@code run} null) or
   * in one of its sealed runs.
   */
  record HeldReading(WindowReader.SealedRun run, int index, double value) {}

  private final WindowStore store;
  private final WindowTimes times;
  private final Granularity finest;
  private final WindowBuckets buckets;
  private final DuplicateTimestamps duplicateTimestamps;

  HeldReadings(
      final WindowStore store,
      final WindowTimes times,
      final WindowBuckets buckets,
      final DuplicateTimestamps duplicateTimestamps) {
    this.store = store;
    this.times = times;
    this.finest = times.finest();
    this.buckets = buckets;
    this.duplicateTimestamps = duplicateTimestamps;
  }

  /**
   * The reading the finest window holds at {@code timestamp}, or null. A reading later or earlier
   * than all of the window's, the usual case, is told from its stats alone; any other looks through
   * the tail and then through the sealed runs.
   */
  HeldReading heldAt(
      final SeriesKey series, final long start, final WindowState window, final long timestamp) {
    final BucketStats stats = window.stats();
    if (timestamp > stats.lastTimestamp() || timestamp < stats.firstTimestamp()) {
      return null;
    }
    final int inTail = window.tail().indexOf(timestamp);
    if (inTail >= 0) {
      return new HeldReading(null, inTail, window.tail().value(inTail));
    }
    if (window.sealedRuns() > 0) {
      for (final WindowReader.SealedRun run : store.sealedRuns(series, start, start)) {
        final int index = run.readings().indexOf(timestamp);
        if (index >= 0) {
          return new HeldReading(run, index, run.readings().value(index));
        }
      }
    }
    return null;
  }

  /**
   * A reading at a time its series already holds: a resend when the value is the same, counted
   * once; otherwise {@link DuplicateTimestamps} decides. Its time is one the series' clock has
   * passed, so it closes nothing.
   */
  Outcome resolve(
      final SeriesKey series,
      final long start,
      final WindowState window,
      final HeldReading held,
      final Measurement measurement,
      final Integer utcOffsetMinutes,
      final Consumer<ClosedBucket> emit) {
    if (Double.compare(held.value(), measurement.value()) == 0) {
      return Outcome.RESENT;
    }
    if (duplicateTimestamps == DuplicateTimestamps.KEEP_FIRST) {
      return Outcome.KEPT_FIRST;
    }
    ReadingRun tail = window.tail();
    if (held.run() == null) {
      tail = tail.withValueAt(held.index(), measurement.value());
    } else {
      store.putSealedRun(
          series,
          start,
          held.run().number(),
          held.run().readings().withValueAt(held.index(), measurement.value()));
    }
    final WindowState withNewTail = window.withTail(tail);
    final Integer offset =
        utcOffsetMinutes != null && measurement.timestamp() == window.stats().lastTimestamp()
            ? utcOffsetMinutes
            : window.stats().utcOffsetMinutes();
    final BucketStats restated =
        BucketStats.ofAll(WindowReadings.of(store, series, start, withNewTail), offset);
    final WindowState replaced = withNewTail.restated(restated);
    store.put(series, finest, start, replaced);
    if (replaced.closed()) {
      buckets.emit(series, finest, start, replaced, emit);
      restateCoarser(series, finest, start, emit);
    }
    for (final Granularity granularity : times.fedByReadings()) {
      if (!granularity.equals(finest)) {
        restateFromReadings(series, granularity, measurement.timestamp(), emit);
      }
    }
    return Outcome.REPLACED;
  }

  /**
   * Computes again, from the readings its finest windows hold, the window of a granularity fed by
   * readings (not rolled up) that holds {@code timestamp}; emits it if it has closed, and goes on
   * up to the windows rolled up from it.
   */
  private void restateFromReadings(
      final SeriesKey series,
      final Granularity granularity,
      final long timestamp,
      final Consumer<ClosedBucket> emit) {
    final long start = granularity.windowStart(timestamp);
    final WindowState current = store.get(series, granularity, start);
    if (current == null) {
      return;
    }
    final List<Measurement> readings =
        WindowReadings.between(store, finest, series, start, granularity.windowEnd(start));
    final WindowState restated =
        current.restated(BucketStats.ofAll(readings, current.stats().utcOffsetMinutes()));
    store.put(series, granularity, start, restated);
    if (restated.closed()) {
      buckets.emit(series, granularity, start, restated, emit);
      restateCoarser(series, granularity, start, emit);
    }
  }

  /**
   * Computes again, from the windows it summarises, each coarser window that the closed window
   * {@code (granularity, start)} was rolled up into, after a value in it was replaced; emits those
   * that have closed, and goes on up. A coarser window's sums are those of its closed source
   * windows, late readings included (a late reading goes to its finest window as well), and a
   * source window is kept as long as a window it is rolled up into can change.
   */
  private void restateCoarser(
      final SeriesKey series,
      final Granularity granularity,
      final long start,
      final Consumer<ClosedBucket> emit) {
    for (final Granularity coarser : times.rolledUpFrom(granularity)) {
      final long coarserStart = coarser.windowStart(start);
      final WindowState current = store.get(series, coarser, coarserStart);
      if (current == null) {
        // Left to backfill (a granularity added while its span was under way): the windows above
        // it took its finer windows directly.
        restateCoarser(series, coarser, coarserStart, emit);
        continue;
      }
      BucketStats sums = null;
      for (final WindowReader.Window source :
          store.range(series, granularity, coarserStart, coarser.windowEnd(coarserStart) - 1)) {
        if (source.state().closed()) {
          sums = sums == null ? source.state().stats() : sums.merge(source.state().stats());
        }
      }
      if (sums == null || sums.count() != current.stats().count()) {
        sums = fromReadings(series, coarser, granularity, coarserStart, current);
      }
      final WindowState restated = current.restated(sums);
      store.put(series, coarser, coarserStart, restated);
      if (restated.closed()) {
        buckets.emit(series, coarser, coarserStart, restated, emit);
        restateCoarser(series, coarser, coarserStart, emit);
      }
    }
  }

  /**
   * The sums of a coarser window whose source windows do not hold all its readings, from the
   * readings: a granularity was added below it while its span was under way, and it took the finer
   * windows before that, and those of the span left to backfill, directly. An open window holds the
   * readings up to its first source or finest window still open; the later ones join it when those
   * close.
   */
  private BucketStats fromReadings(
      final SeriesKey series,
      final Granularity coarser,
      final Granularity source,
      final long coarserStart,
      final WindowState current) {
    long end = coarser.windowEnd(coarserStart);
    if (!current.closed()) {
      end = Math.min(end, firstOpenStart(series, source, coarserStart, end));
      end = Math.min(end, firstOpenStart(series, finest, coarserStart, end));
    }
    final List<Measurement> readings =
        WindowReadings.between(store, finest, series, coarserStart, end);
    return readings.isEmpty()
        ? current.stats()
        : BucketStats.ofAll(readings, current.stats().utcOffsetMinutes());
  }

  private long firstOpenStart(
      final SeriesKey series, final Granularity granularity, final long from, final long end) {
    for (final WindowReader.Window window : store.range(series, granularity, from, end - 1)) {
      if (!window.state().closed()) {
        return window.start();
      }
    }
    return end;
  }
}
