package io.bucketer.buckets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class BucketStatsTest {

  @Test
  void shouldKeepRunningSumsOfReadings() {
    final BucketStats stats =
        BucketStats.of(new Measurement(2_000, 4.0), null)
            .add(new Measurement(1_000, -1.5), null)
            .add(new Measurement(3_000, 10.0), null);

    assertThat(stats.count()).isEqualTo(3);
    assertThat(stats.sum()).isEqualTo(12.5);
    assertThat(stats.min()).isEqualTo(-1.5);
    assertThat(stats.max()).isEqualTo(10.0);
    assertThat(stats.firstTimestamp()).isEqualTo(1_000);
    assertThat(stats.lastTimestamp()).isEqualTo(3_000);
    assertThat(stats.average()).isCloseTo(12.5 / 3, within(1e-12));
  }

  @Test
  void shouldMergeLikeAddingEveryReading() {
    final BucketStats left =
        BucketStats.of(new Measurement(1_000, 1.0), null).add(new Measurement(2_000, 2.0), null);
    final BucketStats right =
        BucketStats.of(new Measurement(5_000, 7.0), null).add(new Measurement(4_000, -3.0), null);

    final BucketStats merged = left.merge(right);
    final BucketStats oneByOne =
        left.add(new Measurement(5_000, 7.0), null).add(new Measurement(4_000, -3.0), null);

    for (final BucketStats stats : List.of(oneByOne, right.merge(left))) {
      assertThat(stats.count()).isEqualTo(merged.count());
      assertThat(stats.sum()).isEqualTo(merged.sum());
      assertThat(stats.min()).isEqualTo(merged.min());
      assertThat(stats.max()).isEqualTo(merged.max());
      assertThat(stats.first()).isEqualTo(merged.first());
      assertThat(stats.last()).isEqualTo(merged.last());
      assertThat(stats.average()).isCloseTo(merged.average(), within(1e-12));
      assertThat(stats.m2()).isCloseTo(merged.m2(), within(1e-9));
    }
    assertThat(merged.first()).isEqualTo(new Measurement(1_000, 1.0));
    assertThat(merged.last()).isEqualTo(new Measurement(5_000, 7.0));
    assertThat(merged.average()).isCloseTo(1.75, within(1e-12));
    // deviations from 1.75: -0.75, 0.25, 5.25, -4.75
    assertThat(merged.standardDeviation()).isCloseTo(Math.sqrt(50.75 / 4), within(1e-12));
  }

  @Test
  void shouldTakeTheFirstArrivedAsFirstAndTheLastArrivedAsLastAmongEqualTimes() {
    final BucketStats stats =
        BucketStats.of(new Measurement(1_000, 1.0), null)
            .add(new Measurement(1_000, 2.0), null)
            .add(new Measurement(3_000, 3.0), null)
            .add(new Measurement(3_000, 4.0), null);

    assertThat(stats.first()).isEqualTo(new Measurement(1_000, 1.0));
    assertThat(stats.last()).isEqualTo(new Measurement(3_000, 4.0));
  }

  /**
   * Readings of 1e9 plus noise of about 1e-3: a sum of squares would lose the noise entirely (its
   * squares differ from 1e18 far below a double's precision at 1e18). Windows of them combined the
   * way an hour combines its minutes must give the spread that exact arithmetic gives.
   */
  @Test
  void shouldKeepTheSpreadOfLargeValuesWithSmallNoiseAcrossMerges() {
    final SplittableRandom random = new SplittableRandom(7);
    final List<Measurement> readings = new ArrayList<>();
    BucketStats hour = null;
    for (int minute = 0; minute < 60; minute++) {
      BucketStats window = null;
      for (int second = 0; second < 60; second++) {
        final Measurement reading =
            new Measurement(
                minute * 60_000L + second * 1_000L, 1e9 + random.nextDouble(-1e-3, 1e-3));
        readings.add(reading);
        window = window == null ? BucketStats.of(reading, null) : window.add(reading, null);
      }
      hour = hour == null ? window : hour.merge(window);
    }

    final double exact = exactPopulationStandardDeviation(readings);
    assertThat(exact).isBetween(4e-4, 7e-4);
    assertThat(hour.standardDeviation()).isCloseTo(exact, within(exact * 1e-9));
    assertThat(hour.average()).isCloseTo(1e9, within(1e-3));
  }

  private static double exactPopulationStandardDeviation(final List<Measurement> readings) {
    final MathContext precise = MathContext.DECIMAL128;
    BigDecimal sum = BigDecimal.ZERO;
    for (final Measurement reading : readings) {
      sum = sum.add(new BigDecimal(reading.value()));
    }
    final BigDecimal count = BigDecimal.valueOf(readings.size());
    final BigDecimal mean = sum.divide(count, precise);
    BigDecimal squares = BigDecimal.ZERO;
    for (final Measurement reading : readings) {
      final BigDecimal deviation = new BigDecimal(reading.value()).subtract(mean);
      squares = squares.add(deviation.multiply(deviation));
    }
    return Math.sqrt(squares.divide(count, precise).doubleValue());
  }

  @Test
  void shouldNotInventWhatStatsFromAnOlderVersionDidNotKeep() {
    final BucketStats old = BucketStats.withoutSpread(2, 3.0, 1.0, 2.0, 1_000, 2_000, null);
    final BucketStats merged = old.add(new Measurement(3_000, 5.0), null);

    assertThat(old.hasSpread()).isFalse();
    assertThat(old.average()).isEqualTo(1.5);
    assertThat(merged.hasSpread()).isFalse();
    assertThat(merged.standardDeviation()).isNaN();
    assertThat(merged.last()).isEqualTo(new Measurement(3_000, 5.0));
    assertThat(merged.average()).isCloseTo(8.0 / 3, within(1e-12));
  }

  @Test
  void shouldKeepTheUtcOffsetOfTheLatestReadingThatCarriedOne() {
    final BucketStats beforeDstChange = BucketStats.of(new Measurement(1_000, 1.0), 60);
    final BucketStats afterDstChange = beforeDstChange.add(new Measurement(2_000, 1.0), 120);
    final BucketStats withoutOffset = afterDstChange.add(new Measurement(3_000, 1.0), null);
    final BucketStats olderReading = afterDstChange.add(new Measurement(500, 1.0), 0);

    assertThat(afterDstChange.utcOffsetMinutes()).isEqualTo(120);
    assertThat(withoutOffset.utcOffsetMinutes()).isEqualTo(120);
    assertThat(olderReading.utcOffsetMinutes()).isEqualTo(120);
  }

  /**
   * Equality is a record's, component by component, doubles bit for bit: the window log relies on
   * it to tell whether replaying readings rebuilds a window's sums exactly.
   */
  @Test
  void shouldBeEqualExactlyWhenEveryComponentIsAsARecordSays() {
    final BucketStats stats =
        new BucketStats(
            3, 6.0, 1.0, 3.0, new Measurement(1, 1.0), new Measurement(3, 3.0), 1, 1, 2, 60);
    final BucketStats same =
        new BucketStats(
            3, 6.0, 1.0, 3.0, new Measurement(1, 1.0), new Measurement(3, 3.0), 1, 1, 2, 60);
    final BucketStats unknownSpread = BucketStats.withoutSpread(3, 6.0, 1.0, 3.0, 1, 3, null);

    assertThat(stats).isEqualTo(same).hasSameHashCodeAs(same);
    assertThat(unknownSpread)
        .isEqualTo(BucketStats.withoutSpread(3, 6.0, 1.0, 3.0, 1, 3, null)); // NaN equals NaN
    assertThat(stats)
        .isNotEqualTo(
            new BucketStats(
                3, 6.0, 1.0, 3.0, new Measurement(1, 1.5), new Measurement(3, 3.0), 1, 1, 2, 60))
        .isNotEqualTo(
            new BucketStats(
                3, 6.0, 1.0, 3.0, new Measurement(1, 1.0), new Measurement(4, 3.0), 1, 1, 2, 60))
        .isNotEqualTo(
            new BucketStats(
                3, 6.0, 1.0, 3.0, new Measurement(1, 1.0), new Measurement(3, 3.0), 1, 1, 2, null))
        .isNotEqualTo(
            new BucketStats(
                3, 6.0, 1.0, 3.0, new Measurement(1, 1.0), new Measurement(3, 3.0), 1, 1, 2.5, 60))
        .isNotEqualTo(null);
    assertThat(
            new BucketStats(
                1, 0.0, 0.0, 0.0, new Measurement(1, 0.0), new Measurement(1, 0.0), 0, 0, 0, null))
        .isNotEqualTo(
            new BucketStats(
                1,
                -0.0,
                0.0,
                0.0,
                new Measurement(1, 0.0),
                new Measurement(1, 0.0),
                0,
                0,
                0,
                null));
  }
}
