package io.bucketer.windows;

import io.bucketer.buckets.BucketLayout;
import io.bucketer.buckets.ClosedBucket;
import io.bucketer.buckets.ExpectedIntervals;
import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.Interpolation;
import io.bucketer.buckets.LearnedInterval;
import io.bucketer.buckets.Measurement;
import io.bucketer.buckets.RollupPlan;
import io.bucketer.buckets.SeriesKey;
import io.bucketer.buckets.SketchAccuracies;
import io.bucketer.buckets.TimeWeighted;
import io.bucketer.buckets.TimeWeighting;
import io.bucketer.buckets.TimeWeightings;
import io.bucketer.buckets.WindowExtras;
import io.bucketer.buckets.WindowSummary;
import io.bucketer.sketch.ValueSketch;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.function.Consumer;

/**
 * The bucket documents of one window, whole, as its state and the store describe it: its raw
 * measurements, gathered from the finest windows it covers, or the summaries of the windows of the
 * granularity it is rolled up from, as the {@link BucketLayout} says. The lifecycle keeps those
 * finer windows for as long as this window can change, so the summaries always match the finer
 * windows' own buckets of the same revision.
 *
 * <p>Each window's {@link TimeWeighted} part is computed here, at emit, from the readings of its
 * span and the series' last reading before it ({@link #carryIn}), found in the finest windows the
 * store keeps for the lateness horizon, and, with linear interpolation, its first reading after it
 * ({@link #carryOut}) if one has arrived; nothing is added to a reading's way in. A reading that
 * moves a closed window's edge has it emitted again ({@link EdgeRevisions}).
 *
 * <p>Quantile sketches are built here too, from the same readings: a finest window's from its own,
 * a coarse window's summaries each from theirs in the same pass, and the coarse window's by merging
 * its summaries' (exact: the merge of sketches is the sketch of the union). So each reading is
 * added to one sketch per granularity's emit and nothing is kept in the open windows.
 */
final class WindowBuckets {

  private final WindowReader store;
  private final Granularity finest;
  private final int maxMeasurements;
  private final int maxSummaries;
  private final TimeWeightings weightings;
  private final SketchAccuracies accuracies;
  private final ExpectedIntervals expectedIntervals;

  /** For each granularity whose buckets hold summaries: the granularity they summarise. */
  private final Map<Granularity, Granularity> summarised = new HashMap<>();

  WindowBuckets(
      final WindowReader store,
      final RollupPlan plan,
      final BucketLayout layout,
      final TimeWeightings weightings,
      final SketchAccuracies accuracies,
      final ExpectedIntervals expectedIntervals) {
    this.store = store;
    this.finest = plan.granularities().get(0);
    this.maxMeasurements = layout.maxMeasurementsPerBucket();
    this.maxSummaries = layout.maxSummariesPerBucket();
    this.weightings = weightings;
    this.accuracies = accuracies;
    this.expectedIntervals = expectedIntervals;
    for (final Granularity granularity : plan.granularities()) {
      layout.summarised(granularity, plan).ifPresent(finer -> summarised.put(granularity, finer));
    }
  }

  /** Emits every bucket of one window, whole, from its current state, in {@code seq} order. */
  void emit(
      final SeriesKey series,
      final Granularity granularity,
      final long start,
      final WindowState state,
      final Consumer<ClosedBucket> emit) {
    of(series, granularity, start, state).forEach(emit);
  }

  /** The buckets of the window of {@code granularity} at {@code start}, in {@code seq} order. */
  List<ClosedBucket> of(
      final SeriesKey series,
      final Granularity granularity,
      final long start,
      final WindowState state) {
    final Granularity finer = summarised.get(granularity);
    if (finer == null) {
      return withMeasurements(series, granularity, start, state);
    }
    final long end = granularity.windowEnd(start);
    final List<WindowReader.Window> finerWindows =
        store.range(series, finer, start, finer.windowStart(end - 1));
    long summarisedReadings = 0;
    for (final WindowReader.Window window : finerWindows) {
      summarisedReadings += window.state().stats().count();
    }
    if (summarisedReadings != state.stats().count()) {
      // Finer windows expired under an older version, which kept them only for their own
      // horizon: the finest windows, kept for every granularity, still hold every reading.
      return withMeasurements(series, granularity, start, state);
    }
    // The window's part comes from the readings of its whole span, read again here at each emit:
    // the accepted cost of this first step (one read of the hour's finest windows per hour and
    // series), which a fold of the finer windows' stored parts will replace. One pass gives the
    // part of every finer window, which add up to the window's own exactly.
    final TimeWeighting weighting = weightings.of(series);
    final Measurement carryIn = carryIn(series, start, weighting);
    final long[] bounds = new long[(int) ((end - start) / finer.sizeMillis()) + 1];
    for (int i = 0; i < bounds.length; i++) {
      bounds[i] = start + i * finer.sizeMillis();
    }
    final List<Measurement> readings = WindowReadings.between(store, finest, series, start, end);
    final List<TimeWeighted> parts =
        TimeWeighted.ofStretches(
            bounds, carryIn, readings, carryOut(series, readings, end, weighting), weighting);
    final OptionalDouble accuracy = accuracies.of(series);
    final ValueSketch[] sketches =
        accuracy.isPresent() ? sketchesOf(bounds, readings, accuracy.getAsDouble()) : null;
    TimeWeighted whole = TimeWeighted.NONE;
    for (final TimeWeighted part : parts) {
      whole = whole.followedBy(part);
    }
    final List<WindowSummary> summaries = new ArrayList<>(finerWindows.size());
    final List<ValueSketch> summarySketches = new ArrayList<>(finerWindows.size());
    for (final WindowReader.Window window : finerWindows) {
      final int index = (int) ((window.start() - start) / finer.sizeMillis());
      final ValueSketch sketch = sketches == null ? null : sketches[index];
      summaries.add(
          new WindowSummary(
              finer,
              window.start(),
              window.state().stats(),
              parts.get(index),
              sketch,
              window.state().quality()));
      if (sketch != null) {
        summarySketches.add(sketch);
      }
    }
    final ValueSketch sketch =
        sketches == null ? null : ValueSketch.mergeAll(accuracy.getAsDouble(), summarySketches);
    return ClosedBucket.ofSummaries(
        series,
        granularity,
        start,
        state.stats(),
        summaries,
        state.revision(),
        maxSummaries,
        new WindowExtras(
            whole,
            carryIn,
            weighting,
            sketch,
            state.quality(),
            expectedInterval(series),
            learnedInterval(series, carryIn, readings)));
  }

  private List<ClosedBucket> withMeasurements(
      final SeriesKey series,
      final Granularity granularity,
      final long start,
      final WindowState state) {
    final long end = granularity.windowEnd(start);
    final List<Measurement> readings =
        granularity.equals(finest)
            ? WindowReadings.of(store, series, start, state)
            : WindowReadings.between(store, finest, series, start, end);
    final TimeWeighting weighting = weightings.of(series);
    final Measurement carryIn = carryIn(series, start, weighting);
    final OptionalDouble accuracy = accuracies.of(series);
    final ValueSketch sketch =
        accuracy.isPresent()
            ? ValueSketch.of(readings, Measurement::value, accuracy.getAsDouble())
            : null;
    return ClosedBucket.ofWindow(
        series,
        granularity,
        start,
        state.stats(),
        readings,
        state.revision(),
        maxMeasurements,
        new WindowExtras(
            TimeWeighted.ofReadings(
                start,
                end,
                carryIn,
                readings,
                carryOut(series, readings, end, weighting),
                weighting),
            carryIn,
            weighting,
            sketch,
            state.quality(),
            expectedInterval(series),
            learnedInterval(series, carryIn, readings)));
  }

  /** The window's own typical interval, for a series that learns it; else null. */
  private Long learnedInterval(
      final SeriesKey series, final Measurement carryIn, final List<Measurement> readings) {
    return expectedIntervals.learns(series) ? LearnedInterval.of(carryIn, readings) : null;
  }

  private Long expectedInterval(final SeriesKey series) {
    final OptionalLong interval = expectedIntervals.of(series);
    return interval.isPresent() ? interval.getAsLong() : null;
  }

  /**
   * The sketch of each stretch {@code [bounds[i], bounds[i + 1])}'s readings, from the readings of
   * the whole span, sorted by time, in one pass.
   */
  private static ValueSketch[] sketchesOf(
      final long[] bounds, final List<Measurement> sortedReadings, final double accuracy) {
    final ValueSketch[] sketches = new ValueSketch[bounds.length - 1];
    int from = 0;
    for (int i = 0; i < sketches.length; i++) {
      int to = from;
      while (to < sortedReadings.size() && sortedReadings.get(to).timestamp() < bounds[i + 1]) {
        to++;
      }
      sketches[i] = ValueSketch.of(sortedReadings.subList(from, to), Measurement::value, accuracy);
      from = to;
    }
    return sketches;
  }

  /**
   * The series' last reading before {@code start} if less than the max gap before it (its hold
   * reaches {@code start}, also when a reading falls on {@code start}), or null: the last reading
   * before it of the finest window holding {@code start - 1}, else of the latest one before, within
   * the max gap. The store keeps closed finest windows for the lateness horizon and the series' max
   * gap beyond it ({@link WindowExpiry}), so a window that can still be emitted finds that reading.
   */
  private Measurement carryIn(
      final SeriesKey series, final long start, final TimeWeighting weighting) {
    // The window just before is the one in the steady state: one get, no range read.
    final long previousStart = finest.windowStart(start - 1);
    final WindowState previous = store.get(series, finest, previousStart);
    Measurement last = previous == null ? null : lastBefore(series, previousStart, previous, start);
    if (last == null) {
      final long earliest = finest.windowStart(start - weighting.maxGapMillis());
      if (earliest < previousStart) {
        final List<WindowReader.Window> before =
            store.range(series, finest, earliest, previousStart - 1);
        if (!before.isEmpty()) {
          final WindowReader.Window latest = before.get(before.size() - 1);
          last = lastBefore(series, latest.start(), latest.state(), start);
        }
      }
    }
    return last != null && last.timestamp() + weighting.maxGapMillis() > start ? last : null;
  }

  /**
   * With linear interpolation, the series' first reading at or after {@code end}, if it is within
   * the max gap of the window's last reading, or null: the end of the line the window's last
   * segment follows. Null with step interpolation, which does not look ahead. A window emitted
   * before that reading arrives is emitted again when it does ({@link EdgeRevisions}).
   */
  private Measurement carryOut(
      final SeriesKey series,
      final List<Measurement> sortedReadings,
      final long end,
      final TimeWeighting weighting) {
    if (weighting.interpolation() != Interpolation.LINEAR || sortedReadings.isEmpty()) {
      return null;
    }
    final long last = sortedReadings.get(sortedReadings.size() - 1).timestamp();
    final long latest = last + weighting.maxGapMillis();
    if (latest < end) {
      return null;
    }
    for (final WindowReader.Window next :
        store.range(series, finest, finest.windowStart(end), finest.windowStart(latest))) {
      final Measurement first = firstFrom(series, next.start(), next.state(), end);
      if (first != null) {
        return first.timestamp() <= latest ? first : null;
      }
    }
    return null;
  }

  /**
   * The first reading at or after {@code time} of a finest window: its first reading, unless the
   * window holds {@code time} (a coarse window that the finest ones do not divide).
   */
  private Measurement firstFrom(
      final SeriesKey series, final long windowStart, final WindowState state, final long time) {
    final Measurement first = state.stats().first();
    if (first.timestamp() >= time && !Double.isNaN(first.value())) {
      return first;
    }
    for (final Measurement reading : WindowReadings.of(store, series, windowStart, state)) {
      if (reading.timestamp() >= time) {
        return reading;
      }
    }
    return null;
  }

  /**
   * The last reading before {@code time} of a finest window: its last reading, unless the window
   * holds {@code time} (a coarse window that the finest ones do not divide) or its sums were kept
   * by a version before the last value was; then from its readings.
   */
  private Measurement lastBefore(
      final SeriesKey series, final long windowStart, final WindowState state, final long time) {
    final Measurement last = state.stats().last();
    if (last.timestamp() < time && !Double.isNaN(last.value())) {
      return last;
    }
    final List<Measurement> readings = WindowReadings.of(store, series, windowStart, state);
    for (int i = readings.size() - 1; i >= 0; i--) {
      if (readings.get(i).timestamp() < time) {
        return readings.get(i);
      }
    }
    return null;
  }
}
