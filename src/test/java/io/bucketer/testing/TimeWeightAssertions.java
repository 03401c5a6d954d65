package io.bucketer.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.bucketer.buckets.TimeWeighted;
import java.math.BigDecimal;
import java.math.MathContext;

/**
 * Checks of a time-weighted part (a window's, or a range's as the query side answers it) against
 * {@link TimeWeightOracle}.
 */
public final class TimeWeightAssertions {

  private TimeWeightAssertions() {}

  /**
   * Asserts that {@code part} is what {@code expected} computed: covered time, gaps, longest gap
   * and the edges' gaps exactly, the integral and average to a relative 1e-9.
   */
  public static void assertPartMatches(
      final TimeWeighted part, final TimeWeightOracle expected, final String what) {
    assertThat(part).as(what).isNotNull();
    assertThat(part.coveredMillis()).as(what + " covered").isEqualTo(expected.covered());
    assertThat(part.gaps()).as(what + " gaps").isEqualTo(expected.gaps());
    assertThat(part.longestGapMillis()).as(what + " longest").isEqualTo(expected.longest());
    assertThat(part.gapAtStartMillis()).as(what + " gap at start").isEqualTo(expected.gapAtStart());
    assertThat(part.gapAtEndMillis()).as(what + " gap at end").isEqualTo(expected.gapAtEnd());
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
        .isLessThanOrEqualTo(1e-9 * Math.abs(expected.doubleValue()) + 1e-12);
  }
}
