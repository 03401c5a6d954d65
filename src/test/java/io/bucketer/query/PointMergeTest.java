package io.bucketer.query;

import static org.assertj.core.api.Assertions.assertThat;

import io.bucketer.buckets.BucketStats;
import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.Interpolation;
import io.bucketer.buckets.Measurement;
import io.bucketer.buckets.TimeWeighted;
import io.bucketer.buckets.TimeWeighting;
import io.bucketer.sketch.ValueSketch;
import java.time.Instant;
import java.util.ArrayList;
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

  @Test
  void shouldBridgeTheWindowsWithoutReadingsWithTheReadingsAroundThem() {
    // readings at 11:58:30 (before the points), then 12:00:10, 12:02:50 and 12:05:30; none in
    // the minutes 12:01, 12:03 and 12:04; every reading holds for 2 minutes at most
    final List<Measurement> all =
        List.of(
            new Measurement(START - 90_000, 4.0),
            new Measurement(START + 10_000, 1.0),
            new Measurement(START + 170_000, 7.0),
            new Measurement(START + 330_000, 3.0));
    for (final Interpolation interpolation : Interpolation.values()) {
      final TimeWeighting how = new TimeWeighting(120_000, interpolation);
      final List<WindowTotals> windows = new ArrayList<>();
      for (final int index : new int[] {-2, 0, 2, 5}) {
        windows.add(weighed(all, index, how));
      }
      final Resolution threeMinutes = new Resolution(MINUTE, 3, START, 2, false);

      final List<WindowTotals> points = PointMerge.of(windows.subList(1, 4), threeMinutes);
      final List<WindowTotals> withTheOneBefore = PointMerge.of(windows, threeMinutes);

      // the first point starts with its window: nothing before it is needed
      assertThat(points.get(0).timeWeighted())
          .as("%s", interpolation)
          .isEqualTo(
              TimeWeighted.ofReadings(
                  START, START + 180_000, all.get(0), all.subList(1, 3), all.get(3), how));
      // 12:03 and 12:04 are bridged by 12:02:50's reading, held into 12:04:50
      assertThat(points.get(1).timeWeighted().coveredMillis()).isEqualTo(110_000 + 30_000);
      assertThat(points.get(1).timeWeighted())
          .isEqualTo(
              TimeWeighted.ofReadings(
                  START + 180_000, START + 360_000, all.get(2), all.subList(3, 4), null, how));
      // the point of 11:57 to 12:00 starts with a window before it that was not read
      assertThat(withTheOneBefore.get(0).timeWeighted()).isNull();
    }
  }

  /** The minute {@code index} of {@code all}, with its part as the stream stores it. */
  private static WindowTotals weighed(
      final List<Measurement> all, final int index, final TimeWeighting how) {
    final long start = START + index * 60_000L;
    final long end = start + 60_000;
    final List<Measurement> inside =
        all.stream().filter(r -> r.timestamp() >= start && r.timestamp() < end).toList();
    Measurement before = null;
    Measurement after = null;
    for (final Measurement reading : all) {
      if (reading.timestamp() < start) {
        before = reading;
      } else if (reading.timestamp() >= end && after == null) {
        after = reading;
      }
    }
    final Measurement carryIn =
        before != null && before.timestamp() + how.maxGapMillis() > start ? before : null;
    return new WindowTotals(
        MINUTE,
        start,
        BucketStats.ofAll(inside, null),
        false,
        TimeWeighted.ofReadings(start, end, carryIn, inside, after, how),
        how,
        null);
  }
}
