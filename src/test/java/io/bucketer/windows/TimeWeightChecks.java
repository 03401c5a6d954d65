package io.bucketer.windows;

import static org.assertj.core.api.Assertions.assertThat;

import io.bucketer.buckets.Measurement;
import io.bucketer.buckets.TimeWeighted;
import io.bucketer.buckets.TimeWeighting;
import io.bucketer.testing.TimeWeightOracle;
import java.math.BigDecimal;
import java.math.MathContext;
import java.util.List;

/** Checks of the lifecycle's time-weighted parts against {@link TimeWeightOracle}. */
final class TimeWeightChecks {

  private TimeWeightChecks() {}

  /** The last reading before {@code start}, if its hold (the max gap at most) reaches it. */
  static Measurement carryIn(
      final List<Measurement> sorted, final long start, final TimeWeighting how) {
    Measurement last = null;
    for (final Measurement reading : sorted) {
      if (reading.timestamp() < start) {
        last = reading;
      }
    }
    return last != null && last.timestamp() + how.maxGapMillis() > start ? last : null;
  }

  /**
   * Asserts that {@code part} is the part of {@code [start, end)} of the readings {@code sorted}
   * (in time order, one per time): covered time, gaps, longest gap and the edges' gaps exactly, the
   * integral and average to a relative 1e-9.
   */
  static void assertMatches(
      final TimeWeighted part,
      final List<Measurement> sorted,
      final long start,
      final long end,
      final TimeWeighting how,
      final String what) {
    final TimeWeightOracle expected = TimeWeightOracle.of(sorted, start, end, how);
    assertThat(part).as(what).isNotNull();
    assertThat(part.coveredMillis()).as(what).isEqualTo(expected.covered());
    assertThat(part.gaps()).as(what).isEqualTo(expected.gaps());
    assertThat(part.longestGapMillis()).as(what).isEqualTo(expected.longest());
    assertThat(part.gapAtStartMillis()).as(what).isEqualTo(expected.gapAtStart());
    assertThat(part.gapAtEndMillis()).as(what).isEqualTo(expected.gapAtEnd());
    assertRelative(part.integral(), expected.integral(), what + " integral");
    if (expected.covered() == 0) {
      assertThat(part.twa()).as(what).isEmpty();
    } else {
      assertRelative(
          part.twa().orElseThrow(),
          expected
              .integral()
              .divide(BigDecimal.valueOf(expected.covered()), MathContext.DECIMAL128),
          what + " twa");
    }
  }

  private static void assertRelative(
      final double actual, final BigDecimal expected, final String what) {
    final double error = Math.abs(actual - expected.doubleValue());
    assertThat(error)
        .as("%s: %s against %s", what, actual, expected)
        .isLessThanOrEqualTo(1e-9 * Math.max(1e-300, Math.abs(expected.doubleValue())) + 1e-12);
  }
}
