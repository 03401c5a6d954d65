package io.bucketer.buckets;

import java.time.Duration;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.OptionalLong;

/**
 * How often each series is expected to send, where the user said so ({@code expected.interval},
 * {@code expected.interval.metrics}): a window then says how many readings it should have had, so a
 * bucket of 12 readings tells a sensor down for most of the hour from a slow one that is fine.
 * Metrics without an interval expect nothing.
 *
 * @param defaultMillis the interval of metrics not named, 0 for none
 * @param byMetric each named metric's interval
 */
public record ExpectedIntervals(long defaultMillis, Map<String, Duration> byMetric) {

  /** No interval for any metric: the default. */
  public static final ExpectedIntervals NONE = new ExpectedIntervals(0, Map.of());

  public ExpectedIntervals {
    if (defaultMillis < 0) {
      throw new IllegalArgumentException("an expected interval cannot be negative");
    }
    byMetric = Map.copyOf(byMetric);
  }

  /** The interval {@code series} is expected to send at, if one is configured for its metric. */
  public OptionalLong of(final SeriesKey series) {
    final Duration named = series.metric() == null ? null : byMetric.get(series.metric());
    if (named != null) {
      return OptionalLong.of(named.toMillis());
    }
    return defaultMillis > 0 ? OptionalLong.of(defaultMillis) : OptionalLong.empty();
  }

  /**
   * The readings {@code series} should send in {@code [from, to)}: its length over the interval, a
   * fraction where the interval does not divide it; empty when no interval is configured.
   */
  public OptionalDouble expected(final SeriesKey series, final long from, final long to) {
    final OptionalLong interval = of(series);
    return interval.isPresent()
        ? OptionalDouble.of((double) (to - from) / interval.getAsLong())
        : OptionalDouble.empty();
  }

  /**
   * Parses {@code expected.interval}: a span such as {@code 5s}, or empty for none.
   *
   * @throws IllegalArgumentException with a message that names what it cannot read
   */
  public static long parseDefault(final String text) {
    return text.isBlank() ? 0 : positive(text.trim()).toMillis();
  }

  /**
   * Parses {@code <metric>=<span>,...}, such as {@code temperature=5s,meter=15m}; empty means none.
   *
   * @throws IllegalArgumentException with a message that names the part it cannot read
   */
  public static Map<String, Duration> parseMetrics(final String text) {
    return PerMetric.parse(
        text, "<metric>=<span>, such as temperature=5s", ExpectedIntervals::positive);
  }

  private static Duration positive(final String value) {
    final Duration span = TimeSpans.parse(value);
    if (span.toMillis() <= 0) {
      throw new IllegalArgumentException("an expected interval must be positive, not " + value);
    }
    return span;
  }
}
