package io.bucketer.windows;

import static org.assertj.core.api.Assertions.assertThat;

import io.bucketer.buckets.BucketLayout;
import io.bucketer.buckets.ClosedBucket;
import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.Measurement;
import io.bucketer.buckets.SeriesKey;
import io.bucketer.buckets.SketchAccuracies;
import io.bucketer.buckets.TimeWeighted;
import io.bucketer.buckets.TimeWeighting;
import io.bucketer.buckets.TimeWeightings;
import io.bucketer.buckets.WindowExtras;
import io.bucketer.buckets.WindowSummary;
import io.bucketer.testing.IrregularReadings;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Every window the lifecycle emits for generated irregular streams carries the time-weighted part
 * that an independent computation finds from all the readings sent: covered time, gaps and the
 * longest gap exactly, the integral and average to a relative 1e-9 (exact sums in BigDecimal here),
 * on every {@code seq} part of a window cut by the caps, and in every summary of an hour, which
 * also equals the minute's own part.
 */
class TimeWeightOracleTest {

  private static final Granularity MINUTE = Granularity.parse("1m");
  private static final Granularity HOUR = Granularity.parse("1h");
  private static final long TEN = Instant.parse("2025-06-01T10:00:00Z").toEpochMilli();
  private static final SeriesKey TEMPERATURE = new SeriesKey("s1", "temperature");
  private static final SeriesKey POWER = new SeriesKey("s1", "power");
  private static final TimeWeightings WEIGHTINGS =
      new TimeWeightings(new TimeWeighting(45_000), Map.of("power", new TimeWeighting(180_000)));

  @Test
  void shouldEmitTheTimeWeightedPartsOfAnIndependentComputation() {
    for (int seed = 1; seed <= 6; seed++) {
      checkRun(seed);
    }
  }

  private static void checkRun(final int seed) {
    final SplittableRandom random = new SplittableRandom(seed);
    // Sent in this order, series by series, each reading on time.
    final Map<SeriesKey, List<Measurement>> sent = new LinkedHashMap<>();
    for (final SeriesKey series : List.of(TEMPERATURE, POWER)) {
      sent.put(series, irregularStream(random));
    }
    // Five measurements and seven summaries per document: busy minutes and hours are cut in parts.
    final List<ClosedBucket> emitted =
        LifecycleRuns.emitted(
            LifecycleRuns.settings(
                List.of(MINUTE, HOUR),
                new BucketLayout(5, 7, Set.of()),
                WEIGHTINGS,
                SketchAccuracies.DEFAULT),
            sent,
            TEN,
            TEN + Duration.ofHours(12).toMillis());

    final Map<SeriesKey, Map<Long, TimeWeighted>> minuteParts = new HashMap<>();
    int hoursCut = 0;
    int minutesCut = 0;
    for (final ClosedBucket bucket : emitted) {
      assertThat(bucket.revision()).isZero();
      final List<Measurement> all = sorted(sent.get(bucket.series()));
      final TimeWeighting how = WEIGHTINGS.of(bucket.series());
      final long start = bucket.windowStart();
      final long end = bucket.windowEnd();
      final WindowExtras extras = bucket.extras();
      final String window = bucket.series() + " " + bucket.granularity() + "@" + start;
      assertThat(extras.weighting()).isEqualTo(how);
      assertThat(extras.carryIn()).as(window).isEqualTo(TimeWeightChecks.carryIn(all, start, how));
      TimeWeightChecks.assertMatches(extras.timeWeighted(), all, start, end, how, window);
      if (bucket.granularity().equals(MINUTE)) {
        minutesCut += bucket.buckets() > 1 ? 1 : 0;
        final TimeWeighted earlier =
            minuteParts
                .computeIfAbsent(bucket.series(), s -> new HashMap<>())
                .put(start, extras.timeWeighted());
        assertThat(earlier == null || earlier.equals(extras.timeWeighted()))
            .as("the same part on every seq of %s", window)
            .isTrue();
      } else {
        hoursCut += bucket.buckets() > 1 ? 1 : 0;
        for (final WindowSummary summary : bucket.summaries()) {
          TimeWeightChecks.assertMatches(
              summary.timeWeighted(),
              all,
              summary.start(),
              summary.end(),
              how,
              window + " summary " + summary.start());
        }
      }
    }
    // every summary equals its minute's own part, exactly
    for (final ClosedBucket hour :
        emitted.stream().filter(b -> b.granularity().equals(HOUR)).toList()) {
      for (final WindowSummary summary : hour.summaries()) {
        assertThat(summary.timeWeighted())
            .isEqualTo(minuteParts.get(hour.series()).get(summary.start()));
      }
    }
    assertThat(minutesCut).as("minutes written in several parts").isPositive();
    assertThat(hoursCut).as("hours written in several parts").isPositive();
  }

  /**
   * Three hours of readings, in time order with some swapped within their minute: steady spells
   * every few seconds, bursts, and silences longer than either max gap.
   */
  private static List<Measurement> irregularStream(final SplittableRandom random) {
    final List<Measurement> readings =
        new ArrayList<>(IrregularReadings.of(random, TEN, Duration.ofHours(3).toMillis()));
    for (int i = 1; i < readings.size(); i++) {
      final Measurement a = readings.get(i - 1);
      final Measurement b = readings.get(i);
      if (random.nextInt(10) == 0
          && MINUTE.windowStart(a.timestamp()) == MINUTE.windowStart(b.timestamp())) {
        readings.set(i - 1, b); // out of order within the open minute
        readings.set(i, a);
      }
    }
    return readings;
  }

  private static List<Measurement> sorted(final List<Measurement> readings) {
    final List<Measurement> sorted = new ArrayList<>(readings);
    sorted.sort(Comparator.comparingLong(Measurement::timestamp));
    return sorted;
  }
}
