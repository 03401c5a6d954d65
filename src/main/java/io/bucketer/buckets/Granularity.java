package io.bucketer.buckets;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The width of a tumbling window, such as {@code 1m} or {@code 1h}. Windows are aligned to the
 * epoch (UTC), so a {@code 1h} window always starts on the hour and a {@code 1d} window at UTC
 * midnight; a window covers {@code [start, start + size)}.
 */
public record Granularity(String label, long sizeMillis) implements Comparable<Granularity> {

  private static final Pattern FORMAT = Pattern.compile("(\\d+)(ms|s|m|h|d)");
  private static final String[] UNITS = {"d", "h", "m", "s", "ms"};
  private static final long[] UNIT_MILLIS = {86_400_000L, 3_600_000L, 60_000L, 1_000L, 1L};

  public Granularity {
    if (sizeMillis <= 0) {
      throw new IllegalArgumentException("granularity must be positive: " + label);
    }
  }

  /** Parses {@code <number><unit>} with unit one of ms, s, m, h, d; the label is normalised. */
  public static Granularity parse(final String text) {
    final Matcher matcher = FORMAT.matcher(text.trim().toLowerCase(Locale.ROOT));
    if (!matcher.matches()) {
      throw new IllegalArgumentException(
          "unknown granularity '" + text + "': expected a number and a unit (ms, s, m, h, d)");
    }
    final long amount = Long.parseLong(matcher.group(1));
    final String unit = matcher.group(2);
    long size = 0;
    for (int i = 0; i < UNITS.length; i++) {
      if (UNITS[i].equals(unit)) {
        size = Math.multiplyExact(amount, UNIT_MILLIS[i]);
      }
    }
    return ofMillis(size);
  }

  /** A granularity of the given size, labelled with the largest unit that divides it. */
  public static Granularity ofMillis(final long sizeMillis) {
    for (int i = 0; i < UNITS.length; i++) {
      if (sizeMillis > 0 && sizeMillis % UNIT_MILLIS[i] == 0) {
        return new Granularity(sizeMillis / UNIT_MILLIS[i] + UNITS[i], sizeMillis);
      }
    }
    return new Granularity(sizeMillis + "ms", sizeMillis);
  }

  /** Parses a comma-separated list, finest first, without duplicates (1m and 60s are the same). */
  public static List<Granularity> parseList(final String text) {
    final TreeMap<Long, Granularity> bySize = new TreeMap<>();
    for (final String part : text.split(",")) {
      if (!part.isBlank()) {
        final Granularity granularity = parse(part);
        bySize.put(granularity.sizeMillis(), granularity);
      }
    }
    if (bySize.isEmpty()) {
      throw new IllegalArgumentException("at least one granularity is required");
    }
    return new ArrayList<>(bySize.values());
  }

  /** Start of the window holding {@code timestamp}; a timestamp equal to an end starts the next. */
  public long windowStart(final long timestamp) {
    return Math.floorDiv(timestamp, sizeMillis) * sizeMillis;
  }

  /** Exclusive end of the window that starts at {@code windowStart}. */
  public long windowEnd(final long windowStart) {
    return windowStart + sizeMillis;
  }

  /** True when every window of {@code coarser} is made of whole windows of this granularity. */
  public boolean divides(final Granularity coarser) {
    return coarser.sizeMillis > sizeMillis && coarser.sizeMillis % sizeMillis == 0;
  }

  @Override
  public int compareTo(final Granularity other) {
    return Long.compare(sizeMillis, other.sizeMillis);
  }

  @Override
  public String toString() {
    return label;
  }
}
