package io.bucketer.resink;

import io.bucketer.buckets.Granularity;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.StringJoiner;
import java.util.TreeMap;

/**
 * What a resink did, by granularity: the bucket records read and what became of each (written,
 * unchanged, skipped and why, rejected by MongoDB), and the records that held no bucket. Said as a
 * progress line while it runs and as a table at the end. One thread counts: the resink's.
 */
public final class ResinkCounts {

  /** What became of a bucket read from the topic. */
  public enum Outcome {
    /** Created or replaced its document (in a dry run: would be written). */
    WRITTEN("written", "to write"),
    /** The target already held this revision or a newer one. */
    UNCHANGED("unchanged", "unchanged"),
    EXPIRED("expired", "expired"),
    NOT_SELECTED("not selected", "not selected"),
    NOT_CONFIGURED("not configured", "not configured"),
    /** MongoDB refused its document (too large, say): the running sink dead-lettered it too. */
    REJECTED("rejected", "rejected");

    private final String heading;
    private final String dryRunHeading;

    Outcome(final String heading, final String dryRunHeading) {
      this.heading = heading;
      this.dryRunHeading = dryRunHeading;
    }
  }

  private final boolean dryRun;
  private final Map<Granularity, EnumMap<Outcome, Long>> byGranularity = new TreeMap<>();
  private long tombstones;
  private long undecodable;

  /**
   * @param dryRun nothing is written: {@link Outcome#WRITTEN} is said "to write"
   */
  public ResinkCounts(final boolean dryRun) {
    this.dryRun = dryRun;
  }

  void add(final Granularity granularity, final Outcome outcome) {
    add(granularity, outcome, 1);
  }

  void add(final Granularity granularity, final Outcome outcome, final long count) {
    if (count != 0) {
      byGranularity
          .computeIfAbsent(granularity, g -> new EnumMap<>(Outcome.class))
          .merge(outcome, count, Long::sum);
    }
  }

  /** One written bucket turned out to change nothing: moved from written to unchanged. */
  void unchanged(final Granularity granularity) {
    add(granularity, Outcome.WRITTEN, -1);
    add(granularity, Outcome.UNCHANGED, 1);
  }

  void tombstone() {
    tombstones++;
  }

  void notABucket() {
    undecodable++;
  }

  /** How many buckets of {@code granularity} came to {@code outcome}. */
  public long count(final Granularity granularity, final Outcome outcome) {
    return byGranularity
        .getOrDefault(granularity, new EnumMap<>(Outcome.class))
        .getOrDefault(outcome, 0L);
  }

  /** How many buckets of every granularity came to {@code outcome}. */
  public long total(final Outcome outcome) {
    return byGranularity.values().stream().mapToLong(o -> o.getOrDefault(outcome, 0L)).sum();
  }

  /** Records read: the buckets, the tombstones and the records that held no bucket. */
  public long recordsRead() {
    return byGranularity.values().stream()
            .flatMap(outcomes -> outcomes.values().stream())
            .mapToLong(Long::longValue)
            .sum()
        + tombstones
        + undecodable;
  }

  /** Records whose value was not a bucket in any format this version reads. */
  public long undecodable() {
    return undecodable;
  }

  public long tombstones() {
    return tombstones;
  }

  /**
   * {@code read 4,000 of at most 12,345 records (32%): 1m 3,500 written, 0 unchanged, 400 skipped;
   * 1h ...}.
   */
  public String progressLine(final long recordsToRead) {
    final StringBuilder line = new StringBuilder();
    final long read = recordsRead();
    line.append(String.format("read %,d of at most %,d records", read, recordsToRead));
    if (recordsToRead > 0) {
      line.append(String.format(" (%d%%)", Math.min(100, read * 100 / recordsToRead)));
    }
    final StringJoiner granularities = new StringJoiner("; ", ": ", "");
    granularities.setEmptyValue("");
    byGranularity.forEach(
        (granularity, outcomes) -> {
          final long skipped =
              outcomes.getOrDefault(Outcome.EXPIRED, 0L)
                  + outcomes.getOrDefault(Outcome.NOT_SELECTED, 0L)
                  + outcomes.getOrDefault(Outcome.NOT_CONFIGURED, 0L);
          final long rejected = outcomes.getOrDefault(Outcome.REJECTED, 0L);
          granularities.add(
              String.format(
                  "%s %,d %s, %,d unchanged, %,d skipped%s",
                  granularity,
                  outcomes.getOrDefault(Outcome.WRITTEN, 0L),
                  heading(Outcome.WRITTEN),
                  outcomes.getOrDefault(Outcome.UNCHANGED, 0L),
                  skipped,
                  rejected == 0 ? "" : String.format(", %,d rejected", rejected)));
        });
    return line.append(granularities).toString();
  }

  /**
   * The table of every granularity's outcomes, and the records that held none, after {@code took}.
   */
  public String summary(final Duration took) {
    final StringBuilder text = new StringBuilder();
    text.append(
        String.format(
            "%s in %.1f s: %,d records read (%,d tombstones, %,d not buckets)%n",
            dryRun ? "dry run done, nothing written," : "done",
            took.toMillis() / 1000.0,
            recordsRead(),
            tombstones,
            undecodable));
    final StringBuilder header =
        new StringBuilder(String.format("%-12s %12s", "granularity", "buckets"));
    for (final Outcome outcome : Outcome.values()) {
      header.append(String.format(" %14s", heading(outcome)));
    }
    text.append(header.toString().stripTrailing()).append(System.lineSeparator());
    byGranularity.forEach(
        (granularity, outcomes) -> {
          final StringBuilder row =
              new StringBuilder(
                  String.format(
                      "%-12s %,12d",
                      granularity.label(),
                      outcomes.values().stream().mapToLong(Long::longValue).sum()));
          for (final Outcome outcome : Outcome.values()) {
            row.append(String.format(" %,14d", outcomes.getOrDefault(outcome, 0L)));
          }
          text.append(row).append(System.lineSeparator());
        });
    return text.toString();
  }

  private String heading(final Outcome outcome) {
    return dryRun ? outcome.dryRunHeading : outcome.heading;
  }
}
