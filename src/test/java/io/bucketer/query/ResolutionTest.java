package io.bucketer.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bucketer.buckets.Granularity;
import java.time.Instant;
import java.util.List;
import java.util.OptionalLong;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Which granularity a chart reads and how many of its windows make a point, for ranges, point
 * counts and configured granularities; the points' alignment; the limit on points.
 */
class ResolutionTest {

  private static final Granularity MINUTE = Granularity.parse("1m");
  private static final Granularity HOUR = Granularity.parse("1h");
  private static final List<Granularity> MINUTE_HOUR = List.of(MINUTE, HOUR);
  private static final int NO_LIMIT = Integer.MAX_VALUE;

  @Test
  void shouldMergeFifteenMinutesIntoAPointForFourPointsAnHour() {
    final long step = Resolution.step(3_600_000, OptionalLong.of(4), OptionalLong.empty());
    final Resolution resolution =
        Resolution.pick(MINUTE_HOUR, at("14:00"), at("15:00"), step, NO_LIMIT);

    assertThat(step).isEqualTo(900_000);
    assertThat(resolution.read()).isEqualTo(MINUTE);
    assertThat(resolution.windowsPerPoint()).isEqualTo(15);
    assertThat(resolution.pointMillis()).isEqualTo(900_000);
    assertThat(resolution.point().label()).isEqualTo("15m");
    assertThat(resolution.firstStart()).isEqualTo(at("14:00"));
    assertThat(resolution.points()).isEqualTo(4);
    assertThat(resolution.lastEnd()).isEqualTo(at("15:00"));
    assertThat(resolution.widened()).isFalse();
  }

  @Test
  void shouldReadTheCoarsestGranularityNoWiderThanTheStep() {
    // a day in 24 points: the hours themselves
    assertThat(pick(MINUTE_HOUR, "00:00", "24:00", 24, 0))
        .isEqualTo(new Resolution(HOUR, 1, at("00:00"), 24, false));
    // a day in 8 points: three hours a point
    assertThat(pick(MINUTE_HOUR, "00:00", "24:00", 8, 0))
        .isEqualTo(new Resolution(HOUR, 3, at("00:00"), 8, false));
    // a step finer than every granularity reads the finest, a window a point
    assertThat(pick(MINUTE_HOUR, "14:00", "14:10", 0, 10_000))
        .isEqualTo(new Resolution(MINUTE, 1, at("14:00"), 10, false));
    // a step finer than the only one, a coarse one
    assertThat(pick(List.of(HOUR), "14:00", "16:00", 100, 0))
        .isEqualTo(new Resolution(HOUR, 1, at("14:00"), 2, false));
  }

  @Test
  void shouldReadAConfiguredGranularityThatIsExactlyKWindowsWide() {
    // 59.5 minutes: sixty minutes a point, which is the hour: read the hours, one a point
    assertThat(pick(MINUTE_HOUR, "00:00", "12:00", 0, 3_570_000))
        .isEqualTo(new Resolution(HOUR, 1, at("00:00"), 12, false));
    // 1m, 5m, 1h and a step of 4.5 minutes: five minutes, from their own documents
    final Granularity fiveMinutes = Granularity.parse("5m");
    assertThat(pick(List.of(MINUTE, fiveMinutes, HOUR), "00:00", "01:00", 0, 270_000))
        .isEqualTo(new Resolution(fiveMinutes, 1, at("00:00"), 12, false));
  }

  @Test
  void shouldTakeTheWiderOfTheCountsStepAndTheInterval() {
    assertThat(Resolution.step(3_600_000, OptionalLong.of(4), OptionalLong.of(60_000)))
        .isEqualTo(900_000);
    assertThat(Resolution.step(3_600_000, OptionalLong.of(4), OptionalLong.of(1_800_000)))
        .isEqualTo(1_800_000);
    assertThat(Resolution.step(3_600_000, OptionalLong.empty(), OptionalLong.of(1))).isEqualTo(1);
    // rounded up: 7 points of an hour are 514,285.7 ms each, so 514,286
    assertThat(Resolution.step(3_600_000, OptionalLong.of(7), OptionalLong.empty()))
        .isEqualTo(514_286);
    assertThatThrownBy(() -> Resolution.step(3_600_000, OptionalLong.empty(), OptionalLong.empty()))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Resolution.step(3_600_000, OptionalLong.of(0), OptionalLong.empty()))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void shouldAlignPointsToTheEpochSoThatAMovingRangeKeepsThem() {
    // 7m and 1h, a step of 10 minutes: two 7-minute windows a point, on multiples of 14 minutes
    final List<Granularity> odd = Granularity.parseList("7m,1h");
    final Resolution resolution = Resolution.pick(odd, at("14:03"), at("15:03"), 600_000, NO_LIMIT);

    assertThat(resolution.read().label()).isEqualTo("7m");
    assertThat(resolution.windowsPerPoint()).isEqualTo(2);
    assertThat(resolution.firstStart() % 840_000).isZero();
    assertThat(resolution.firstStart()).isLessThanOrEqualTo(at("14:03"));
    assertThat(resolution.firstStart() + 840_000).isGreaterThan(at("14:03"));
    // a minute later, the same grid: the points of the overlap start at the same instants
    final Resolution later = Resolution.pick(odd, at("14:04"), at("15:04"), 600_000, NO_LIMIT);
    assertThat((later.firstStart() - resolution.firstStart()) % 840_000).isZero();
    // the point `from` cuts starts before it; the one `to` cuts ends after it
    final Resolution cut = Resolution.pick(MINUTE_HOUR, at("14:07"), at("14:52"), 900_000, 100);
    assertThat(cut.firstStart()).isEqualTo(at("14:00"));
    assertThat(cut.points()).isEqualTo(4);
    assertThat(cut.lastEnd()).isEqualTo(at("15:00"));
  }

  @Test
  void shouldWidenPointsToStayWithinTheLimitRatherThanRefuse() {
    // a day at one-minute points is 1,440 points; the limit is 100
    final Resolution widened = Resolution.pick(MINUTE_HOUR, at("00:00"), at("24:00"), 60_000, 100);

    assertThat(widened.widened()).isTrue();
    assertThat(widened.points()).isLessThanOrEqualTo(100);
    // the narrowest that fits: 15 minutes (96 points); 14 would give 103
    assertThat(widened.read()).isEqualTo(MINUTE);
    assertThat(widened.windowsPerPoint()).isEqualTo(15);
    assertThat(widened.points()).isEqualTo(96);
    assertThat(Resolution.pick(MINUTE_HOUR, at("00:00"), at("24:00"), 840_000, NO_LIMIT).points())
        .isGreaterThan(100);
    // an unaligned range whose alignment adds the point over the limit: 61 minutes in 60 points
    final Resolution aligned = Resolution.pick(MINUTE_HOUR, at("14:00"), at("15:01"), 1, 60);
    assertThat(aligned.points()).isLessThanOrEqualTo(60);
    assertThat(aligned.widened()).isTrue();
    // within the limit: as asked
    assertThat(Resolution.pick(MINUTE_HOUR, at("00:00"), at("24:00"), 60_000, 1_440).widened())
        .isFalse();
    // one point at most: wide enough to hold the whole range in one aligned point
    final Resolution one = Resolution.pick(MINUTE_HOUR, at("13:59"), at("14:01"), 1, 1);
    assertThat(one.points()).isEqualTo(1);
    assertThat(one.firstStart()).isLessThanOrEqualTo(at("13:59"));
    assertThat(one.lastEnd()).isGreaterThanOrEqualTo(at("14:01"));
  }

  @Test
  void shouldKeepItsRulesOverRandomRangesStepsLimitsAndGranularities() {
    final List<List<Granularity>> configurations =
        List.of(
            MINUTE_HOUR,
            List.of(MINUTE),
            Granularity.parseList("30s,7m,1h"),
            Granularity.parseList("1m,1h,1d"),
            Granularity.parseList("10s,1m,15m,1h"));
    final SplittableRandom random = new SplittableRandom(31);
    for (int i = 0; i < 5_000; i++) {
      final List<Granularity> configured =
          configurations.get(random.nextInt(configurations.size()));
      final long from = at("00:00") + random.nextLong(-86_400_000L * 30, 86_400_000L * 30);
      final long to = from + 1 + random.nextLong(0, 86_400_000L * 10);
      final long step = 1 + random.nextLong(0, random.nextBoolean() ? 600_000 : 86_400_000L);
      final int limit = 1 + random.nextInt(random.nextBoolean() ? 50 : 3_000);
      final Resolution picked = Resolution.pick(configured, from, to, step, limit);
      final String what = "[" + from + ", " + to + ") step " + step + " limit " + limit;
      final long width = picked.pointMillis();

      assertThat(configured).as(what).contains(picked.read());
      assertThat(picked.points()).as(what).isBetween(1L, (long) limit);
      assertThat(width).as("%s: widening only widens", what).isGreaterThanOrEqualTo(step);
      assertThat(picked.firstStart() % width).as(what).isZero();
      assertThat(picked.firstStart()).as(what).isLessThanOrEqualTo(from);
      assertThat(picked.firstStart() + width).as(what).isGreaterThan(from);
      assertThat(picked.lastEnd()).as(what).isGreaterThanOrEqualTo(to);
      assertThat(picked.lastEnd() - width).as(what).isLessThan(to);
      if (picked.windowsPerPoint() > 1) {
        assertThat(configured.stream().map(Granularity::sizeMillis))
            .as("%s: a configured granularity as wide as the point is read instead", what)
            .doesNotContain(width);
      }
      if (!picked.widened()) {
        // the coarsest granularity no wider than the step, or the finest, merged k times
        final Granularity coarsestFitting =
            configured.stream()
                .filter(g -> g.sizeMillis() <= step)
                .reduce((a, b) -> b)
                .orElse(configured.get(0));
        final long k = (step + coarsestFitting.sizeMillis() - 1) / coarsestFitting.sizeMillis();
        assertThat(width).as(what).isEqualTo(k * coarsestFitting.sizeMillis());
      } else {
        assertThat(Resolution.pick(configured, from, to, step, Integer.MAX_VALUE).points())
            .as("%s: widened only over the limit", what)
            .isGreaterThan(limit);
      }
    }
  }

  private static Resolution pick(
      final List<Granularity> configured,
      final String from,
      final String to,
      final long maxDataPoints,
      final long intervalMillis) {
    final long start = at(from);
    final long end = at(to);
    final long step =
        Resolution.step(
            end - start,
            maxDataPoints > 0 ? OptionalLong.of(maxDataPoints) : OptionalLong.empty(),
            intervalMillis > 0 ? OptionalLong.of(intervalMillis) : OptionalLong.empty());
    return Resolution.pick(configured, start, end, step, NO_LIMIT);
  }

  /** {@code HH:mm} on 2026-11-22 UTC; 24:00 is the next midnight. */
  private static long at(final String time) {
    if (time.equals("24:00")) {
      return Instant.parse("2026-11-23T00:00:00Z").toEpochMilli();
    }
    return Instant.parse("2026-11-22T" + time + ":00Z").toEpochMilli();
  }
}
