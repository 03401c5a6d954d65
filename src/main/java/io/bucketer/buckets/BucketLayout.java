package io.bucketer.buckets;

import java.util.Optional;
import java.util.Set;

/**
 * What the bucket documents of a window hold and how they are cut: raw measurements, for the
 * granularities in {@code keepMeasurements} and always for the finest, or the summaries of the
 * finer windows a granularity is rolled up from; at most so many of either per document.
 *
 * <p>A granularity that no finer one divides (90s beside 1m, say) is fed by the readings themselves
 * and has no finer windows to summarise, so it keeps its measurements too.
 */
public record BucketLayout(
    int maxMeasurementsPerBucket, int maxSummariesPerBucket, Set<Granularity> keepMeasurements) {

  public BucketLayout {
    keepMeasurements = Set.copyOf(keepMeasurements);
    if (maxMeasurementsPerBucket < 1 || maxSummariesPerBucket < 1) {
      throw new IllegalArgumentException("a bucket must hold at least one entry");
    }
  }

  /**
   * The default layout: only the finest granularity keeps measurements; documents of the size cap.
   */
  public static BucketLayout finestKeepsMeasurements(final int maxMeasurementsPerBucket) {
    return new BucketLayout(
        maxMeasurementsPerBucket,
        BucketLimits.summariesPerBucket(BucketLimits.DEFAULT_MAX_BYTES),
        Set.of());
  }

  /**
   * The granularity whose windows' summaries the buckets of {@code granularity} hold, or empty when
   * they hold measurements.
   */
  public Optional<Granularity> summarised(final Granularity granularity, final RollupPlan plan) {
    if (keepMeasurements.contains(granularity)) {
      return Optional.empty();
    }
    return plan.sourceOf(granularity);
  }
}
