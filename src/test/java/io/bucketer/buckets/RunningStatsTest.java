package io.bucketer.buckets;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class RunningStatsTest {

  private static final Integer[] OFFSETS = {null, 60, -300, 0};

  @Test
  void shouldComeOutAsBucketStatsAddToTheBitOverRandomReadings() {
    final SplittableRandom random = new SplittableRandom(45);
    for (int round = 0; round < 2_000; round++) {
      final BucketStats start =
          random.nextInt(10) == 0
              ? BucketStats.withoutSpread(3, 30.0, 9.0, 11.0, 5_000, 6_000, null)
              : BucketStats.of(reading(random), offset(random));
      BucketStats added = start;
      final RunningStats running = new RunningStats(start);
      final int readings = 1 + random.nextInt(80);
      for (int i = 0; i < readings; i++) {
        final Measurement reading = reading(random);
        final Integer offset = offset(random);
        added = added.add(reading, offset);
        running.add(reading.timestamp(), reading.value(), offset);
      }

      // the record's equals compares doubles as Double.compare does: -0.0 is not 0.0, NaN is NaN
      assertThat(running.stats()).isEqualTo(added);
    }
  }

  @Test
  void shouldKeepTheFirstAndLastByTimeAndArrivalAsBucketStatsDoes() {
    final BucketStats start = BucketStats.of(new Measurement(2_000, 4.0), 60);
    final RunningStats running = new RunningStats(start);

    running.add(1_000, -1.5, null);
    running.add(3_000, 10.0, null);
    running.add(3_000, 11.0, -300);
    running.add(2_500, 0.5, 0);

    final BucketStats stats = running.stats();
    assertThat(stats.first()).isEqualTo(new Measurement(1_000, -1.5));
    assertThat(stats.last()).isEqualTo(new Measurement(3_000, 11.0));
    assertThat(stats.utcOffsetMinutes()).isEqualTo(-300);
    assertThat(stats.count()).isEqualTo(5);
    assertThat(stats)
        .isEqualTo(
            start
                .add(new Measurement(1_000, -1.5), null)
                .add(new Measurement(3_000, 10.0), null)
                .add(new Measurement(3_000, 11.0), -300)
                .add(new Measurement(2_500, 0.5), 0));
  }

  @Test
  void shouldLeaveTheStatsItStartedFromAsTheyWere() {
    final BucketStats start = BucketStats.of(new Measurement(2_000, 4.0), null);
    final RunningStats running = new RunningStats(start);

    assertThat(running.stats()).isEqualTo(start);
    running.add(3_000, 5.0, null);
    assertThat(start.count()).isEqualTo(1);
    assertThat(running.stats().count()).isEqualTo(2);
  }

  /** Reset, it starts again from the stats given, and forgets what it added before. */
  @Test
  void shouldStartAgainFromTheStatsItIsResetTo() {
    final BucketStats start = BucketStats.of(new Measurement(2_000, 4.0), 60);
    final RunningStats running = new RunningStats(BucketStats.of(new Measurement(1, 1), null));
    running.add(5_000, 100, -300);

    running.reset(start);
    running.add(3_000, 5.0, null);

    assertThat(running.stats()).isEqualTo(start.add(new Measurement(3_000, 5.0), null));
  }

  /**
   * Two sets of values are the same exactly when BucketStats' equals says so: -0.0 is not 0.0, NaN
   * is NaN, and every field counts.
   */
  @Test
  void shouldFindTheSameValuesExactlyWhereBucketStatsEqualsDoes() {
    final SplittableRandom random = new SplittableRandom(70);
    int same = 0;
    for (int round = 0; round < 2_000; round++) {
      final BucketStats a = smallStats(random);
      final BucketStats b = random.nextInt(3) == 0 ? a : smallStats(random);

      assertThat(StatsFields.same(a, b)).as("%s against %s", a, b).isEqualTo(a.equals(b));
      assertThat(StatsFields.same(new RunningStats(a), b)).isEqualTo(a.equals(b));
      same += a.equals(b) ? 1 : 0;
    }
    assertThat(same).as("both answers are tried").isBetween(500, 1_500);
  }

  /** Stats from a few values, so that two of them are often equal but for one field. */
  private static BucketStats smallStats(final SplittableRandom random) {
    final double[] values = {0.0, -0.0, 1.0, Double.NaN};
    final double value = values[random.nextInt(values.length)];
    return new BucketStats(
        1 + random.nextInt(2),
        value,
        values[random.nextInt(2)],
        1.0,
        new Measurement(random.nextInt(2), value),
        new Measurement(1, values[random.nextInt(values.length)]),
        value,
        0.0,
        values[random.nextInt(values.length)],
        random.nextBoolean() ? null : 60);
  }

  /** Mostly in order, some late, some at equal times; values near and far from zero, some -0.0. */
  private static Measurement reading(final SplittableRandom random) {
    final long timestamp = 60_000L * 1_000 + random.nextInt(60) * 1_000L;
    final double value =
        switch (random.nextInt(5)) {
          case 0 -> -0.0;
          case 1 -> 1e9 + random.nextDouble();
          case 2 -> Math.round(random.nextDouble() * 10_000) / 100.0;
          default -> random.nextGaussian() * 50;
        };
    return new Measurement(timestamp, value);
  }

  private static Integer offset(final SplittableRandom random) {
    return random.nextInt(4) == 0 ? OFFSETS[random.nextInt(OFFSETS.length)] : null;
  }
}
