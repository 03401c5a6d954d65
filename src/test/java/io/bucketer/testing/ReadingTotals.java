package io.bucketer.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.bucketer.buckets.Measurement;
import java.util.List;

/**
 * count, sum, min and max of readings, computed straight from them: the independent answer a query
 * over buckets must equal.
 */
public record ReadingTotals(long count, double sum, double min, double max) {

  public static ReadingTotals of(final List<Measurement> readings) {
    return new ReadingTotals(
        readings.size(),
        readings.stream().mapToDouble(Measurement::value).sum(),
        readings.stream().mapToDouble(Measurement::value).min().orElse(Double.NaN),
        readings.stream().mapToDouble(Measurement::value).max().orElse(Double.NaN));
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
}
