package io.bucketer.query;

import static org.assertj.core.api.Assertions.assertThat;

import io.bucketer.buckets.BucketStats;
import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.Measurement;
import io.bucketer.buckets.TimeWeighted;
import io.bucketer.sketch.ValueSketch;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A chart point's time-weighted part: its windows' parts added up, or unknown; its quantile sketch:
 * its windows' sketches merged, or unknown.
 */
class PointMergeTest {

  private static final Granularity MINUTE = Granularity.parse("1m");
  private static final Granularity THREE_MINUTES = Granularity.parse("3m");
  private static final long START = Instant.parse("2026-11-22T12:00:00Z").toEpochMilli();

  private static WindowTotals minute(final int index, final TimeWeighted part) {
    final long start = START + index * 60_000L;
    return new WindowTotals(
        MINUTE,
        start,
        BucketStats.ofAll(List.of(new Measurement(start + 5_000, index)), null),
        false,
        part);
  }

  /**
   * A minute of readings {@code index}, {@code index + 10} and {@code index + 20}, sketched at α.
   */
  private static WindowTotals sketched(final int index, final double alpha) {
    final long start = START + index * 60_000L;
    final List<Measurement> readings =
        List.of(
            new Measurement(start + 1_000, index),
            new Measurement(start + 2_000, index + 10),
            new Measurement(start + 3_000, index + 20));
    return new WindowTotals(
        MINUTE,
        start,
        BucketStats.ofAll(readings, null),
        false,
        null,
        null,
        ValueSketch.of(readings, Measurement::value, alpha));
  }

  @Test
  void shouldMergeTheSketchesOfItsWindowsAndKnowNoneWhenOneLacksItsOwnOrHasAnotherAccuracy() {
    final WindowTotals whole =
        PointMerge.merged(
            THREE_MINUTES, START, List.of(sketched(0, 0.01), sketched(1, 0.01), sketched(2, 0.01)));
    final WindowTotals withoutTheMiddle =
        PointMerge.merged(THREE_MINUTES, START, List.of(sketched(0, 0.01), sketched(2, 0.01)));
    final WindowTotals withAnOlderDocument =
        PointMerge.merged(
            THREE_MINUTES, START, List.of(sketched(0, 0.01), minute(1, null), sketched(2, 0.01)));
    final WindowTotals ofTwoAccuracies =
        PointMerge.merged(THREE_MINUTES, START, List.of(sketched(0, 0.01), sketched(1, 0.02)));

    assertThat(whole.sketch())
        .isEqualTo(ValueSketch.of(new double[] {0, 10, 20, 1, 11, 21, 2, 12, 22}, 0.01));
    assertThat(whole.sketch().count()).isEqualTo(whole.count());
    // a window without readings adds nothing to the values
    assertThat(withoutTheMiddle.sketch())
        .isEqualTo(ValueSketch.of(new double[] {0, 10, 20, 2, 12, 22}, 0.01));
    assertThat(withAnOlderDocument.sketch()).isNull();
    assertThat(ofTwoAccuracies.sketch()).isNull();
  }

  @Test
  void shouldAddThePartsOfEveryWindowOfThePointAndKnowNoneWhenOneIsMissing() {
    final TimeWeighted a = new TimeWeighted(55_000, 0, 1, 5_000, 5_000, 0);
    final TimeWeighted b = new TimeWeighted(60_000, 60_000, 0, 0, 0, 0);
    final TimeWeighted c = new TimeWeighted(20_000, 40_000, 1, 40_000, 0, 40_000);

    final WindowTotals whole =
        PointMerge.merged(THREE_MINUTES, START, List.of(minute(0, a), minute(1, b), minute(2, c)));
    final WindowTotals withoutTheMiddle =
        PointMerge.merged(THREE_MINUTES, START, List.of(minute(0, a), minute(2, c)));
    final WindowTotals withAnOlderDocument =
        PointMerge.merged(
            THREE_MINUTES, START, List.of(minute(0, a), minute(1, null), minute(2, c)));

    assertThat(whole.timeWeighted()).isEqualTo(a.followedBy(b).followedBy(c));
    assertThat(whole.timeWeighted().coveredMillis()).isEqualTo(135_000);
    // a window without readings would need the bridge over it: unknown
    assertThat(withoutTheMiddle.timeWeighted()).isNull();
    assertThat(withAnOlderDocument.timeWeighted()).isNull();
  }
}
