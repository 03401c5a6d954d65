package io.bucketer.buckets;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * The {@link TimeWeighting} of each series: one for every metric, or its own for a metric named in
 * {@code max.gap.metrics} (a door contact may stand still for a day, a power meter not for a
 * quarter of an hour) or {@code interpolation.metrics} (a flow is linear between its samples).
 */
public record TimeWeightings(TimeWeighting defaults, Map<String, TimeWeighting> byMetric) {

  /** {@code max.gap}'s default: a reading stands for at most five minutes. */
  public static final Duration DEFAULT_MAX_GAP = Duration.ofMinutes(5);

  /** Step, with the default max gap, for every metric. */
  public static final TimeWeightings DEFAULT =
      new TimeWeightings(new TimeWeighting(DEFAULT_MAX_GAP.toMillis()), Map.of());

  public TimeWeightings {
    byMetric = Map.copyOf(byMetric);
  }

  /** The weighting of {@code series}: its metric's, or the default (also for no metric). */
  public TimeWeighting of(final SeriesKey series) {
    final String metric = series.metric();
    return metric == null ? defaults : byMetric.getOrDefault(metric, defaults);
  }

  /**
   * The longest max gap of any metric: how far back a window may look for its carried-in reading.
   */
  public long longestMaxGapMillis() {
    long longest = defaults.maxGapMillis();
    for (final TimeWeighting weighting : byMetric.values()) {
      longest = Math.max(longest, weighting.maxGapMillis());
    }
    return longest;
  }

  /**
   * Parses {@code <metric>=<span>,...}, such as {@code door=1d,power=15m}; empty means none.
   *
   * @throws IllegalArgumentException with a message that names the part it cannot read
   */
  public static Map<String, Duration> parseMaxGaps(final String text) {
    return PerMetric.parse(
        text,
        "<metric>=<span>, such as door=1d",
        value -> {
          final Duration span = TimeSpans.parse(value);
          if (span.toMillis() <= 0) {
            throw new IllegalArgumentException("a max gap must be positive, not " + value);
          }
          return span;
        });
  }

  /**
   * Parses {@code <metric>=step|linear,...}, such as {@code flow=linear}; empty means none.
   *
   * @throws IllegalArgumentException with a message that names the part it cannot read
   */
  public static Map<String, Interpolation> parseInterpolations(final String text) {
    return PerMetric.parse(
        text, "<metric>=<interpolation>, such as flow=linear", Interpolation::ofLabel);
  }

  /** Step weightings of {@code maxGap}, and of each metric's own max gap. */
  public static TimeWeightings of(final Duration maxGap, final Map<String, Duration> byMetric) {
    return of(maxGap, byMetric, Interpolation.STEP, Map.of());
  }

  /**
   * Weightings of {@code maxGap} and {@code interpolation}, and of each metric's own max gap or
   * interpolation where it has one.
   */
  public static TimeWeightings of(
      final Duration maxGap,
      final Map<String, Duration> maxGaps,
      final Interpolation interpolation,
      final Map<String, Interpolation> interpolations) {
    final Map<String, TimeWeighting> weightings = new LinkedHashMap<>();
    final Set<String> named = new LinkedHashSet<>(maxGaps.keySet());
    named.addAll(interpolations.keySet());
    for (final String metric : named) {
      weightings.put(
          metric,
          new TimeWeighting(
              maxGaps.getOrDefault(metric, maxGap).toMillis(),
              interpolations.getOrDefault(metric, interpolation)));
    }
    return new TimeWeightings(new TimeWeighting(maxGap.toMillis(), interpolation), weightings);
  }
}
