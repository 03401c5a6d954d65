package io.bucketer.buckets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The time-weighted part of a stretch: its definitions on small cases, and its merge algebra. */
class TimeWeightedTest {

  private static final long S = 1_700_000_040_000L;
  private static final long MINUTE = 60_000;
  private static final TimeWeighting FIVE_MINUTES = new TimeWeighting(300_000);

  private static Measurement at(final long offset, final double value) {
    return new Measurement(S + offset, value);
  }

  @Test
  void shouldHoldEachValueUntilTheNextReadingAndTheLastToTheWindowsEnd() {
    final TimeWeighted part =
        TimeWeighted.ofReadings(
            S, S + MINUTE, null, List.of(at(0, 1.0), at(10_000, 3.0)), null, FIVE_MINUTES);

    assertThat(part).isEqualTo(new TimeWeighted(60_000, 1.0 * 10_000 + 3.0 * 50_000, 0, 0, 0, 0));
    assertThat(part.twa()).hasValue(160_000.0 / 60_000);
    assertThat(part.integralValueSeconds()).isEqualTo(160.0);
    assertThat(part.coverage(MINUTE)).isEqualTo(1.0);
  }

  @Test
  void shouldDrawALineToTheNextReadingWithinTheMaxGapAndHoldTheLast() {
    final TimeWeighting linear = new TimeWeighting(300_000, Interpolation.LINEAR);
    final TimeWeighted part =
        TimeWeighted.ofReadings(
            S, S + MINUTE, null, List.of(at(0, 1.0), at(10_000, 3.0)), null, linear);

    // 1 → 3 over 10 s is 20 value·s; then 3 held for the 50 s left, as nothing follows
    assertThat(part).isEqualTo(new TimeWeighted(60_000, 20_000 + 3.0 * 50_000, 0, 0, 0, 0));
  }

  @Test
  void shouldFollowTheLineToTheReadingCarriedOutAndSplitItExactlyAtABoundary() {
    final TimeWeighting linear = new TimeWeighting(300_000, Interpolation.LINEAR);
    final Measurement before = at(-30_000, 0.0);
    final Measurement after = at(MINUTE + 30_000, 120.0);
    // one line from 0 at -30 s to 120 at 90 s: the value is 30 at the start and 90 at the end
    final TimeWeighted minute =
        TimeWeighted.ofReadings(S, S + MINUTE, before, List.of(), after, linear);
    final List<TimeWeighted> halves =
        TimeWeighted.ofStretches(
            new long[] {S, S + 30_000, S + MINUTE}, before, List.of(), after, linear);

    assertThat(minute).isEqualTo(new TimeWeighted(60_000, 60_000 * 60.0, 0, 0, 0, 0));
    assertThat(halves.get(0).integral()).isEqualTo(30_000 * 45.0);
    assertThat(halves.get(0).followedBy(halves.get(1))).isEqualTo(minute);
    // step ignores the reading after: 0 held for the max gap
    assertThat(TimeWeighted.ofReadings(S, S + MINUTE, before, List.of(), after, FIVE_MINUTES))
        .isEqualTo(new TimeWeighted(60_000, 0, 0, 0, 0, 0));
    assertThatThrownBy(
            () -> TimeWeighted.ofReadings(S, S + MINUTE, null, List.of(), at(30_000, 1.0), linear))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void shouldLeaveAGapWhereTheNextReadingIsFurtherThanTheMaxGap() {
    final TimeWeighting tenSeconds = new TimeWeighting(10_000);

    final TimeWeighted part =
        TimeWeighted.ofReadings(
            S, S + MINUTE, null, List.of(at(5_000, 2.0), at(30_000, 4.0)), null, tenSeconds);

    // covered [5 s, 15 s) and [30 s, 40 s); gaps [0, 5 s), [15 s, 30 s), [40 s, 60 s)
    assertThat(part).isEqualTo(new TimeWeighted(20_000, 60_000, 3, 20_000, 5_000, 20_000));
    assertThat(part.twa()).hasValue(3.0);
    assertThat(part.coverage(MINUTE)).isEqualTo(1.0 / 3);
  }

  @Test
  void shouldCarryTheReadingBeforeTheWindowAcrossAWindowWithoutReadings() {
    final Measurement before = at(50_000, 5.0);

    final TimeWeighted held =
        TimeWeighted.ofReadings(MINUTE + S, S + 2 * MINUTE, before, List.of(), null, FIVE_MINUTES);
    final TimeWeighted heldFor30Seconds =
        TimeWeighted.bridge(S + MINUTE, S + 2 * MINUTE, before, null, new TimeWeighting(30_000));

    assertThat(held).isEqualTo(new TimeWeighted(60_000, 300_000, 0, 0, 0, 0));
    assertThat(held.twa()).hasValue(5.0);
    // the hold ends at 80 s: [60 s, 80 s) covered, one gap to the end
    assertThat(heldFor30Seconds).isEqualTo(new TimeWeighted(20_000, 100_000, 1, 40_000, 0, 40_000));
    assertThat(TimeWeighted.bridge(S + MINUTE, S + 2 * MINUTE, before, null, FIVE_MINUTES))
        .isEqualTo(held);
  }

  @Test
  void shouldCountAWindowWithNothingInItAsOneGapWithoutAnAverage() {
    final TimeWeighted empty =
        TimeWeighted.ofReadings(S, S + MINUTE, null, List.of(), null, FIVE_MINUTES);
    final TimeWeighted expiredHold =
        TimeWeighted.ofReadings(
            S, S + MINUTE, new Measurement(S - 300_000, 1.0), List.of(), null, FIVE_MINUTES);

    assertThat(empty).isEqualTo(new TimeWeighted(0, 0, 1, MINUTE, MINUTE, MINUTE));
    assertThat(empty.twa()).isEmpty();
    assertThat(expiredHold).isEqualTo(empty);
  }

  @Test
  void shouldLetTheLaterOfTwoReadingsAtOneTimeWin() {
    final TimeWeighted part =
        TimeWeighted.ofReadings(
            S, S + MINUTE, null, List.of(at(0, 7.0), at(0, 1.0)), null, FIVE_MINUTES);

    assertThat(part).isEqualTo(new TimeWeighted(60_000, 60_000, 0, 0, 0, 0));
  }

  @Test
  void shouldSplitAHoldThatCrossesABoundaryBetweenTheTwoSides() {
    final List<Measurement> readings = List.of(at(50_000, 2.0), at(MINUTE + 30_000, 6.0));

    final List<TimeWeighted> parts =
        TimeWeighted.ofStretches(
            new long[] {S, S + MINUTE, S + 2 * MINUTE}, null, readings, null, FIVE_MINUTES);

    assertThat(parts)
        .containsExactly(
            new TimeWeighted(10_000, 20_000, 1, 50_000, 50_000, 0),
            new TimeWeighted(60_000, 2.0 * 30_000 + 6.0 * 30_000, 0, 0, 0, 0));
    assertThat(parts.get(0).followedBy(parts.get(1)))
        .isEqualTo(TimeWeighted.ofReadings(S, S + 2 * MINUTE, null, readings, null, FIVE_MINUTES));
    // the second minute alone, with the first minute's last reading carried in, is the same part
    assertThat(
            TimeWeighted.ofReadings(
                S + MINUTE,
                S + 2 * MINUTE,
                readings.get(0),
                readings.subList(1, 2),
                null,
                FIVE_MINUTES))
        .isEqualTo(parts.get(1));
  }

  @Test
  void shouldJoinAGapAcrossABoundaryIntoOne() {
    final TimeWeighting tenSeconds = new TimeWeighting(10_000);
    final TimeWeighted first =
        TimeWeighted.ofReadings(S, S + MINUTE, null, List.of(at(0, 1.0)), null, tenSeconds);
    final TimeWeighted empty =
        TimeWeighted.ofReadings(S + MINUTE, S + 2 * MINUTE, null, List.of(), null, tenSeconds);
    final TimeWeighted third =
        TimeWeighted.ofReadings(
            S + 2 * MINUTE,
            S + 3 * MINUTE,
            null,
            List.of(at(2 * MINUTE + 20_000, 1.0)),
            null,
            tenSeconds);

    final TimeWeighted whole = first.followedBy(empty).followedBy(third);

    // one gap from 10 s to 140 s, and one from 150 s to the end
    assertThat(whole).isEqualTo(new TimeWeighted(20_000, 20_000, 2, 130_000, 0, 30_000));
    assertThat(empty.followedBy(empty))
        .isEqualTo(new TimeWeighted(0, 0, 1, 2 * MINUTE, 2 * MINUTE, 2 * MINUTE));
  }

  @Test
  void shouldRefuseAReadingCarriedInThatIsNotBeforeTheStretch() {
    assertThatThrownBy(
            () -> TimeWeighted.ofReadings(S, S + MINUTE, at(0, 1.0), List.of(), null, FIVE_MINUTES))
        .isInstanceOf(IllegalArgumentException.class);
  }

  /**
   * Random irregular streams cut at random points: the parts of the pieces, merged in order, equal
   * the part of the whole, and each piece computed alone with the reading before it carried in
   * equals its part of the one pass. Integer values and times keep every sum exact, so equality is
   * exact.
   */
  @Test
  void shouldAddThePartsOfAnySplitUpToThePartOfTheWhole() {
    final SplittableRandom random = new SplittableRandom(31);
    for (int round = 0; round < 500; round++) {
      final long start = S + random.nextInt(-50_000, 50_000);
      final long end = start + random.nextInt(1, 600_000);
      final TimeWeighting how = new TimeWeighting(random.nextInt(1, 120_000));
      final Measurement carryIn =
          random.nextBoolean() ? new Measurement(start - random.nextInt(1, 150_000), 3.0) : null;
      final List<Measurement> readings = new ArrayList<>();
      long time = start + random.nextInt(0, 60_000);
      while (time < end) {
        readings.add(new Measurement(time, random.nextInt(-1_000, 1_000)));
        time += random.nextInt(0, 90_000); // equal times too
      }
      final long[] bounds = randomBounds(random, start, end);

      final List<TimeWeighted> parts =
          TimeWeighted.ofStretches(bounds, carryIn, readings, null, how);

      TimeWeighted merged = TimeWeighted.NONE;
      for (final TimeWeighted part : parts) {
        merged = merged.followedBy(part);
      }
      assertThat(merged)
          .as("round %d", round)
          .isEqualTo(TimeWeighted.ofReadings(start, end, carryIn, readings, null, how));
      for (int k = 0; k < parts.size(); k++) {
        assertThat(alone(bounds[k], bounds[k + 1], carryIn, readings, how))
            .as("round %d, stretch %d", round, k)
            .isEqualTo(parts.get(k));
      }
    }
  }

  @Test
  void shouldMergeAssociativelyWithNoneAsItsIdentity() {
    final SplittableRandom random = new SplittableRandom(7);
    for (int round = 0; round < 500; round++) {
      final long[] bounds = randomBounds(random, S, S + random.nextInt(4, 400_000));
      final List<Measurement> readings = new ArrayList<>();
      for (long time = S + random.nextInt(0, 30_000);
          time < bounds[bounds.length - 1];
          time += random.nextInt(1, 70_000)) {
        readings.add(new Measurement(time, random.nextInt(0, 100)));
      }
      final List<TimeWeighted> parts =
          TimeWeighted.ofStretches(bounds, null, readings, null, new TimeWeighting(30_000));
      for (int k = 0; k + 2 < parts.size(); k++) {
        final TimeWeighted a = parts.get(k);
        final TimeWeighted b = parts.get(k + 1);
        final TimeWeighted c = parts.get(k + 2);
        assertThat(a.followedBy(b).followedBy(c)).isEqualTo(a.followedBy(b.followedBy(c)));
      }
      for (final TimeWeighted part : parts) {
        assertThat(TimeWeighted.NONE.followedBy(part)).isEqualTo(part);
        assertThat(part.followedBy(TimeWeighted.NONE)).isEqualTo(part);
      }
    }
  }

  /** Two to six increasing cut points from {@code start} to {@code end}. */
  private static long[] randomBounds(
      final SplittableRandom random, final long start, final long end) {
    final int cuts = random.nextInt(0, 5);
    final long[] bounds = new long[cuts + 2];
    bounds[0] = start;
    bounds[cuts + 1] = end;
    final List<Long> inner = new ArrayList<>();
    while (inner.size() < cuts && end - start > cuts + 1) {
      final long cut = random.nextLong(start + 1, end);
      if (!inner.contains(cut)) {
        inner.add(cut);
      }
    }
    inner.sort(null);
    for (int i = 0; i < inner.size(); i++) {
      bounds[i + 1] = inner.get(i);
    }
    return inner.size() == cuts ? bounds : new long[] {start, end};
  }

  /** The part of {@code [from, to)} from its own readings and the last reading before it. */
  private static TimeWeighted alone(
      final long from,
      final long to,
      final Measurement carryIn,
      final List<Measurement> readings,
      final TimeWeighting how) {
    Measurement before = carryIn;
    final List<Measurement> inside = new ArrayList<>();
    for (final Measurement reading : readings) {
      if (reading.timestamp() < from) {
        before = reading;
      } else if (reading.timestamp() < to) {
        inside.add(reading);
      }
    }
    return TimeWeighted.ofReadings(from, to, before, inside, null, how);
  }
}
