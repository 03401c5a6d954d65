package io.bucketer.buckets;

import java.time.Duration;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.OptionalLong;

/**
 * How often each series is expected to send ({@code expected.interval}, {@code
 * expected.interval.metrics}): a window then says how many readings it should have had, so a bucket
 * of 12 readings tells a sensor down for most of the hour from a slow one that is fine. An interval
 * is either configured, a span, or {@code learned}: each window's own typical interval, the median
 * time between its consecutive readings ({@link LearnedInterval}). Metrics without either expect
 * nothing.
 *
 * @param defaultMillis the interval of metrics not named: 0 for none, {@link #LEARNED} to learn it
 * @param byMetric each named metric's interval, {@link Duration#ZERO} standing for learned
 */
public record ExpectedIntervals(long defaultMillis, Map<String, Duration> byMetric) {

  /** No interval for any metric: the default. */
  public static final ExpectedIntervals NONE = new ExpectedIntervals(0, Map.of());

  /** {@link #defaultMillis} when every metric not named learns its interval. */
  public static final long LEARNED = -1;

  /** The word that asks for a learned interval, for a metric or as the default. */
  public static final String LEARNED_WORD = "learned";

  public ExpectedIntervals {
    if (defaultMillis < LEARNED) {
      throw new IllegalArgumentException("an expected interval cannot be negative");
    }
    byMetric = Map.copyOf(byMetric);
  }

  /**
   * The interval {@code series} is configured to send at; empty when none is, or when it is
   * learned.
   */
  public OptionalLong of(final SeriesKey series) {
    final long millis = millisOf(series);
    return millis > 0 ? OptionalLong.of(millis) : OptionalLong.empty();
  }

  /** Whether each window of {@code series} learns its interval from its own readings. */
  public boolean learns(final SeriesKey series) {
    return millisOf(series) == LEARNED;
  }

  private long millisOf(final SeriesKey series) {
    final Duration named = series.metric() == null ? null : byMetric.get(series.metric());
    if (named == null) {
      return defaultMillis;
    }
    return named.isZero() ? LEARNED : named.toMillis();
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
   * Parses {@code expected.interval}: a span such as {@code 5s}, {@code learned}, or empty for
   * none.
   *
   * @throws IllegalArgumentException with a message that names what it cannot read
   */
  public static long parseDefault(final String text) {
    if (text.isBlank()) {
      return 0;
    }
    final Duration interval = intervalOf(text.trim());
    return interval.isZero() ? LEARNED : interval.toMillis();
  }

  /**
   * Parses {@code <metric>=<span>|learned,...}, such as {@code temperature=5s,door=learned}; empty
   * means none.
   *
   * @throws IllegalArgumentException with a message that names the part it cannot read
   */
  public static Map<String, Duration> parseMetrics(final String text) {
    return PerMetric.parse(
        text,
        "<metric>=<span> or <metric>=learned, such as temperature=5s",
        ExpectedIntervals::intervalOf);
  }

  /** A positive span, or {@link Duration#ZERO} for {@code learned}. */
  private static Duration intervalOf(final String value) {
    if (value.equals(LEARNED_WORD)) {
      return Duration.ZERO;
    }
    final Duration span = TimeSpans.parse(value);
    if (span.toMillis() <= 0) {
      throw new IllegalArgumentException("an expected interval must be positive, not " + value);
    }
    return span;
  }
}
