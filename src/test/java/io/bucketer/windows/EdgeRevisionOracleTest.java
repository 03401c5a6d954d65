package io.bucketer.windows;

import static org.assertj.core.api.Assertions.assertThat;

import io.bucketer.buckets.BucketLayout;
import io.bucketer.buckets.ClosedBucket;
import io.bucketer.buckets.ExpectedIntervals;
import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.Interpolation;
import io.bucketer.buckets.Measurement;
import io.bucketer.buckets.SeriesKey;
import io.bucketer.buckets.SketchAccuracies;
import io.bucketer.buckets.TimeWeighting;
import io.bucketer.buckets.TimeWeightings;
import io.bucketer.buckets.WindowComputations;
import io.bucketer.buckets.WindowSummary;
import io.bucketer.testing.IrregularReadings;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Late readings, resends and replaced values move the edges of the windows next to theirs: with
 * step interpolation a reading that becomes the last of its window moves the next window's leading
 * edge; with linear interpolation a reading that becomes the first of its window also moves the
 * trailing edge of the window before. Whatever order the readings arrive in, each window's last
 * revision carries the time-weighted part that an independent computation finds from the readings
 * as they finally stand, on every {@code seq} part and every summary; and every bucket emitted
 * carries the resends and late readings that {@link QualityOracle} counts in the deliveries up to
 * its emission.
 */
class EdgeRevisionOracleTest {

  private static final Granularity MINUTE = Granularity.parse("1m");
  private static final Granularity HOUR = Granularity.parse("1h");
  private static final long TEN = Instant.parse("2025-06-01T10:00:00Z").toEpochMilli();
  private static final SeriesKey TEMPERATURE = new SeriesKey("s1", "temperature");
  private static final SeriesKey FLOW = new SeriesKey("s1", "flow");
  private static final TimeWeightings WEIGHTINGS =
      new TimeWeightings(
          new TimeWeighting(45_000, Interpolation.STEP),
          Map.of("flow", new TimeWeighting(180_000, Interpolation.LINEAR)));

  @Test
  void shouldReviseTheWindowsWhoseEdgesLateReadingsMove() {
    final Map<SeriesKey, Integer> edgeRevisions = new HashMap<>();
    final long[] qualitySeen = new long[2];
    for (int seed = 1; seed <= 6; seed++) {
      checkRun(seed, edgeRevisions, qualitySeen);
    }
    assertThat(qualitySeen[0]).as("resends counted in emitted windows").isPositive();
    assertThat(qualitySeen[1]).as("late readings counted in emitted windows").isPositive();
    assertThat(edgeRevisions.get(TEMPERATURE))
        .as("step windows emitted again only for an edge")
        .isPositive();
    assertThat(edgeRevisions.get(FLOW))
        .as("linear windows emitted again only for an edge")
        .isPositive();
  }

  private static void checkRun(
      final int seed, final Map<SeriesKey, Integer> edgeRevisions, final long[] qualitySeen) {
    final SplittableRandom random = new SplittableRandom(seed);
    // Five measurements and seven summaries per document: busy minutes and hours are cut in parts.
    // Every metric learns its expected interval: each window's is the median of its final
    // readings' intervals.
    final WindowLifecycle lifecycle =
        LifecycleRuns.restored(
            new WindowLifecycle.Settings(
                List.of(MINUTE, HOUR),
                Duration.ofSeconds(10),
                Duration.ofSeconds(30),
                Duration.ofHours(2),
                new BucketLayout(5, 7, Set.of()),
                DuplicateTimestamps.KEEP_LAST,
                new WindowComputations(
                    WEIGHTINGS,
                    SketchAccuracies.DEFAULT,
                    new ExpectedIntervals(ExpectedIntervals.LEARNED, Map.of()))),
            TEN);
    final List<ClosedBucket> emitted = new ArrayList<>();
    for (final SeriesKey series : List.of(TEMPERATURE, FLOW)) {
      final QualityOracle quality = new QualityOracle(List.of(MINUTE, HOUR), 10_000);
      final Deliveries deliveries = new Deliveries(random, quality, series + " seed " + seed);
      for (final Measurement reading :
          IrregularReadings.of(random, TEN, Duration.ofHours(3).toMillis())) {
        deliveries.upTo(reading.timestamp(), series, lifecycle, emitted);
        deliveries.send(reading, series, lifecycle, emitted);
      }
      deliveries.upTo(Long.MAX_VALUE, series, lifecycle, emitted);
      lifecycle.closeIdleSeries(TEN + Duration.ofHours(12).toMillis(), emitted::add);
      edgeRevisions.merge(series, checkLastRevisions(series, emitted, deliveries), Integer::sum);
      qualitySeen[0] += quality.resendsSeen();
      qualitySeen[1] += quality.lateReadingsSeen();
      emitted.clear();
    }
  }

  /**
   * Checks every window's last revision against the readings as they finally stand; returns how
   * many minutes were emitted again though no reading of theirs changed after they closed.
   */
  private static int checkLastRevisions(
      final SeriesKey series, final List<ClosedBucket> emitted, final Deliveries deliveries) {
    final List<Measurement> all = deliveries.finalReadings();
    final TimeWeighting how = WEIGHTINGS.of(series);
    final Map<String, List<ClosedBucket>> lastRevision = new HashMap<>();
    for (final ClosedBucket bucket : emitted) {
      final List<ClosedBucket> parts =
          lastRevision.computeIfAbsent(
              bucket.granularity() + "@" + bucket.windowStart(), w -> new ArrayList<>());
      if (!parts.isEmpty() && parts.get(0).revision() < bucket.revision()) {
        parts.clear();
      }
      parts.add(bucket);
    }
    int edgeOnly = 0;
    for (final Map.Entry<String, List<ClosedBucket>> window : lastRevision.entrySet()) {
      for (final ClosedBucket bucket : window.getValue()) {
        final String what = series + " " + window.getKey() + " rev " + bucket.revision();
        final long start = bucket.windowStart();
        assertThat(bucket.extras().carryIn())
            .as(what)
            .isEqualTo(TimeWeightChecks.carryIn(all, start, how));
        TimeWeightChecks.assertMatches(
            bucket.extras().timeWeighted(), all, start, bucket.windowEnd(), how, what);
        assertThat(bucket.extras().learnedIntervalMillis())
            .as(what + " learned interval")
            .isEqualTo(medianInterval(all, start, bucket.windowEnd(), how));
        for (final WindowSummary summary : bucket.summaries()) {
          TimeWeightChecks.assertMatches(
              summary.timeWeighted(),
              all,
              summary.start(),
              summary.end(),
              how,
              what + " summary " + summary.start());
        }
      }
      final ClosedBucket first = window.getValue().get(0);
      if (first.granularity().equals(MINUTE)
          && first.revision() > 0
          && !deliveries.changedLateIn(first.windowStart(), first.windowEnd())) {
        edgeOnly++;
      }
    }
    return edgeOnly;
  }

  /**
   * The median of the intervals between the readings of {@code [start, end)} and the one carried
   * into it, the lower of the two middle ones; null for fewer than two.
   */
  private static Long medianInterval(
      final List<Measurement> all, final long start, final long end, final TimeWeighting how) {
    final List<Long> times = new ArrayList<>();
    final Measurement carryIn = TimeWeightChecks.carryIn(all, start, how);
    if (carryIn != null) {
      times.add(carryIn.timestamp());
    }
    all.stream()
        .filter(reading -> reading.timestamp() >= start && reading.timestamp() < end)
        .forEach(reading -> times.add(reading.timestamp()));
    final List<Long> intervals = new ArrayList<>();
    for (int i = 1; i < times.size(); i++) {
      intervals.add(times.get(i) - times.get(i - 1));
    }
    intervals.sort(null);
    return intervals.isEmpty() ? null : intervals.get((intervals.size() - 1) / 2);
  }

  /**
   * Sends a series' readings, holding some back to send them late, and sending some again later,
   * with their value or another one.
   */
  private static final class Deliveries {
    private final SplittableRandom random;
    private final QualityOracle quality;
    private final String what;
    private final PriorityQueue<long[]> held =
        new PriorityQueue<>((a, b) -> Long.compare(a[0], b[0]));
    private final Map<Long, Double> heldValues = new HashMap<>();
    private final TreeMap<Long, Double> finalValues = new TreeMap<>();
    private final java.util.TreeSet<Long> sentLate = new java.util.TreeSet<>();
    private long sequence;

    Deliveries(final SplittableRandom random, final QualityOracle quality, final String what) {
      this.random = random;
      this.quality = quality;
      this.what = what;
    }

    /** Sends {@code reading} now, or holds it back for 70 s to 30 min of event time. */
    void send(
        final Measurement reading,
        final SeriesKey series,
        final WindowLifecycle lifecycle,
        final List<ClosedBucket> emitted) {
      if (random.nextInt(8) == 0) {
        holdBack(reading);
        return;
      }
      deliver(reading, series, lifecycle, emitted);
    }

    /** Sends what was held back to be sent before event time {@code time}. */
    void upTo(
        final long time,
        final SeriesKey series,
        final WindowLifecycle lifecycle,
        final List<ClosedBucket> emitted) {
      while (!held.isEmpty() && held.peek()[0] < time) {
        final long[] next = held.poll();
        final Measurement late = new Measurement(next[1], heldValues.remove(next[2]));
        sentLate.add(late.timestamp());
        deliver(late, series, lifecycle, emitted);
      }
    }

    private void deliver(
        final Measurement reading,
        final SeriesKey series,
        final WindowLifecycle lifecycle,
        final List<ClosedBucket> emitted) {
      quality.delivering(reading);
      final WindowLifecycle.Outcome outcome =
          lifecycle.accept(
              series,
              reading,
              null,
              TEN,
              bucket -> {
                quality.check(bucket, what);
                emitted.add(bucket);
              });
      assertThat(outcome).as("%s", reading).isNotEqualTo(WindowLifecycle.Outcome.TOO_LATE);
      finalValues.put(reading.timestamp(), reading.value());
      final int again = random.nextInt(20);
      if (again == 0) {
        holdBack(reading); // a resend
      } else if (again == 1) {
        holdBack(new Measurement(reading.timestamp(), reading.value() + 1.5)); // a new value
      }
    }

    private void holdBack(final Measurement reading) {
      final long key = sequence++;
      heldValues.put(key, reading.value());
      held.add(
          new long[] {
            reading.timestamp() + random.nextLong(70_000, 1_800_000), reading.timestamp(), key
          });
    }

    /** Each time's last value sent, in time order: the readings as they finally stand. */
    List<Measurement> finalReadings() {
      final List<Measurement> readings = new ArrayList<>();
      finalValues.forEach((time, value) -> readings.add(new Measurement(time, value)));
      return readings;
    }

    /** Whether a reading of {@code [start, end)} was sent from the held-back ones. */
    boolean changedLateIn(final long start, final long end) {
      return !sentLate.subSet(start, end).isEmpty();
    }
  }
}
