package io.bucketer.buckets;

/**
 * How a series' readings stand for the time between them: each reading stands for the time until
 * the next one, but for at most {@code maxGapMillis}; longer silences are gaps, uncovered time that
 * no value is made up for. The {@link Interpolation} says what the values are over that time.
 */
public record TimeWeighting(long maxGapMillis, Interpolation interpolation) {

  public TimeWeighting {
    if (maxGapMillis <= 0) {
      throw new IllegalArgumentException("max gap must be positive: " + maxGapMillis + " ms");
    }
    if (interpolation == null) {
      throw new IllegalArgumentException("a time weighting needs an interpolation");
    }
  }

  /** Step interpolation, bounded by {@code maxGapMillis}. */
  public TimeWeighting(final long maxGapMillis) {
    this(maxGapMillis, Interpolation.STEP);
  }

  /**
   * How long the reading at {@code timestamp} stands for, when the next reading is at {@code next}
   * ({@link Long#MAX_VALUE} for none): until then, at most the max gap.
   */
  long holdMillis(final long timestamp, final long next) {
    return next == Long.MAX_VALUE || next - timestamp > maxGapMillis
        ? maxGapMillis
        : next - timestamp;
  }
}
