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
import java.math.BigDecimal;
import java.math.MathContext;
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
      assertThat(extras.carryIn()).as(window).isEqualTo(carryIn(all, start, how));
      assertMatches(extras.timeWeighted(), all, start, end, how, window);
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
          assertMatches(
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

  /** The last reading before {@code start}, if its hold (the max gap at most) reaches it. */
  private static Measurement carryIn(
      final List<Measurement> all, final long start, final TimeWeighting how) {
    Measurement last = null;
    for (final Measurement reading : all) {
      if (reading.timestamp() < start) {
        last = reading;
      }
    }
    return last != null && last.timestamp() + how.maxGapMillis() > start ? last : null;
  }

  private static void assertMatches(
      final TimeWeighted part,
      final List<Measurement> all,
      final long start,
      final long end,
      final TimeWeighting how,
      final String what) {
    // Covered intervals of the window, from the definition: reading i holds until the next reading
    // or for the max gap, whichever is first; cut to the window.
    final List<long[]> covered = new ArrayList<>();
    BigDecimal integral = BigDecimal.ZERO;
    for (int i = 0; i < all.size(); i++) {
      final long t = all.get(i).timestamp();
      final long holdEnd =
          i + 1 < all.size()
              ? Math.min(all.get(i + 1).timestamp(), t + how.maxGapMillis())
              : t + how.maxGapMillis();
      final long from = Math.max(t, start);
      final long to = Math.min(holdEnd, end);
      if (to > from) {
        covered.add(new long[] {from, to});
        integral =
            integral.add(
                new BigDecimal(all.get(i).value()).multiply(BigDecimal.valueOf(to - from)));
      }
    }
    // Gaps: the window less the covered intervals, touching intervals joined.
    final List<long[]> gaps = new ArrayList<>();
    long cursor = start;
    for (final long[] interval : covered) {
      if (interval[0] > cursor) {
        gaps.add(new long[] {cursor, interval[0]});
      }
      cursor = Math.max(cursor, interval[1]);
    }
    if (cursor < end) {
      gaps.add(new long[] {cursor, end});
    }
    final long coveredMillis = covered.stream().mapToLong(c -> c[1] - c[0]).sum();

    assertThat(part).as(what).isNotNull();
    assertThat(part.coveredMillis()).as(what).isEqualTo(coveredMillis);
    assertThat(part.gaps()).as(what).isEqualTo(gaps.size());
    assertThat(part.longestGapMillis())
        .as(what)
        .isEqualTo(gaps.stream().mapToLong(g -> g[1] - g[0]).max().orElse(0));
    assertThat(part.gapAtStartMillis())
        .as(what)
        .isEqualTo(!gaps.isEmpty() && gaps.get(0)[0] == start ? gaps.get(0)[1] - start : 0);
    assertThat(part.gapAtEndMillis())
        .as(what)
        .isEqualTo(
            !gaps.isEmpty() && gaps.get(gaps.size() - 1)[1] == end
                ? end - gaps.get(gaps.size() - 1)[0]
                : 0);
    assertRelative(part.integral(), integral, what + " integral");
    if (coveredMillis == 0) {
      assertThat(part.twa()).as(what).isEmpty();
    } else {
      assertRelative(
          part.twa().orElseThrow(),
          integral.divide(BigDecimal.valueOf(coveredMillis), MathContext.DECIMAL128),
          what + " twa");
    }
  }

  private static void assertRelative(
      final double actual, final BigDecimal expected, final String what) {
    final double error = Math.abs(actual - expected.doubleValue());
    assertThat(error)
        .as("%s: %s against %s", what, actual, expected)
        .isLessThanOrEqualTo(1e-9 * Math.max(1e-300, Math.abs(expected.doubleValue())) + 1e-12);
  }
}
