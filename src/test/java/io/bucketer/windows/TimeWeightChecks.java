package io.bucketer.windows;

import io.bucketer.buckets.Measurement;
import io.bucketer.buckets.TimeWeighted;
import io.bucketer.buckets.TimeWeighting;
import io.bucketer.testing.TimeWeightAssertions;
import io.bucketer.testing.TimeWeightOracle;
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
    TimeWeightAssertions.assertPartMatches(
        part, TimeWeightOracle.of(sorted, start, end, how), what);
  }
}
