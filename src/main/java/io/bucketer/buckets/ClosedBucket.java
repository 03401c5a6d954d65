package io.bucketer.buckets;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.ToIntFunction;

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
    // Each measurement weighs its byte bound, so that a window's sketch too large for the document
    // overhead leaves fewer measurements per document, and no more documents than the count cap
    // needs otherwise.
    final int perMeasurement = BucketLimits.MAX_BSON_BYTES_PER_MEASUREMENT;
    return split(
        sortedMeasurements,
        measurement -> perMeasurement,
        Math.max(
            perMeasurement, (long) maxMeasurements * perMeasurement - sketchOverflowBytes(extras)),
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
   * runs of at most {@code maxSummaries}, fewer when the summaries carry sketches (each weighs its
   * byte bound and its sketch's bytes against {@code maxSummaries} bounds), each with the computed
   * fields of its part and the window's totals.
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
    // Summaries are packed by their byte bounds, a summary's sketch included: the sketches of a
    // wide-ranging signal's minutes can each be kilobytes, where a summary without one is not.
    final int perSummary = BucketLimits.MAX_BSON_BYTES_PER_SUMMARY;
    return split(
        summaries,
        summary ->
            perSummary
                + (summary.sketch() == null
                    ? 0
                    : BucketLimits.SKETCH_FIELD_BYTES + summary.sketchBytes()),
        Math.max(perSummary, (long) maxSummaries * perSummary - sketchOverflowBytes(extras)),
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

  /**
   * Splits {@code entries} into runs whose weights add up to at most {@code budget}, each run
   * holding at least one entry.
   */
  private static <T> List<ClosedBucket> split(
      final List<T> entries,
      final ToIntFunction<T> weight,
      final long budget,
      final Function<List<T>, BucketStats> statsOfPart,
      final BucketStats window,
      final BucketOfPart<T> bucketOfPart) {
    final List<Integer> cuts = new ArrayList<>();
    cuts.add(0);
    long used = 0;
    for (int i = 0; i < entries.size(); i++) {
      final int entryWeight = weight.applyAsInt(entries.get(i));
      if (i > cuts.get(cuts.size() - 1) && used + entryWeight > budget) {
        cuts.add(i);
        used = 0;
      }
      used += entryWeight;
    }
    cuts.add(entries.size());
    final int buckets = Math.max(1, cuts.size() - 1);
    final List<ClosedBucket> result = new ArrayList<>(buckets);
    for (int seq = 0; seq < buckets; seq++) {
      final List<T> part = entries.subList(cuts.get(seq), cuts.get(seq + 1));
      result.add(
          bucketOfPart.of(part, buckets == 1 ? window : statsOfPart.apply(part), seq, buckets));
    }
    return result;
  }

  /**
   * What a window's own sketch, repeated on each of its documents, takes from the room of its
   * measurements or summaries: the bytes beyond the share of the document overhead kept for it.
   */
  private static long sketchOverflowBytes(final WindowExtras extras) {
    return extras == null
        ? 0
        : Math.max(0, extras.sketchBytes() - BucketLimits.SKETCH_BYTES_IN_OVERHEAD);
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
