package io.bucketer.windows;

import io.bucketer.buckets.BucketLayout;
import io.bucketer.buckets.ClosedBucket;
import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.RollupPlan;
import io.bucketer.buckets.SeriesKey;
import io.bucketer.buckets.WindowSummary;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The bucket documents of one window, whole, as its state and the store describe it: its raw
 * measurements, gathered from the finest windows it covers, or the summaries of the windows of the
 * granularity it is rolled up from, as the {@link BucketLayout} says. The lifecycle keeps those
 * finer windows for as long as this window can change, so the summaries always match the finer
 * windows' own buckets of the same revision.
 */
final class WindowBuckets {

  private final WindowReader store;
  private final Granularity finest;
  private final int maxMeasurements;
  private final int maxSummaries;

  /** For each granularity whose buckets hold summaries: the granularity they summarise. */
  private final Map<Granularity, Granularity> summarised = new HashMap<>();

  WindowBuckets(final WindowReader store, final RollupPlan plan, final BucketLayout layout) {
    this.store = store;
    this.finest = plan.granularities().get(0);
    this.maxMeasurements = layout.maxMeasurementsPerBucket();
    this.maxSummaries = layout.maxSummariesPerBucket();
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
    final List<WindowSummary> summaries = new ArrayList<>();
    long summarisedReadings = 0;
    for (final WindowReader.Window window :
        store.range(series, finer, start, finer.windowStart(end - 1))) {
      summaries.add(new WindowSummary(finer, window.start(), window.state().stats()));
      summarisedReadings += window.state().stats().count();
    }
    if (summarisedReadings != state.stats().count()) {
      // Finer windows expired under an older version, which kept them only for their own
      // horizon: the finest windows, kept for every granularity, still hold every reading.
      return withMeasurements(series, granularity, start, state);
    }
    return ClosedBucket.ofSummaries(
        series, granularity, start, state.stats(), summaries, state.revision(), maxSummaries);
  }

  private List<ClosedBucket> withMeasurements(
      final SeriesKey series,
      final Granularity granularity,
      final long start,
      final WindowState state) {
    return ClosedBucket.ofWindow(
        series,
        granularity,
        start,
        state.stats(),
        granularity.equals(finest)
            ? WindowReadings.of(store, series, start, state)
            : WindowReadings.between(store, finest, series, start, granularity.windowEnd(start)),
        state.revision(),
        maxMeasurements);
  }
}
