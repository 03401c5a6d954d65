package io.bucketer.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.bucketer.buckets.Measurement;
import io.bucketer.query.SeriesQueries;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * count, sum, min, max, the population standard deviation and the first and last reading, computed
 * straight from the readings (two passes, a stable sort): the independent answer a query over
 * buckets must equal.
 */
public record ReadingTotals(
    long count,
    double sum,
    double min,
    double max,
    double standardDeviation,
    Measurement first,
    Measurement last) {

  /** The totals of {@code readings}, given in arrival order. */
  public static ReadingTotals of(final List<Measurement> readings) {
    final List<Measurement> byTime = new ArrayList<>(readings);
    byTime.sort(Comparator.comparingLong(Measurement::timestamp));
    final double sum = readings.stream().mapToDouble(Measurement::value).sum();
    final double mean = sum / readings.size();
    final double squares =
        readings.stream().mapToDouble(m -> (m.value() - mean) * (m.value() - mean)).sum();
    return new ReadingTotals(
        readings.size(),
        sum,
        readings.stream().mapToDouble(Measurement::value).min().orElse(Double.NaN),
        readings.stream().mapToDouble(Measurement::value).max().orElse(Double.NaN),
        Math.sqrt(squares / readings.size()),
        byTime.isEmpty() ? null : byTime.get(0),
        byTime.isEmpty() ? null : byTime.get(byTime.size() - 1));
  }

  /**
   * Asserts that an answer's figures equal these: exactly, but for the sum, which depends on the
   * order of additions; min and max only when there are readings.
   */
  public void assertAnswered(
      final String what, final long count, final double sum, final double min, final double max) {
    assertThat(count).as("count of %s", what).isEqualTo(this.count);
    if (this.count == 0) {
      return;
    }
    assertThat(sum).as("sum of %s", what).isCloseTo(this.sum, within(1e-6));
    assertThat(min).as("min of %s", what).isEqualTo(this.min);
    assertThat(max).as("max of %s", what).isEqualTo(this.max);
  }

  /** As above, and the spread and the first and last reading too. */
  public void assertAnswered(final String what, final SeriesQueries.Statistics answer) {
    assertAnswered(what, answer.count(), answer.sum(), answer.min(), answer.max());
    if (count == 0) {
      return;
    }
    assertThat(answer.standardDeviation())
        .as("stddev of %s", what)
        .isCloseTo(standardDeviation, within(1e-9 * (1 + standardDeviation)));
    assertThat(answer.first()).as("first of %s", what).contains(first);
    assertThat(answer.last()).as("last of %s", what).contains(last);
  }
}
