package io.bucketer.query;

import io.bucketer.buckets.Measurement;
import io.bucketer.sketch.ValueSketch;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * The quantile sketch of a range's values, merged from what the range's plan reads: the stored
 * sketches of whole windows, and one sketch of every reading read raw (the stretches where an edge
 * cuts a window of the finest granularity, and the windows of the processor's state, which keep no
 * sketch: an open one has none until it closes). Sketches merge exactly ({@link ValueSketch}), so
 * the result is the sketch of the range's readings, and its quantiles are within the sketch's
 * relative accuracy of the exact ones.
 *
 * <p>Unknown, with the reason why, when quantiles are off for the series, when a stored window read
 * has no sketch (a document written before sketches were kept, or with them off, or whose sketch
 * does not decode or counts other readings than its window), or when one was built with another
 * relative accuracy than the series has now: sketches of different accuracies do not merge without
 * silently losing the finer one's guarantee.
 */
final class RangeQuantiles {

  static final String QUANTILES_OFF = "quantiles_off";

  static final String WITHOUT_SKETCH = "window_without_sketch";

  static final String ACCURACY_CHANGED = "accuracy_changed";

  private final OptionalDouble relativeAccuracy;
  private final Function<WindowTotals, List<Measurement>> readingsOf;
  private final Predicate<WindowTotals> fromState;
  private final List<ValueSketch> stored = new ArrayList<>();
  private final List<Measurement> raw = new ArrayList<>();
  private String missing;

  /**
   * @param relativeAccuracy the series' configured α; empty when quantiles are off
   * @param readingsOf the readings of a window of the state
   * @param fromState tells a window read from the processor's state
   */
  RangeQuantiles(
      final OptionalDouble relativeAccuracy,
      final Function<WindowTotals, List<Measurement>> readingsOf,
      final Predicate<WindowTotals> fromState) {
    this.relativeAccuracy = relativeAccuracy;
    this.readingsOf = readingsOf;
    this.fromState = fromState;
    if (relativeAccuracy.isEmpty()) {
      missing = QUANTILES_OFF;
    }
  }

  /** A whole window with readings. */
  void window(final WindowTotals window) {
    if (missing != null) {
      return;
    }
    final ValueSketch sketch = window.sketch();
    if (sketch == null && fromState.test(window)) {
      raw.addAll(readingsOf.apply(window));
    } else if (sketch == null || sketch.count() != window.count()) {
      missing = WITHOUT_SKETCH;
    } else if (sketch.relativeAccuracy() != relativeAccuracy.getAsDouble()) {
      missing = ACCURACY_CHANGED;
    } else {
      stored.add(sketch);
    }
  }

  /** The readings of a stretch read raw. */
  void readings(final List<Measurement> readings) {
    if (missing == null) {
      raw.addAll(readings);
    }
  }

  /** The merge: one sketch of the raw readings, then every sketch in one pass. */
  SeriesQueries.RangeSketch finish() {
    if (missing != null) {
      return new SeriesQueries.RangeSketch(null, relativeAccuracy, missing);
    }
    final double alpha = relativeAccuracy.getAsDouble();
    stored.add(ValueSketch.of(raw, Measurement::value, alpha));
    return new SeriesQueries.RangeSketch(
        ValueSketch.mergeAll(alpha, stored), relativeAccuracy, null);
  }
}
