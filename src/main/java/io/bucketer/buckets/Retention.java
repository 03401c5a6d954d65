package io.bucketer.buckets;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * How long MongoDB keeps the documents of each granularity, counted from their window's end (a TTL
 * index on {@code end_date}, as MongoDB's time-series collections have {@code expireAfterSeconds}).
 * A granularity without one keeps its documents for ever. MMS kept minutes for a short while and
 * hours for long: {@code 1m=30d,1h=400d}.
 */
public record Retention(Map<Granularity, Duration> byGranularity) {

  /** Every document kept for ever. */
  public static final Retention NONE = new Retention(Map.of());

  public Retention {
    byGranularity = Map.copyOf(byGranularity);
    for (final Map.Entry<Granularity, Duration> entry : byGranularity.entrySet()) {
      if (entry.getValue().toSeconds() < 1) {
        throw new IllegalArgumentException(
            "retention of " + entry.getKey() + " must be at least 1s: " + entry.getValue());
      }
    }
  }

  /**
   * Parses {@code <granularity>=<span>,...}, such as {@code 1m=30d,1h=400d}; empty means {@link
   * #NONE}. Each granularity must be one of {@code configured} (60s names 1m).
   *
   * @throws IllegalArgumentException with a message that names the part it cannot read
   */
  public static Retention parse(final String text, final List<Granularity> configured) {
    final Map<Granularity, Duration> retention = new LinkedHashMap<>();
    for (final String part : text.split(",")) {
      if (part.isBlank()) {
        continue;
      }
      final String[] halves = part.split("=", -1);
      if (halves.length != 2) {
        throw new IllegalArgumentException(
            "'" + part.trim() + "' is not <granularity>=<span>, such as 1m=30d");
      }
      final Granularity named = Granularity.parse(halves[0].trim());
      final Granularity granularity =
          configured.stream()
              .filter(g -> g.sizeMillis() == named.sizeMillis())
              .findFirst()
              .orElseThrow(
                  () ->
                      new IllegalArgumentException(
                          named + " is not one of the granularities " + configured));
      if (retention.put(granularity, TimeSpans.parse(halves[1].trim())) != null) {
        throw new IllegalArgumentException(granularity + " is given twice");
      }
    }
    return new Retention(retention);
  }

  /** How long documents of {@code granularity} are kept; empty: for ever. */
  public Optional<Duration> of(final Granularity granularity) {
    return Optional.ofNullable(byGranularity.get(granularity));
  }

  /**
   * The earliest time from which documents of {@code granularity} are all still kept at {@code
   * now}: a window that ends after {@code now - retention} has not expired. Empty: all of them.
   */
  public Optional<Instant> keptFrom(final Granularity granularity, final Instant now) {
    return of(granularity).map(now::minus);
  }

  @Override
  public String toString() {
    return byGranularity.entrySet().stream()
        .sorted(Map.Entry.comparingByKey())
        .map(e -> e.getKey() + "=" + TimeSpans.format(e.getValue().toMillis()))
        .collect(Collectors.joining(","));
  }
}
