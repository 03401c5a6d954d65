package io.bucketer.windows;

import static org.assertj.core.api.Assertions.assertThat;

import io.bucketer.buckets.BucketLayout;
import io.bucketer.buckets.BucketStats;
import io.bucketer.buckets.ClosedBucket;
import io.bucketer.buckets.ExpectedIntervals;
import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.Measurement;
import io.bucketer.buckets.RollupPlan;
import io.bucketer.buckets.SeriesKey;
import io.bucketer.buckets.SketchAccuracies;
import io.bucketer.buckets.TimeWeightings;
import io.bucketer.buckets.WindowQuality;
import io.bucketer.windows.HeldReadings.HeldReading;
import io.bucketer.windows.WindowLifecycle.Outcome;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Finding the reading a window holds at a time, and what a second reading at it does. */
class HeldReadingsTest {

  private static final Granularity MINUTE = Granularity.parse("1m");
  private static final Granularity HOUR = Granularity.parse("1h");
  private static final SeriesKey SERIES = new SeriesKey("s1", "temperature");
  private static final long TEN = Instant.parse("2025-06-01T10:00:00Z").toEpochMilli();

  private final InMemoryWindowStore store = new InMemoryWindowStore();
  private final List<ClosedBucket> emitted = new ArrayList<>();

  private HeldReadings heldReadings(final DuplicateTimestamps policy) {
    final RollupPlan plan = new RollupPlan(List.of(MINUTE, HOUR));
    return new HeldReadings(
        store,
        new WindowTimes(plan, Duration.ofSeconds(10), Duration.ofHours(2)),
        new WindowBuckets(
            store,
            plan,
            BucketLayout.finestKeepsMeasurements(1000),
            TimeWeightings.DEFAULT,
            SketchAccuracies.DEFAULT,
            ExpectedIntervals.NONE),
        policy);
  }

  /**
   * The minute of ten with readings at 10:00:01 and 10:00:02 sealed off in run 0, and 10:00:03 and
   * 10:00:04 in its tail, all of value 1.
   */
  private WindowState minuteWithASealedRun() {
    store.putSealedRun(
        SERIES, TEN, 0, ReadingRun.of(new long[] {TEN + 1_000, TEN + 2_000}, new double[] {1, 1}));
    final ReadingRun tail =
        ReadingRun.of(new long[] {TEN + 3_000, TEN + 4_000}, new double[] {1, 1});
    final List<Measurement> all = new ArrayList<>();
    for (int second = 1; second <= 4; second++) {
      all.add(new Measurement(TEN + second * 1_000L, 1));
    }
    final WindowState minute =
        new WindowState(BucketStats.ofAll(all, null), false, 0, 1, tail, WindowQuality.NONE);
    store.put(SERIES, MINUTE, TEN, minute);
    return minute;
  }

  @Test
  void shouldTellAReadingOutsideTheWindowsTimesFromItsStatsAlone() {
    final WindowState minute = minuteWithASealedRun();
    final HeldReadings heldReadings = heldReadings(DuplicateTimestamps.KEEP_LAST);

    assertThat(heldReadings.heldAt(SERIES, TEN, minute, TEN + 5_000)).isNull();
    assertThat(heldReadings.heldAt(SERIES, TEN, minute, TEN)).isNull();
    assertThat(store.sealedRunReads).isZero();
  }

  @Test
  void shouldFindAHeldReadingInTheTailBeforeTheSealedRuns() {
    final WindowState minute = minuteWithASealedRun();
    final HeldReadings heldReadings = heldReadings(DuplicateTimestamps.KEEP_LAST);

    assertThat(heldReadings.heldAt(SERIES, TEN, minute, TEN + 3_000))
        .isEqualTo(new HeldReading(null, 0, 1.0));
    assertThat(store.sealedRunReads).isZero();

    final HeldReading sealed = heldReadings.heldAt(SERIES, TEN, minute, TEN + 2_000);
    assertThat(sealed.run().number()).isZero();
    assertThat(sealed.index()).isEqualTo(1);
    assertThat(store.sealedRunReads).isEqualTo(1);
    // between the readings held, at no time of theirs
    assertThat(heldReadings.heldAt(SERIES, TEN, minute, TEN + 2_500)).isNull();
  }

  @Test
  void shouldReplaceAValueInASealedRunAndRestateTheWindowFromEveryReading() {
    final WindowState minute = minuteWithASealedRun();
    final HeldReadings heldReadings = heldReadings(DuplicateTimestamps.KEEP_LAST);
    final Measurement correction = new Measurement(TEN + 2_000, 9.0);

    final Outcome outcome =
        heldReadings.resolve(
            SERIES,
            TEN,
            minute,
            heldReadings.heldAt(SERIES, TEN, minute, correction.timestamp()),
            correction,
            null,
            emitted::add);

    assertThat(outcome).isEqualTo(Outcome.REPLACED);
    assertThat(store.sealedRuns(SERIES, TEN, TEN).get(0).readings().value(1)).isEqualTo(9.0);
    final WindowState replaced = store.get(SERIES, MINUTE, TEN);
    assertThat(replaced.stats().count()).isEqualTo(4);
    assertThat(replaced.stats().sum()).isEqualTo(12.0);
    assertThat(replaced.stats().max()).isEqualTo(9.0);
    assertThat(replaced.revision()).isZero(); // open: nothing was emitted yet
    assertThat(emitted).isEmpty();
  }

  @Test
  void shouldLeaveTheStoreAloneForAResendOrWhenTheFirstValueIsKept() {
    final WindowState minute = minuteWithASealedRun();
    final int putsBefore = store.puts;
    final Measurement resent = new Measurement(TEN + 3_000, 1.0);
    final Measurement other = new Measurement(TEN + 3_000, 5.0);
    final HeldReading held =
        heldReadings(DuplicateTimestamps.KEEP_LAST).heldAt(SERIES, TEN, minute, TEN + 3_000);

    assertThat(
            heldReadings(DuplicateTimestamps.KEEP_LAST)
                .resolve(SERIES, TEN, minute, held, resent, null, emitted::add))
        .isEqualTo(Outcome.RESENT);
    assertThat(
            heldReadings(DuplicateTimestamps.KEEP_FIRST)
                .resolve(SERIES, TEN, minute, held, other, null, emitted::add))
        .isEqualTo(Outcome.KEPT_FIRST);
    assertThat(store.puts).isEqualTo(putsBefore);
    assertThat(emitted).isEmpty();
  }
}
