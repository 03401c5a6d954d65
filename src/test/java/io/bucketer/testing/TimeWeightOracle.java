package io.bucketer.testing;

import io.bucketer.buckets.Interpolation;
import io.bucketer.buckets.Measurement;
import io.bucketer.buckets.TimeWeighting;
import java.math.BigDecimal;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.List;

/**
 * The time-weighted part of a stretch {@code [from, to)} from its definition, over all of a series'
 * readings sorted by time, in exact sums: each reading holds until the next reading or for the max
 * gap {@code g}, whichever is first, with its own value (step), or, with linear interpolation and a
 * next reading within the max gap, the line towards it (integrated by its antiderivative, not by
 * its ends' mean as {@code TimeWeighted} does); what no reading holds is a gap. Independent of
 * {@code TimeWeighted}, so that tests can check it.
 *
 * @param covered held time in the stretch
 * @param integral the held values times their held time, value·ms
 * @param gaps maximal unheld stretches, cut at the stretch's edges
 * @param longest the longest of them
 * @param gapAtStart the unheld time from {@code from} to the first held time
 * @param gapAtEnd the unheld time from the last held time to {@code to}
 */
public record TimeWeightOracle(
    long covered, BigDecimal integral, int gaps, long longest, long gapAtStart, long gapAtEnd) {

  /** With step interpolation and a max gap of {@code g}. */
  public static TimeWeightOracle of(
      final List<Measurement> all, final long from, final long to, final long g) {
    return of(all, from, to, new TimeWeighting(g, Interpolation.STEP));
  }

  public static TimeWeightOracle of(
      final List<Measurement> all, final long from, final long to, final TimeWeighting how) {
    final long g = how.maxGapMillis();
    final List<long[]> covered = new ArrayList<>();
    BigDecimal integral = BigDecimal.ZERO;
    for (int i = 0; i < all.size(); i++) {
      final Measurement reading = all.get(i);
      final long t = reading.timestamp();
      final Measurement next = i + 1 < all.size() ? all.get(i + 1) : null;
      final boolean nextWithinGap = next != null && next.timestamp() - t <= g;
      final long holdEnd = nextWithinGap ? next.timestamp() : t + g;
      final long a = Math.max(t, from);
      final long b = Math.min(holdEnd, to);
      if (b > a) {
        covered.add(new long[] {a, b});
        integral =
            integral.add(
                how.interpolation() == Interpolation.LINEAR && nextWithinGap
                    ? lineIntegral(reading, next, a, b)
                    : new BigDecimal(reading.value()).multiply(BigDecimal.valueOf(b - a)));
      }
    }
    final List<long[]> gaps = new ArrayList<>();
    long cursor = from;
    for (final long[] interval : covered) {
      if (interval[0] > cursor) {
        gaps.add(new long[] {cursor, interval[0]});
      }
      cursor = Math.max(cursor, interval[1]);
    }
    if (cursor < to) {
      gaps.add(new long[] {cursor, to});
    }
    return new TimeWeightOracle(
        covered.stream().mapToLong(c -> c[1] - c[0]).sum(),
        integral,
        gaps.size(),
        gaps.stream().mapToLong(c -> c[1] - c[0]).max().orElse(0),
        !gaps.isEmpty() && gaps.get(0)[0] == from ? gaps.get(0)[1] - from : 0,
        !gaps.isEmpty() && gaps.get(gaps.size() - 1)[1] == to
            ? to - gaps.get(gaps.size() - 1)[0]
            : 0);
  }

  /**
   * The integral over {@code [a, b]} of the line through {@code p} and {@code q}: {@code v_p (b -
   * a) + slope ((b - t_p)² - (a - t_p)²) / 2}.
   */
  private static BigDecimal lineIntegral(
      final Measurement p, final Measurement q, final long a, final long b) {
    final BigDecimal slope =
        new BigDecimal(q.value())
            .subtract(new BigDecimal(p.value()))
            .divide(BigDecimal.valueOf(q.timestamp() - p.timestamp()), MathContext.DECIMAL128);
    final BigDecimal late = BigDecimal.valueOf(b - p.timestamp());
    final BigDecimal early = BigDecimal.valueOf(a - p.timestamp());
    return new BigDecimal(p.value())
        .multiply(BigDecimal.valueOf(b - a))
        .add(
            slope
                .multiply(late.multiply(late).subtract(early.multiply(early)))
                .divide(BigDecimal.valueOf(2), MathContext.DECIMAL128));
  }
}
