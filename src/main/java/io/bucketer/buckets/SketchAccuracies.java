package io.bucketer.buckets;

import io.bucketer.sketch.ValueSketch;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * The relative accuracy α of each series' quantile sketch, or none when quantiles are off: one α
 * for every metric, or its own for a metric named in {@code quantiles.relative.accuracy.metrics} (a
 * pressure on a large offset needs a finer α than a power reading spread over a range, see {@code
 * ValueSketch}). Sketches of different α do not merge, so a range that crosses a change of α
 * answers no quantiles rather than lossy ones.
 */
public record SketchAccuracies(boolean enabled, double defaults, Map<String, Double> byMetric) {

  /** {@code quantiles.relative.accuracy}'s default: quantiles within 1 % of the exact value. */
  public static final double DEFAULT_RELATIVE_ACCURACY = ValueSketch.DEFAULT_RELATIVE_ACCURACY;

  /** Sketches of α = 1 % for every metric. */
  public static final SketchAccuracies DEFAULT =
      new SketchAccuracies(true, DEFAULT_RELATIVE_ACCURACY, Map.of());

  /** No sketches. */
  public static final SketchAccuracies OFF =
      new SketchAccuracies(false, DEFAULT_RELATIVE_ACCURACY, Map.of());

  public SketchAccuracies {
    byMetric = Map.copyOf(byMetric);
    checkAccuracy(defaults);
    byMetric.values().forEach(SketchAccuracies::checkAccuracy);
  }

  /**
   * The α of {@code series}' sketches: its metric's, or the default; empty when quantiles are off.
   */
  public OptionalDouble of(final SeriesKey series) {
    if (!enabled) {
      return OptionalDouble.empty();
    }
    final String metric = series.metric();
    return OptionalDouble.of(metric == null ? defaults : byMetric.getOrDefault(metric, defaults));
  }

  /**
   * Parses {@code <metric>=<accuracy>,...}, such as {@code pressure=0.0001}; empty means none.
   *
   * @throws IllegalArgumentException with a message that names the part it cannot read
   */
  public static Map<String, Double> parseAccuracies(final String text) {
    return PerMetric.parse(
        text,
        "<metric>=<accuracy>, such as pressure=0.0001",
        value -> {
          final double accuracy;
          try {
            accuracy = Double.parseDouble(value);
          } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + value + "' is not a number", e);
          }
          checkAccuracy(accuracy);
          return accuracy;
        });
  }

  /**
   * Checks that a sketch can have the relative accuracy {@code accuracy}: in (0, 0.5], a whole
   * number of millionths (the sketch stores α in millionths).
   *
   * @throws IllegalArgumentException naming the accuracy
   */
  public static void checkAccuracy(final double accuracy) {
    final long micros = Math.round(accuracy * 1_000_000);
    if (!(accuracy > 0 && accuracy <= 0.5) || micros <= 0 || micros / 1e6 != accuracy) {
      throw new IllegalArgumentException(
          "a relative accuracy must be in (0, 0.5] in whole millionths, such as 0.01, not "
              + accuracy);
    }
  }
}
