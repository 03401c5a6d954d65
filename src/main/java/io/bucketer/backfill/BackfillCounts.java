package io.bucketer.backfill;

import io.bucketer.buckets.Granularity;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.StringJoiner;

/**
 * What a backfill did, per target granularity: the series done, the source windows read, the
 * windows built, and their documents written or found already stored. Said as a progress line while
 * it runs and as a summary at the end. One thread counts: the backfill's.
 */
public final class BackfillCounts {

  /** One target's counts. */
  public static final class Target {
    private final Granularity target;
    private final Granularity source;
    private long series;
    private long sourceWindows;
    private long windows;
    private long written;
    private long alreadyStored;
    private long staleDeleted;

    Target(final Granularity target, final Granularity source) {
      this.target = target;
      this.source = source;
    }

    /** Series whose windows were all built. */
    public long series() {
      return series;
    }

    /** Windows of the source granularity read. */
    public long sourceWindows() {
      return sourceWindows;
    }

    /** Windows of the target built. */
    public long windows() {
      return windows;
    }

    /** Documents that created or replaced theirs (in a dry run: would be written). */
    public long written() {
      return written;
    }

    /** Documents already stored at their revision or a newer one: unchanged. */
    public long alreadyStored() {
      return alreadyStored;
    }

    void seriesDone() {
      series++;
    }

    void sourceWindow() {
      sourceWindows++;
    }

    void window() {
      windows++;
    }

    /** Stored documents beyond their window's new count, deleted by a repair. */
    public long staleDeleted() {
      return staleDeleted;
    }

    void documents(final long count, final long unchanged, final long stale) {
      written += count - unchanged;
      alreadyStored += unchanged;
      staleDeleted += stale;
    }
  }

  private final boolean dryRun;
  private final Map<Granularity, Target> targets = new LinkedHashMap<>();

  /**
   * @param dryRun nothing is written: documents are said "to write"
   */
  public BackfillCounts(final boolean dryRun) {
    this.dryRun = dryRun;
  }

  Target of(final Granularity target, final Granularity source) {
    return targets.computeIfAbsent(target, t -> new Target(t, source));
  }

  /** The counts of {@code target}, all zero when it was not backfilled. */
  public Target of(final Granularity target) {
    return targets.getOrDefault(target, new Target(target, target));
  }

  /**
   * {@code 15m from 1m: 12 series, 3,456 windows from 51,840 1m windows; 3,500 documents written, 0
   * already stored}.
   */
  String progressLine(final Target counts) {
    return String.format(
        "%s from %s: %,d series, %,d windows from %,d %s windows; %s",
        counts.target,
        counts.source,
        counts.series,
        counts.windows,
        counts.sourceWindows,
        counts.source,
        documents(counts));
  }

  /** One line for the whole backfill, after {@code took}. */
  public String summary(final Duration took) {
    final StringJoiner perTarget = new StringJoiner("; ");
    perTarget.setEmptyValue("no window to build");
    targets.values().forEach(t -> perTarget.add(t.target + " " + documents(t)));
    return String.format(
        "%s in %.1f s: %s",
        dryRun ? "dry run done, nothing written," : "done", took.toMillis() / 1000.0, perTarget);
  }

  private String documents(final Target counts) {
    final String stale =
        counts.staleDeleted == 0
            ? ""
            : String.format(
                ", %,d stale documents %s", counts.staleDeleted, dryRun ? "to delete" : "deleted");
    return dryRun
        ? String.format("%,d documents to write%s", counts.written, stale)
        : String.format(
            "%,d documents written, %,d already stored%s",
            counts.written, counts.alreadyStored, stale);
  }
}
