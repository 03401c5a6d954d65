package io.bucketer.testing;

import io.bucketer.buckets.Measurement;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.List;

/** The exact quantiles that the sketch tests check answers against. */
public final class ExactQuantiles {

  private ExactQuantiles() {}

  /** The exact nearest-rank quantile: the smallest value whose 1-based rank is at least q·n. */
  public static double nearestRank(final double[] sorted, final double q) {
    final int rank =
        new BigDecimal(Double.toString(q))
            .multiply(BigDecimal.valueOf(sorted.length))
            .setScale(0, RoundingMode.CEILING)
            .intValueExact();
    return sorted[Math.max(rank, 1) - 1];
  }

  /** The values of the readings in {@code [from, to)}, sorted. */
  public static double[] sortedValues(
      final List<Measurement> readings, final long from, final long to) {
    return readings.stream()
        .filter(m -> m.timestamp() >= from && m.timestamp() < to)
        .mapToDouble(Measurement::value)
        .sorted()
        .toArray();
  }
}
