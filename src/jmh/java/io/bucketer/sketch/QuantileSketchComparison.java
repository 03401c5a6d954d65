package io.bucketer.sketch;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

/**
 * What DDSketch and KLL keep of the three shapes, without timing: serialized bytes, the
 * error of p50, p90, p95 and p99 against the exact nearest-rank quantiles (relative to the value,
 * and in rank), and whether merging 60 part sketches (an hour of minutes) gives the same bytes in
 * 20 shuffled orders and the bytes of the sketch of all the values. Prints a Markdown table
 * (docs/benchmarks.md); the timings are {@link QuantileSketchComparisonBenchmark}'s. How to run it:
 * docs/quantiles.md.
 */
public final class QuantileSketchComparison {

  private static final double[] QUANTILES = {0.5, 0.9, 0.95, 0.99};
  private static final int PARTS = 60;
  private static final int ORDERS = 20;
  private static final long SEED = 31;

  private QuantileSketchComparison() {}

  public static void main(final String[] args) {
    final Object[][] cases = {
      {SketchShapes.CONSTANT, 60}, {SketchShapes.CONSTANT, 3_600},
      {SketchShapes.TEMPERATURE, 60}, {SketchShapes.TEMPERATURE, 3_600},
      {SketchShapes.POWER, 1_000}, {SketchShapes.POWER, 100_000},
    };
    System.out.println(
        "| shape | readings | sketch | bytes | max relative error p50–p99 (one sketch; merged) |"
            + " max rank error p50–p99 (one; merged) | distinct bytes over "
            + ORDERS
            + " merge orders of "
            + PARTS
            + " parts | merged = sketch of all |");
    System.out.println("|---|---:|---|---:|---|---|---:|---|");
    for (final Object[] c : cases) {
      final SketchShapes shape = (SketchShapes) c[0];
      final int count = (Integer) c[1];
      final double[] values = shape.values(count, SEED);
      final double[] sorted = values.clone();
      Arrays.sort(sorted);
      for (final SketchCandidate candidate : SketchCandidate.values()) {
        final byte[] whole = candidate.sketch(values);
        final List<byte[]> parts = new ArrayList<>();
        for (int i = 0; i < PARTS; i++) {
          parts.add(
              candidate.sketch(
                  Arrays.copyOfRange(values, i * count / PARTS, (i + 1) * count / PARTS)));
        }
        final Random random = new Random(SEED);
        final Set<String> distinct = new HashSet<>();
        byte[] merged = null;
        for (int order = 0; order < ORDERS; order++) {
          Collections.shuffle(parts, random);
          merged = candidate.mergeAll(parts);
          distinct.add(Arrays.toString(merged));
        }
        System.out.printf(
            "| %s | %,d | %s | %,d | %s; %s | %s; %s | %d | %s |%n",
            shape.description(),
            count,
            candidate == SketchCandidate.DDSKETCH ? "DDSketch α=1 %" : "KLL k=200",
            whole.length,
            percent(maxRelativeError(candidate, whole, sorted)),
            percent(maxRelativeError(candidate, merged, sorted)),
            percent(maxRankError(candidate, whole, sorted)),
            percent(maxRankError(candidate, merged, sorted)),
            distinct.size(),
            Arrays.equals(merged, whole) ? "yes" : "no");
      }
    }
  }

  private static double maxRelativeError(
      final SketchCandidate candidate, final byte[] sketch, final double[] sorted) {
    double max = 0;
    for (final double q : QUANTILES) {
      final double exact = sorted[nearestRank(q, sorted.length) - 1];
      max = Math.max(max, Math.abs(candidate.quantile(sketch, q) - exact) / Math.abs(exact));
    }
    return max;
  }

  /**
   * How far, as a share of n, the answer's ranks lie from the nearest rank asked for: 0 when the
   * answer is a value the exact quantile shares a rank with (ties included).
   */
  private static double maxRankError(
      final SketchCandidate candidate, final byte[] sketch, final double[] sorted) {
    double max = 0;
    for (final double q : QUANTILES) {
      final double answer = candidate.quantile(sketch, q);
      final int rank = nearestRank(q, sorted.length);
      final int below = lowerBound(sorted, answer); // values < answer
      final int atOrBelow = upperBound(sorted, answer); // values <= answer
      final int lowest = below + 1;
      final int highest = Math.max(atOrBelow, lowest);
      final int off = rank < lowest ? lowest - rank : rank > highest ? rank - highest : 0;
      max = Math.max(max, (double) off / sorted.length);
    }
    return max;
  }

  private static int nearestRank(final double q, final int n) {
    final int rank =
        new BigDecimal(Double.toString(q))
            .multiply(BigDecimal.valueOf(n))
            .setScale(0, RoundingMode.CEILING)
            .intValueExact();
    return Math.max(rank, 1);
  }

  private static int lowerBound(final double[] sorted, final double value) {
    int low = 0;
    int high = sorted.length;
    while (low < high) {
      final int mid = (low + high) >>> 1;
      if (sorted[mid] < value) {
        low = mid + 1;
      } else {
        high = mid;
      }
    }
    return low;
  }

  private static int upperBound(final double[] sorted, final double value) {
    int low = 0;
    int high = sorted.length;
    while (low < high) {
      final int mid = (low + high) >>> 1;
      if (sorted[mid] <= value) {
        low = mid + 1;
      } else {
        high = mid;
      }
    }
    return low;
  }

  private static String percent(final double share) {
    return String.format("%.2f %%", share * 100);
  }
}
