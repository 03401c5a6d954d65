package io.bucketer.buckets;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * One bucket document of a closed window: a window of one series at one granularity whose end plus
 * the grace period has passed.
 *
 * <p>Like MongoDB's own time-series buckets, a window whose readings do not fit one bucket is
 * written as several: bucket {@code seq} of {@code buckets}, each with the computed fields of its
 * own measurements ({@link #stats}) and the totals of the whole window ({@link #window}), so "the
 * window's average" stays a one-document read. A window closed again after a late reading carries a
 * higher {@code revision}; a store keeps the highest.
 *
 * <p>A bucket holds either its window's raw measurements or, for a granularity rolled up from a
 * finer one that keeps them, the {@link WindowSummary summaries} of the finer windows it contains:
 * an hour at any reading rate is then one document of sixty minutes' computed fields, and each
 * reading is stored once, in its finest window.
 *
 * <p>Its {@link WindowExtras extras}, the window's time-weighted part among them, are the whole
 * window's, on each of its buckets; null when unknown (a bucket written before they were kept).
 *
 * <p>Measurements are sorted by time; readings with equal times keep their arrival order. Summaries
 * are sorted by start.
 */
public record ClosedBucket(
    SeriesKey series,
    Granularity granularity,
    long windowStart,
    BucketStats stats,
    List<Measurement> measurements,
    List<WindowSummary> summaries,
    BucketStats window,
    int seq,
    int buckets,
    int revision,
    WindowExtras extras) {

  public ClosedBucket {
    measurements = List.copyOf(measurements);
    summaries = List.copyOf(summaries);
    if (!measurements.isEmpty() && !summaries.isEmpty()) {
      throw new IllegalArgumentException("a bucket holds measurements or summaries, not both");
    }
    final long held =
        summaries.isEmpty()
            ? measurements.size()
            : summaries.stream().mapToLong(summary -> summary.stats().count()).sum();
    if (stats.count() != held) {
      throw new IllegalArgumentException(
          "bucket count "
              + stats.count()
              + " != "
              + held
              + (summaries.isEmpty() ? " measurements" : " readings in its summaries"));
    }
    if (seq < 0 || seq >= buckets || revision < 0) {
      throw new IllegalArgumentException(
          "bucket " + seq + " of " + buckets + ", revision " + revision + " is not a bucket");
    }
  }

  /** A bucket without extras: one written before they were kept. */
  public ClosedBucket(
      final SeriesKey series,
      final Granularity granularity,
      final long windowStart,
      final BucketStats stats,
      final List<Measurement> measurements,
      final List<WindowSummary> summaries,
      final BucketStats window,
      final int seq,
      final int buckets,
      final int revision) {
    this(
        series,
        granularity,
        windowStart,
        stats,
        measurements,
        summaries,
        window,
        seq,
        buckets,
        revision,
        null);
  }

  /** A whole window in a single bucket, first revision. */
  public ClosedBucket(
      final SeriesKey series,
      final Granularity granularity,
      final long windowStart,
      final BucketStats stats,
      final List<Measurement> measurements) {
    this(series, granularity, windowStart, stats, measurements, List.of(), stats, 0, 1, 0);
  }

  /**
   * The buckets of a whole window that keeps its measurements, in time order: runs of at most
   * {@code maxMeasurements}, each with its own computed fields and the window's totals.
   */
  public static List<ClosedBucket> ofWindow(
      final SeriesKey series,
      final Granularity granularity,
      final long windowStart,
      final BucketStats window,
      final List<Measurement> sortedMeasurements,
      final int revision,
      final int maxMeasurements) {
    return ofWindow(
        series,
        granularity,
        windowStart,
        window,
        sortedMeasurements,
        revision,
        maxMeasurements,
        null);
  }

  /**
   * As {@link #ofWindow(SeriesKey, Granularity, long, BucketStats, List, int, int)}, with extras.
   */
  public static List<ClosedBucket> ofWindow(
      final SeriesKey series,
      final Granularity granularity,
      final long windowStart,
      final BucketStats window,
      final List<Measurement> sortedMeasurements,
      final int revision,
      final int maxMeasurements,
      final WindowExtras extras) {
    checkCount(window, sortedMeasurements.size(), series, granularity, windowStart);
    return split(
        sortedMeasurements,
        maxMeasurements,
        part -> BucketStats.ofAll(part, window.utcOffsetMinutes()),
        window,
        (part, stats, seq, buckets) ->
            new ClosedBucket(
                series,
                granularity,
                windowStart,
                stats,
                part,
                List.of(),
                window,
                seq,
                buckets,
                revision,
                extras));
  }

  /**
   * The buckets of a whole window that holds the summaries of its finer windows, in start order:
   * runs of at most {@code maxSummaries}, each with the computed fields of its part and the
   * window's totals.
   */
  public static List<ClosedBucket> ofSummaries(
      final SeriesKey series,
      final Granularity granularity,
      final long windowStart,
      final BucketStats window,
      final List<WindowSummary> summaries,
      final int revision,
      final int maxSummaries) {
    return ofSummaries(
        series, granularity, windowStart, window, summaries, revision, maxSummaries, null);
  }

  /**
   * As {@link #ofSummaries(SeriesKey, Granularity, long, BucketStats, List, int, int)}, with
   * extras.
   */
  public static List<ClosedBucket> ofSummaries(
      final SeriesKey series,
      final Granularity granularity,
      final long windowStart,
      final BucketStats window,
      final List<WindowSummary> summaries,
      final int revision,
      final int maxSummaries,
      final WindowExtras extras) {
    checkCount(
        window,
        summaries.stream().mapToLong(summary -> summary.stats().count()).sum(),
        series,
        granularity,
        windowStart);
    return split(
        summaries,
        maxSummaries,
        part -> part.stream().map(WindowSummary::stats).reduce(BucketStats::merge).orElseThrow(),
        window,
        (part, stats, seq, buckets) ->
            new ClosedBucket(
                series,
                granularity,
                windowStart,
                stats,
                List.of(),
                part,
                window,
                seq,
                buckets,
                revision,
                extras));
  }

  private interface BucketOfPart<T> {
    ClosedBucket of(List<T> part, BucketStats stats, int seq, int buckets);
  }

  private static <T> List<ClosedBucket> split(
      final List<T> entries,
      final int maxPerBucket,
      final Function<List<T>, BucketStats> statsOfPart,
      final BucketStats window,
      final BucketOfPart<T> bucketOfPart) {
    final int total = entries.size();
    final int buckets = Math.max(1, (total + maxPerBucket - 1) / maxPerBucket);
    final List<ClosedBucket> result = new ArrayList<>(buckets);
    for (int seq = 0; seq < buckets; seq++) {
      final List<T> part =
          entries.subList(seq * maxPerBucket, Math.min(total, (seq + 1) * maxPerBucket));
      result.add(
          bucketOfPart.of(part, buckets == 1 ? window : statsOfPart.apply(part), seq, buckets));
    }
    return result;
  }

  private static void checkCount(
      final BucketStats window,
      final long held,
      final SeriesKey series,
      final Granularity granularity,
      final long windowStart) {
    if (window.count() != held) {
      throw new IllegalStateException(
          "window "
              + series
              + " "
              + granularity
              + "@"
              + windowStart
              + " counts "
              + window.count()
              + " readings but holds "
              + held);
    }
  }

  /** The granularity of the finer windows this bucket summarises; empty when it holds readings. */
  public Optional<Granularity> summaryGranularity() {
    return summaries.isEmpty() ? Optional.empty() : Optional.of(summaries.get(0).granularity());
  }

  /** This bucket as a later close of its window with the same readings writes it. */
  public ClosedBucket atRevision(final int newRevision) {
    return new ClosedBucket(
        series,
        granularity,
        windowStart,
        stats,
        measurements,
        summaries,
        window,
        seq,
        buckets,
        newRevision,
        extras);
  }

  /** This bucket with what its documents say of its window beyond the computed fields. */
  public ClosedBucket withExtras(final WindowExtras newExtras) {
    return new ClosedBucket(
        series,
        granularity,
        windowStart,
        stats,
        measurements,
        summaries,
        window,
        seq,
        buckets,
        revision,
        newExtras);
  }

  public long windowEnd() {
    return granularity.windowEnd(windowStart);
  }
}
