package io.bucketer.testing;

import io.bucketer.buckets.Measurement;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

/**
 * The time-weighted part of a stretch {@code [from, to)} from its definition, over all of a series'
 * readings sorted by time, in exact sums: each reading holds its value until the next reading or
 * for the max gap {@code g}, whichever is first; what no reading holds is a gap. Independent of
 * {@code TimeWeighted}, so that tests can check it.
 *
 * @param covered held time in the stretch
 * @param integral the held values times their held time, value·ms
 * @param gaps maximal unheld stretches, cut at the stretch's edges
 * @param longest the longest of them
 * @param gapAtStart the unheld time from {@code from} to the first held time
 * @param gapAtEnd the unheld time from the last held time to {@code to}
 */
public record StepOracle(
    long covered, BigDecimal integral, int gaps, long longest, long gapAtStart, long gapAtEnd) {

  public static StepOracle of(
      final List<Measurement> all, final long from, final long to, final long g) {
    final List<long[]> covered = new ArrayList<>();
    BigDecimal integral = BigDecimal.ZERO;
    for (int i = 0; i < all.size(); i++) {
      final long t = all.get(i).timestamp();
      final long holdEnd = i + 1 < all.size() ? Math.min(all.get(i + 1).timestamp(), t + g) : t + g;
      final long a = Math.max(t, from);
      final long b = Math.min(holdEnd, to);
      if (b > a) {
        covered.add(new long[] {a, b});
        integral =
            integral.add(new BigDecimal(all.get(i).value()).multiply(BigDecimal.valueOf(b - a)));
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
    return new StepOracle(
        covered.stream().mapToLong(c -> c[1] - c[0]).sum(),
        integral,
        gaps.size(),
        gaps.stream().mapToLong(c -> c[1] - c[0]).max().orElse(0),
        !gaps.isEmpty() && gaps.get(0)[0] == from ? gaps.get(0)[1] - from : 0,
        !gaps.isEmpty() && gaps.get(gaps.size() - 1)[1] == to
            ? to - gaps.get(gaps.size() - 1)[0]
            : 0);
  }
}
