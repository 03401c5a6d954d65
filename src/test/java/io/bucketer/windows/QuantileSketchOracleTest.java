package io.bucketer.windows;

import static org.assertj.core.api.Assertions.assertThat;

import io.bucketer.buckets.BucketLayout;
import io.bucketer.buckets.ClosedBucket;
import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.Measurement;
import io.bucketer.buckets.SeriesKey;
import io.bucketer.buckets.SketchAccuracies;
import io.bucketer.buckets.TimeWeightings;
import io.bucketer.buckets.WindowSummary;
import io.bucketer.sketch.ValueSketch;
import io.bucketer.testing.IrregularReadings;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Every window the lifecycle emits carries the quantile sketch of exactly the readings it holds:
 * byte for byte the sketch an independent build from the readings sent gives, at its metric's
 * accuracy; for generated irregular streams with resends and readings that arrive after their
 * minute closed (its revisions carry the rebuilt sketch), on every {@code seq} part of a window cut
 * by the caps, in every summary of an hour, and the hour's own equal to the merge of its minutes'.
 */
class QuantileSketchOracleTest {

  private static final Granularity MINUTE = Granularity.parse("1m");
  private static final Granularity HOUR = Granularity.parse("1h");
  private static final long TEN = Instant.parse("2025-06-01T10:00:00Z").toEpochMilli();
  private static final SeriesKey TEMPERATURE = new SeriesKey("s1", "temperature");
  private static final SeriesKey POWER = new SeriesKey("s1", "power");
  private static final SketchAccuracies ACCURACIES =
      new SketchAccuracies(true, 0.01, Map.of("power", 0.001));

  @Test
  void shouldEmitTheSketchOfExactlyTheReadingsOfEachWindow() {
    for (int seed = 1; seed <= 4; seed++) {
      checkRun(seed);
    }
  }

  @Test
  void shouldEmitNoSketchWhenQuantilesAreOff() {
    final List<ClosedBucket> emitted =
        run(new SplittableRandom(7), SketchAccuracies.OFF, new HashMap<>());

    assertThat(emitted).isNotEmpty();
    for (final ClosedBucket bucket : emitted) {
      assertThat(bucket.extras().sketch()).isNull();
      assertThat(bucket.summaries()).allSatisfy(s -> assertThat(s.sketch()).isNull());
    }
  }

  private static void checkRun(final int seed) {
    final Map<SeriesKey, List<Measurement>> sent = new HashMap<>();
    final List<ClosedBucket> emitted = run(new SplittableRandom(seed), ACCURACIES, sent);

    // The last revision of each bucket is what MongoDB keeps.
    final Map<String, ClosedBucket> latest = new LinkedHashMap<>();
    int revised = 0;
    for (final ClosedBucket bucket : emitted) {
      final String key =
          bucket.series()
              + " "
              + bucket.granularity()
              + "@"
              + bucket.windowStart()
              + "#"
              + bucket.seq();
      final ClosedBucket before = latest.get(key);
      if (before == null || before.revision() <= bucket.revision()) {
        latest.put(key, bucket);
      }
      revised += bucket.revision() > 0 ? 1 : 0;
    }
    assertThat(revised).as("windows revised by late readings").isPositive();

    final Map<String, ValueSketch> minuteSketches = new HashMap<>();
    int cut = 0;
    for (final ClosedBucket bucket : latest.values()) {
      final double accuracy = ACCURACIES.of(bucket.series()).getAsDouble();
      final List<Measurement> held =
          heldIn(sent.get(bucket.series()), bucket.windowStart(), bucket.windowEnd());
      final String window =
          bucket.series() + " " + bucket.granularity() + "@" + bucket.windowStart();
      final ValueSketch sketch = bucket.extras().sketch();
      assertThat(sketch).as(window).isEqualTo(ValueSketch.of(held, Measurement::value, accuracy));
      assertThat(sketch.count()).as(window).isEqualTo(bucket.window().count());
      cut += bucket.buckets() > 1 ? 1 : 0;
      if (bucket.granularity().equals(MINUTE)) {
        minuteSketches.put(bucket.series() + "@" + bucket.windowStart(), sketch);
      }
    }
    for (final ClosedBucket hour :
        latest.values().stream().filter(b -> b.granularity().equals(HOUR)).toList()) {
      final List<ValueSketch> parts = new ArrayList<>();
      for (final ClosedBucket part :
          latest.values().stream()
              .filter(b -> b.granularity().equals(HOUR))
              .filter(b -> b.series().equals(hour.series()))
              .filter(b -> b.windowStart() == hour.windowStart())
              .toList()) {
        for (final WindowSummary summary : part.summaries()) {
          assertThat(summary.sketch())
              .as("summary %s of %s", summary.start(), hour.series())
              .isEqualTo(minuteSketches.get(hour.series() + "@" + summary.start()));
          parts.add(summary.sketch());
        }
      }
      assertThat(hour.extras().sketch())
          .isEqualTo(ValueSketch.mergeAll(ACCURACIES.of(hour.series()).getAsDouble(), parts));
    }
    assertThat(cut).as("windows written in several parts").isPositive();
  }

  /**
   * Two series of three hours of irregular readings each, sent interleaved in time order but for
   * one reading in twenty held back 40 to 100 seconds (past its minute's close, so late merged) and
   * one in fifteen sent twice (a resend, counted once).
   */
  private static List<ClosedBucket> run(
      final SplittableRandom random,
      final SketchAccuracies accuracies,
      final Map<SeriesKey, List<Measurement>> sent) {
    final WindowLifecycle lifecycle =
        LifecycleRuns.restored(
            LifecycleRuns.settings(
                List.of(MINUTE, HOUR),
                new BucketLayout(5, 7, Set.of()),
                TimeWeightings.DEFAULT,
                accuracies),
            TEN);
    final List<ClosedBucket> emitted = new ArrayList<>();
    for (final SeriesKey series : List.of(TEMPERATURE, POWER)) {
      final List<Measurement> readings =
          IrregularReadings.of(random, TEN, Duration.ofHours(3).toMillis());
      sent.put(series, readings);
      final List<Measurement> heldBack = new ArrayList<>();
      for (final Measurement reading : readings) {
        while (!heldBack.isEmpty()
            && heldBack.get(0).timestamp() + 100_000 <= reading.timestamp()) {
          lifecycle.accept(series, heldBack.remove(0), null, TEN, emitted::add);
        }
        if (random.nextInt(20) == 0) {
          heldBack.add(reading);
          continue;
        }
        lifecycle.accept(series, reading, null, TEN, emitted::add);
        if (random.nextInt(15) == 0) {
          assertThat(lifecycle.accept(series, reading, null, TEN, emitted::add))
              .isEqualTo(WindowLifecycle.Outcome.RESENT);
        }
      }
      for (final Measurement reading : heldBack) {
        lifecycle.accept(series, reading, null, TEN, emitted::add);
      }
    }
    lifecycle.closeIdleSeries(TEN + Duration.ofHours(12).toMillis(), emitted::add);
    return emitted;
  }

  /** The readings of [start, end), one per timestamp, the last sent winning (keep-last). */
  private static List<Measurement> heldIn(
      final List<Measurement> all, final long start, final long end) {
    final Map<Long, Measurement> byTime = new LinkedHashMap<>();
    for (final Measurement reading : all) {
      if (reading.timestamp() >= start && reading.timestamp() < end) {
        byTime.put(reading.timestamp(), reading);
      }
    }
    return new ArrayList<>(byTime.values());
  }
}
