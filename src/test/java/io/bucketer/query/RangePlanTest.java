package io.bucketer.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bucketer.buckets.Granularity;
import io.bucketer.query.RangePlan.Part;
import io.bucketer.query.RangePlan.RawMeasurements;
import io.bucketer.query.RangePlan.WholeBuckets;
import java.time.Instant;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class RangePlanTest {

  private static final Granularity MINUTE = Granularity.parse("1m");
  private static final Granularity HOUR = Granularity.parse("1h");
  private static final List<Granularity> MINUTE_HOUR = List.of(MINUTE, HOUR);

  @Test
  void shouldReadOneHourBucketForAnHourOnTheHour() {
    assertThat(RangePlan.of(MINUTE_HOUR, at("14:00"), at("15:00")))
        .containsExactly(new WholeBuckets(HOUR, at("14:00"), at("15:00")));
  }

  @Test
  void shouldUseMinuteBucketsAtTheEdgesOfWholeHours() {
    assertThat(RangePlan.of(MINUTE_HOUR, at("14:30"), at("16:30")))
        .containsExactly(
            new WholeBuckets(MINUTE, at("14:30"), at("15:00")),
            new WholeBuckets(HOUR, at("15:00"), at("16:00")),
            new WholeBuckets(MINUTE, at("16:00"), at("16:30")));
  }

  @Test
  void shouldReadRawMeasurementsWhereAnEdgeCutsAMinute() {
    assertThat(RangePlan.of(MINUTE_HOUR, at("14:00:30"), at("14:02:15")))
        .containsExactly(
            new RawMeasurements(MINUTE, at("14:00:30"), at("14:01")),
            new WholeBuckets(MINUTE, at("14:01"), at("14:02")),
            new RawMeasurements(MINUTE, at("14:02"), at("14:02:15")));
  }

  @Test
  void shouldReadOnlyRawMeasurementsInsideOneMinute() {
    assertThat(RangePlan.of(MINUTE_HOUR, at("14:00:10"), at("14:00:20")))
        .containsExactly(new RawMeasurements(MINUTE, at("14:00:10"), at("14:00:20")));
  }

  @Test
  void shouldCoverAnyRangeExactlyOnceWithGranularitiesThatDoNotDivideEachOther() {
    final List<Granularity> odd = Granularity.parseList("7m,1h,30s");
    final SplittableRandom random = new SplittableRandom(5);
    for (int i = 0; i < 2_000; i++) {
      final long from = at("00:00") + random.nextLong(0, 86_400_000);
      final long to = from + 1 + random.nextLong(0, 20_000_000);
      final List<Part> parts = RangePlan.of(odd, from, to);

      long covered = from;
      for (final Part part : parts) {
        assertThat(part.from()).as("parts are contiguous, in order").isEqualTo(covered);
        assertThat(part.to()).isGreaterThan(part.from());
        if (part instanceof WholeBuckets whole) {
          assertThat(Math.floorMod(whole.from(), whole.granularity().sizeMillis())).isZero();
          assertThat(Math.floorMod(whole.to(), whole.granularity().sizeMillis())).isZero();
        }
        covered = part.to();
      }
      assertThat(covered).isEqualTo(to);
    }
  }

  @Test
  void shouldRefuseAnEmptyRange() {
    assertThatThrownBy(() -> RangePlan.of(MINUTE_HOUR, at("14:00"), at("14:00")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("from must be before to");
  }

  private static long at(final String time) {
    final String full = time.length() == 5 ? time + ":00" : time;
    return Instant.parse("2026-11-22T" + full + "Z").toEpochMilli();
  }
}
