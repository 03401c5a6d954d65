package io.bucketer.buckets;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.TreeMap;

/**
 * The width of a tumbling window, such as {@code 1m} or {@code 1h}. Windows are aligned to the
 * epoch (UTC), so a {@code 1h} window always starts on the hour and a {@code 1d} window at UTC
 * midnight; a window covers {@code [start, start + size)}.
 */
public record Granularity(String label, long sizeMillis) implements Comparable<Granularity> {

  public Granularity {
    Objects.requireNonNull(label, "label");
    if (sizeMillis <= 0) {
      throw new IllegalArgumentException("granularity must be positive: " + label);
    }
  }

  /**
   * Written out rather than left to the record's generated equals, which runs through method
   * handles: the window stores are found by granularity in hash maps, and a live profile at 100,000
   * sensors had 7 % of the stream thread in those handles under the stores' lookup, where the call
   * site sees several key types and the JIT does not inline them (docs/benchmarks.md).
   */
  @Override
  public boolean equals(final Object other) {
    return this == other
        || other instanceof Granularity that
            && sizeMillis == that.sizeMillis
            && label.equals(that.label);
  }

  /** As the record's generated form would, written out for the reason {@link #equals} gives. */
  @Override
  public int hashCode() {
    return 31 * label.hashCode() + Long.hashCode(sizeMillis);
  }

  /** Parses {@code <number><unit>} with unit one of ms, s, m, h, d; the label is normalised. */
  public static Granularity parse(final String text) {
    try {
      return ofMillis(TimeSpans.parseMillis(text));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("unknown granularity: " + e.getMessage(), e);
    }
  }

  /** A granularity of the given size, labelled with its shortest exact spelling. */
  public static Granularity ofMillis(final long sizeMillis) {
    return new Granularity(TimeSpans.format(sizeMillis), sizeMillis);
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
