package io.bucketer.buckets;

import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Parses the short time spans used in configuration and granularities: 500ms, 10s, 1m, 2h, 1d. */
public final class TimeSpans {

  private static final Pattern FORMAT = Pattern.compile("(\\d+)(ms|s|m|h|d)");

  private TimeSpans() {}

  /** Milliseconds in {@code text}; a unit is required so that "10" is never ambiguous. */
  public static long parseMillis(final String text) {
    final Matcher matcher = FORMAT.matcher(text.trim().toLowerCase(Locale.ROOT));
    if (!matcher.matches()) {
      throw new IllegalArgumentException(
          "'" + text + "' is not a time span: expected a number and a unit (ms, s, m, h, d)");
    }
    final long amount = Long.parseLong(matcher.group(1));
    final long unitMillis =
        switch (matcher.group(2)) {
          case "ms" -> 1L;
          case "s" -> 1_000L;
          case "m" -> 60_000L;
          case "h" -> 3_600_000L;
          default -> 86_400_000L;
        };
    return Math.multiplyExact(amount, unitMillis);
  }

  public static Duration parse(final String text) {
    return Duration.ofMillis(parseMillis(text));
  }

  /** The shortest exact spelling of a span: 3600000 ms is "1h", 90000 ms is "90s". */
  public static String format(final long millis) {
    final long[] unitMillis = {86_400_000L, 3_600_000L, 60_000L, 1_000L};
    final String[] units = {"d", "h", "m", "s"};
    for (int i = 0; i < units.length; i++) {
      if (millis != 0 && millis % unitMillis[i] == 0) {
        return millis / unitMillis[i] + units[i];
      }
    }
    return millis + "ms";
  }
}
