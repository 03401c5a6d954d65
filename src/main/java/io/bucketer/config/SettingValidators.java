package io.bucketer.config;

import io.bucketer.buckets.TimeSpans;
import java.util.function.Consumer;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;

/**
 * The checks that settings of several concerns share. Each one's {@code toString} is what the
 * configuration reference prints after "Accepts".
 */
final class SettingValidators {

  private SettingValidators() {}

  /** A span such as 500ms, 10s, 5m. */
  static ConfigDef.Validator span() {
    return new Span();
  }

  /** A span no shorter than a minimum, for timeouts that would be meaningless below it. */
  static ConfigDef.Validator spanOfAtLeast(final long minMillis) {
    return new SpanOfAtLeast(minMillis);
  }

  /** A span no longer than a maximum, 0 allowed. */
  static ConfigDef.Validator spanOfAtMost(final long maxMillis) {
    return new SpanOfAtMost(maxMillis);
  }

  static ConfigDef.Validator nonBlank() {
    return new NonBlank();
  }

  /**
   * A value that {@code parse} reads, by throwing {@link IllegalArgumentException} (or {@link
   * ArithmeticException}, for a span too long) with a message that names what it cannot read.
   *
   * @param form what the value looks like, for the configuration reference
   */
  static ConfigDef.Validator parsedBy(final Consumer<String> parse, final String form) {
    return new ParsedBy(parse, form);
  }

  private record ParsedBy(Consumer<String> parse, String form) implements ConfigDef.Validator {
    @Override
    public void ensureValid(final String name, final Object value) {
      try {
        parse.accept(String.valueOf(value));
      } catch (IllegalArgumentException | ArithmeticException e) {
        throw new ConfigException(name, value, e.getMessage());
      }
    }

    @Override
    public String toString() {
      return form;
    }
  }

  private static final class NonBlank implements ConfigDef.Validator {
    @Override
    public void ensureValid(final String name, final Object value) {
      if (value == null || value.toString().isBlank()) {
        throw new ConfigException(name, value, "must not be empty");
      }
    }

    @Override
    public String toString() {
      return "a non-empty value";
    }
  }

  private static final class SpanOfAtLeast implements ConfigDef.Validator {
    private final long minMillis;

    SpanOfAtLeast(final long minMillis) {
      this.minMillis = minMillis;
    }

    @Override
    public void ensureValid(final String name, final Object value) {
      new Span().ensureValid(name, value);
      if (TimeSpans.parseMillis(String.valueOf(value)) < minMillis) {
        throw new ConfigException(name, value, "must be at least " + TimeSpans.format(minMillis));
      }
    }

    @Override
    public String toString() {
      return "a span of at least " + TimeSpans.format(minMillis) + ", such as 30s";
    }
  }

  private record SpanOfAtMost(long maxMillis) implements ConfigDef.Validator {
    @Override
    public void ensureValid(final String name, final Object value) {
      new Span().ensureValid(name, value);
      if (TimeSpans.parseMillis(String.valueOf(value)) > maxMillis) {
        throw new ConfigException(name, value, "must be at most " + TimeSpans.format(maxMillis));
      }
    }

    @Override
    public String toString() {
      return "a span of at most " + TimeSpans.format(maxMillis) + ", such as 5s; 0s for none";
    }
  }

  private static final class Span implements ConfigDef.Validator {
    @Override
    public void ensureValid(final String name, final Object value) {
      try {
        TimeSpans.parseMillis(String.valueOf(value));
      } catch (IllegalArgumentException | ArithmeticException e) {
        throw new ConfigException(name, value, e.getMessage());
      }
    }

    @Override
    public String toString() {
      return "a span such as 500ms, 10s, 5m";
    }
  }
}
