package io.bucketer.query;

import io.bucketer.buckets.WindowQuality;
import java.util.OptionalDouble;
import java.util.OptionalLong;

/**
 * How a span's readings arrived, beside their figures: the resends and late readings its windows
 * counted, and, where an interval is configured for the series ({@code expected.interval}) or
 * learned by the windows read, the readings it should have had and the fraction of them it holds.
 *
 * @param counts the resends and late readings of the windows read, added up: a window cut by the
 *     span counts whole; null when a window read does not know its own (a document written before
 *     schema_version 4)
 * @param expectedIntervalMillis the series' configured expected interval; empty when none is
 *     configured (also when it is learned)
 * @param learnedIntervalMillis for a series whose interval is learned, the span's: the weighted
 *     median of the learned intervals of the windows read ({@link LearnedIntervals}); empty when
 *     none of them learned one, or the series does not learn
 * @param expected the readings the series should have sent in the span, at the configured interval
 *     or the learned one; empty without either
 * @param count the readings the span holds
 */
public record ReadingQuality(
    WindowQuality counts,
    OptionalLong expectedIntervalMillis,
    OptionalLong learnedIntervalMillis,
    OptionalDouble expected,
    long count) {

  /**
   * {@code count / expected}: below 1 where readings are missing, above 1 for a series that sends
   * more often than expected; empty without an interval, configured or learned.
   */
  public OptionalDouble completeness() {
    return expected.isPresent()
        ? OptionalDouble.of(count / expected.getAsDouble())
        : OptionalDouble.empty();
  }
}
