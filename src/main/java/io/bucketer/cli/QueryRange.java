package io.bucketer.cli;

import io.bucketer.buckets.TimeSpans;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;
import picocli.CommandLine.TypeConversionException;

/** The range a query asks about, {@code [from, to)}: given by its ends, or as the last span. */
final class QueryRange {

  @ArgGroup(exclusive = false, multiplicity = "1")
  Between between;

  @Option(
      names = "--last",
      paramLabel = "SPAN",
      converter = SpanConverter.class,
      description = "The range [now - SPAN, now): 90s, 15m, 1h, 2d.")
  Duration last;

  static final class Between {
    @Option(
        names = "--from",
        required = true,
        paramLabel = "INSTANT",
        description = "Start of the range, included, ISO-8601: 2026-11-22T14:00:00Z.")
    Instant from;

    @Option(
        names = "--to",
        required = true,
        paramLabel = "INSTANT",
        description = "End of the range, excluded, ISO-8601.")
    Instant to;
  }

  /** {@code [from, to)}, as the API takes it. */
  record Interval(Instant from, Instant to) {}

  /**
   * The two ends; "now" is read from {@code clock}, to the millisecond, as readings are stamped.
   */
  Interval resolve(final Clock clock) {
    if (last == null) {
      return new Interval(between.from, between.to);
    }
    final Instant now = clock.instant().truncatedTo(ChronoUnit.MILLIS);
    return new Interval(now.minus(last), now);
  }

  /** A span as the configuration spells it; zero would ask for an empty range. */
  static final class SpanConverter implements ITypeConverter<Duration> {
    @Override
    public Duration convert(final String text) {
      final Duration span;
      try {
        span = TimeSpans.parse(text);
      } catch (IllegalArgumentException | ArithmeticException e) {
        throw new TypeConversionException(e.getMessage());
      }
      if (span.isZero()) {
        throw new TypeConversionException("'" + text + "' is an empty range");
      }
      return span;
    }
  }
}
