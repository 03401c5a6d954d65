package io.bucketer.windows;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.assertj.core.api.Assertions.within;

import io.bucketer.buckets.BucketLayout;
import io.bucketer.buckets.BucketStats;
import io.bucketer.buckets.ClosedBucket;
import io.bucketer.buckets.ExpectedIntervals;
import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.Interpolation;
import io.bucketer.buckets.Measurement;
import io.bucketer.buckets.SeriesKey;
import io.bucketer.buckets.TimeWeighted;
import io.bucketer.buckets.TimeWeighting;
import io.bucketer.buckets.TimeWeightings;
import io.bucketer.buckets.WindowComputations;
import io.bucketer.buckets.WindowExtras;
import io.bucketer.buckets.WindowQuality;
import io.bucketer.buckets.WindowSummary;
import io.bucketer.windows.WindowLifecycle.Outcome;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The window lifecycle alone, over sorted maps: no Kafka, no serialisation. */
class WindowLifecycleTest {

  private static final Granularity MINUTE = Granularity.parse("1m");
  private static final Granularity HOUR = Granularity.parse("1h");
  private static final SeriesKey SERIES = new SeriesKey("s1", "temperature");
  private static final long TEN = Instant.parse("2025-06-01T10:00:00Z").toEpochMilli();
  private static final long WALL_CLOCK = TEN + 3_600_000L;
  private static final WindowLifecycle.Settings SETTINGS =
      new WindowLifecycle.Settings(
          List.of(MINUTE, HOUR),
          Duration.ofSeconds(10),
          Duration.ofSeconds(30),
          Duration.ofHours(2),
          BucketLayout.finestKeepsMeasurements(1000));

  private final InMemoryWindowStore store = new InMemoryWindowStore();
  private final List<ClosedBucket> emitted = new ArrayList<>();
  private long openWindows;
  private WindowLifecycle lifecycle = started();

  private WindowLifecycle started() {
    final WindowLifecycle started =
        new WindowLifecycle(SETTINGS, store, delta -> openWindows += delta);
    started.restore(WALL_CLOCK);
    return started;
  }

  private Outcome send(final long timestamp, final double value) {
    return lifecycle.accept(
        SERIES, new Measurement(timestamp, value), null, WALL_CLOCK, emitted::add);
  }

  private static long at(final int minute, final int second) {
    return TEN + minute * 60_000L + second * 1_000L;
  }

  @Test
  void shouldCloseAMinuteOnceItsSeriesClockPassesEndPlusGrace() {
    send(at(0, 30), 2.0);
    send(at(0, 5), 1.0); // out of order within the window
    send(at(1, 9), 3.0); // clock 10:01:09: the minute's end + grace is 10:01:10
    assertThat(emitted).isEmpty();

    send(at(1, 10), 4.0); // close [10:00, 10:01)

    assertThat(emitted).hasSize(1);
    final ClosedBucket minute = emitted.get(0);
    assertThat(minute.windowStart()).isEqualTo(TEN);
    assertThat(minute.measurements())
        .containsExactly(new Measurement(at(0, 5), 1.0), new Measurement(at(0, 30), 2.0));
    assertThat(minute.stats().sum()).isEqualTo(3.0);
    assertThat(minute.revision()).isZero();
  }

  @Test
  void shouldRollMinutesUpIntoAnHourThatHoldsTheirSummaries() {
    final List<Measurement> sent = sendAnHourEverySevenSeconds();

    final List<ClosedBucket> hours = emittedOf(HOUR);
    final List<ClosedBucket> minutes = emittedOf(MINUTE);
    assertThat(hours).hasSize(1);
    assertThat(minutes).hasSize(60);
    final ClosedBucket hour = hours.get(0);
    assertThat(hour.measurements()).isEmpty();
    assertThat(hour.summaries())
        .extracting(WindowSummary::start, WindowSummary::stats)
        .containsExactlyElementsOf(
            minutes.stream().map(minute -> tuple(minute.windowStart(), minute.stats())).toList());
    final BucketStats expected = BucketStats.ofAll(sent, null);
    assertThat(hour.stats().count()).isEqualTo(expected.count());
    assertThat(hour.stats().first()).isEqualTo(expected.first());
    assertThat(hour.stats().last()).isEqualTo(expected.last());
    assertThat(hour.stats().standardDeviation())
        .isCloseTo(expected.standardDeviation(), within(1e-9));
  }

  @Test
  void shouldCarryTheLastReadingIntoTheNextMinuteWithReadingsAcrossAnEmptyOne() {
    send(at(0, 50), 2.0);
    send(at(2, 30), 4.0); // nothing in 10:01; its hold crosses it
    send(at(3, 10), 5.0); // closes 10:02

    final List<ClosedBucket> minutes = emittedOf(MINUTE);
    assertThat(minutes).extracting(ClosedBucket::windowStart).containsExactly(TEN, at(2, 0));
    final WindowExtras first = minutes.get(0).extras();
    final WindowExtras third = minutes.get(1).extras();
    assertThat(first.carryIn()).isNull();
    assertThat(first.timeWeighted())
        .isEqualTo(new TimeWeighted(10_000, 20_000, 1, 50_000, 50_000, 0));
    // the default max gap of 5 minutes: 10:00:50 holds until 10:02:30
    assertThat(third.carryIn()).isEqualTo(new Measurement(at(0, 50), 2.0));
    assertThat(third.timeWeighted())
        .isEqualTo(new TimeWeighted(60_000, 2.0 * 30_000 + 4.0 * 30_000, 0, 0, 0, 0));
    assertThat(third.weighting()).isEqualTo(new TimeWeighting(300_000));

    lifecycle.closeIdleSeries(WALL_CLOCK + Duration.ofHours(3).toMillis(), emitted::add);

    final ClosedBucket hour = emittedOf(HOUR).get(0);
    // 10:00:50 to 10:03:10 held by the first two, then 10:03:10 for 5 minutes, to 10:08:10
    assertThat(hour.extras().timeWeighted())
        .isEqualTo(
            new TimeWeighted(
                100_000 + 40_000 + 300_000,
                2.0 * 100_000 + 4.0 * 40_000 + 5.0 * 300_000,
                2,
                3_600_000 - 490_000,
                50_000,
                3_600_000 - 490_000));
    assertThat(hour.summaries())
        .extracting(WindowSummary::timeWeighted)
        .containsExactly(
            first.timeWeighted(),
            third.timeWeighted(),
            new TimeWeighted(60_000, 5.0 * 50_000 + 4.0 * 10_000, 0, 0, 0, 0));
  }

  /**
   * {@code window.carry_in} is the series' last reading before the window when it is less than the
   * max gap before the window's start, also when the window's first reading falls on its start, so
   * that its hold covers nothing of the window; a reading exactly the max gap before the start is
   * not carried in (bucket-document.md).
   */
  @Test
  void shouldCarryInTheLastReadingWithinTheMaxGapOfTheStartEvenWhenAReadingFallsOnTheStart() {
    send(at(0, 50), 2.0);
    send(at(1, 0), 3.0); // on 10:01's start: 10:00:50's hold ends there
    send(at(2, 0), 3.5);
    send(at(7, 0), 4.0); // 10:02:00 + the 5-minute max gap is exactly 10:07's start
    send(at(8, 30), 5.0); // closes 10:07

    final List<ClosedBucket> minutes = emittedOf(MINUTE);
    assertThat(minutes)
        .extracting(ClosedBucket::windowStart)
        .containsExactly(TEN, at(1, 0), at(2, 0), at(7, 0));
    final WindowExtras onTheStart = minutes.get(1).extras();
    assertThat(onTheStart.carryIn()).isEqualTo(new Measurement(at(0, 50), 2.0));
    assertThat(onTheStart.timeWeighted())
        .as("covered from its start by its own first reading, nothing by the one carried in")
        .isEqualTo(new TimeWeighted(60_000, 3.0 * 60_000, 0, 0, 0, 0));
    assertThat(minutes.get(2).extras().carryIn()).isEqualTo(new Measurement(at(1, 0), 3.0));
    assertThat(minutes.get(3).extras().carryIn()).isNull();
  }

  /** Starts the lifecycle again on the same store with {@code granularities}, as a restart does. */
  private void restartWith(final Granularity... granularities) {
    lifecycle =
        new WindowLifecycle(
            new WindowLifecycle.Settings(
                List.of(granularities),
                SETTINGS.grace(),
                SETTINGS.idleTimeout(),
                SETTINGS.latenessHorizon(),
                SETTINGS.layout()),
            store,
            delta -> {});
    lifecycle.restore(WALL_CLOCK);
  }

  /** Sends a reading every ten seconds in {@code [from, to)}, valued by its time. */
  private void sendEveryTenSeconds(final long from, final long to, final Map<Long, Double> sent) {
    for (long t = from; t < to; t += 10_000) {
      final double value = 20.0 + (t / 1_000) % 7;
      send(t, value);
      sent.put(t, value);
    }
  }

  private static Map<Long, Double> sentBetween(
      final Map<Long, Double> sent, final long from, final long to) {
    return sent.entrySet().stream()
        .filter(reading -> reading.getKey() >= from && reading.getKey() < to)
        .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
  }

  /**
   * A granularity added to a running deployment: the processor restarts on its state with hours
   * added to minutes. The hour that spans the restart is not written: it is left to {@code bucketer
   * backfill}, since the stream cannot tell whether what it holds of the hour is whole. Every
   * minute is written, and the next hour, whole.
   */
  @Test
  void shouldLeaveTheHourThatSpansTheRestartToBackfillAndWriteTheNextWhole() {
    final Map<Long, Double> sent = new TreeMap<>();
    restartWith(MINUTE);
    sendEveryTenSeconds(at(0, 0), at(30, 0), sent);
    restartWith(MINUTE, HOUR);
    sendEveryTenSeconds(at(30, 0), at(121, 0), sent);

    assertThat(emittedOf(MINUTE)).hasSize(120);
    assertThat(emittedOf(MINUTE).stream().mapToLong(minute -> minute.stats().count()).sum())
        .isEqualTo(sentBetween(sent, at(0, 0), at(120, 0)).size());
    final List<ClosedBucket> hours = emittedOf(HOUR);
    assertThat(hours).extracting(ClosedBucket::windowStart).containsExactly(at(60, 0));
    assertThat(hours.get(0).window().count()).isEqualTo(360);
    assertThat(hours.get(0).summaries()).hasSize(60);
  }

  /** After hours were added: a late reading in an hour left to backfill changes its minute only. */
  @Test
  void shouldMergeALateReadingIntoItsMinuteOnlyWhenItsHourIsLeftToBackfill() {
    restartWith(MINUTE);
    sendEveryTenSeconds(at(0, 0), at(70, 0), new TreeMap<>());
    restartWith(MINUTE, HOUR);
    send(at(70, 5), 21.0);
    emitted.clear();

    assertThat(send(at(5, 5), 22.0)).isEqualTo(Outcome.LATE_MERGED);

    assertThat(emitted).extracting(ClosedBucket::granularity).containsExactly(MINUTE);
    assertThat(emitted.get(0).revision()).isEqualTo(1);
    assertThat(emitted.get(0).stats().count()).isEqualTo(7);
  }

  /**
   * Quarter hours added below hours while an hour is under way: the hour, which counted the minutes
   * before the restart itself, counts the minutes of the quarters left to backfill and the quarters
   * written after them, each once; late readings and replaced values keep it true.
   */
  @Test
  void shouldCountEveryReadingOnceInTheHourWhenQuarterHoursAreAddedBelowIt() {
    final Granularity quarter = Granularity.parse("15m");
    final Map<Long, Double> sent = new TreeMap<>();
    restartWith(MINUTE, HOUR);
    sendEveryTenSeconds(at(0, 0), at(37, 0), sent);
    restartWith(MINUTE, quarter, HOUR);
    sendEveryTenSeconds(at(37, 0), at(50, 0), sent);
    assertThat(send(at(40, 5), 100.0)).isEqualTo(Outcome.LATE_MERGED);
    sent.put(at(40, 5), 100.0);
    assertThat(send(at(40, 0), 50.0)).isEqualTo(Outcome.REPLACED); // while the hour is open
    sent.put(at(40, 0), 50.0);
    sendEveryTenSeconds(at(50, 0), at(121, 0), sent);
    assertThat(send(at(50, 0), 60.0)).isEqualTo(Outcome.REPLACED); // after it closed
    sent.put(at(50, 0), 60.0);

    assertThat(emittedOf(quarter).stream().map(ClosedBucket::windowStart).distinct())
        .containsExactly(at(45, 0), at(60, 0), at(75, 0), at(90, 0), at(105, 0));
    final List<ClosedBucket> firstHour =
        emittedOf(HOUR).stream().filter(hour -> hour.windowStart() == TEN).toList();
    final ClosedBucket latest = firstHour.get(firstHour.size() - 1);
    final Map<Long, Double> ofFirstHour = sentBetween(sent, at(0, 0), at(60, 0));
    assertThat(latest.window().count()).isEqualTo(ofFirstHour.size());
    assertThat(latest.window().sum())
        .isCloseTo(ofFirstHour.values().stream().mapToDouble(v -> v).sum(), within(1e-9));
    assertThat(latest.revision()).isEqualTo(1);
    final ClosedBucket secondHour =
        emittedOf(HOUR).stream().filter(hour -> hour.windowStart() == at(60, 0)).findFirst().get();
    assertThat(secondHour.summaries()).hasSize(4);
    assertThat(secondHour.window().count()).isEqualTo(360);
  }

  /**
   * Readings in any order a repartitioned stream can give (each moved up to 200 places, every ninth
   * held back until the windows closed on the wall clock, some resent), across three hours: the
   * last document of every minute and every hour counts each reading once, but those held back past
   * the lateness horizon.
   */
  @Test
  void shouldCountEveryReadingOnceWhateverTheArrivalOrder() {
    for (int seed = 0; seed < 40; seed++) {
      final SplittableRandom random = new SplittableRandom(seed);
      final List<long[]> arrivals = new ArrayList<>(); // {position, time}
      final List<Long> heldBack = new ArrayList<>();
      for (long t = TEN; t < TEN + 3 * 3_600_000L; t += 5_000 + random.nextLong(0, 20_000)) {
        if (random.nextInt(9) == 0) {
          heldBack.add(t);
        } else {
          arrivals.add(new long[] {arrivals.size() + random.nextLong(0, 200), t});
        }
      }
      arrivals.sort(Comparator.comparingLong(arrival -> arrival[0]));
      final InMemoryWindowStore fresh = new InMemoryWindowStore();
      final List<ClosedBucket> out = new ArrayList<>();
      final WindowLifecycle life = new WindowLifecycle(SETTINGS, fresh, delta -> {});
      life.restore(WALL_CLOCK);
      final List<Long> sent = new ArrayList<>();
      for (final long[] arrival : arrivals) {
        life.accept(SERIES, new Measurement(arrival[1], 1.0), null, WALL_CLOCK, out::add);
        sent.add(arrival[1]);
        if (random.nextInt(10) == 0) {
          life.accept(SERIES, new Measurement(arrival[1], 1.0), null, WALL_CLOCK, out::add);
        }
      }
      final long later = TEN + 4 * 3_600_000L;
      life.closeIdleSeries(later, out::add);
      for (final long t : heldBack) {
        if (life.accept(SERIES, new Measurement(t, 1.0), null, later, out::add)
            != Outcome.TOO_LATE) {
          sent.add(t);
        }
      }
      for (final Granularity granularity : List.of(MINUTE, HOUR)) {
        final Map<Long, Long> expected =
            sent.stream()
                .collect(Collectors.groupingBy(granularity::windowStart, Collectors.counting()));
        final Map<Long, Long> written = new TreeMap<>();
        out.stream()
            .filter(bucket -> bucket.granularity().equals(granularity))
            .forEach(bucket -> written.put(bucket.windowStart(), bucket.window().count()));
        assertThat(written)
            .as("seed " + seed + ", " + granularity)
            .isEqualTo(new TreeMap<>(expected));
      }
    }
  }

  @Test
  void shouldKeepEveryReadingInTheHourWhenTheLayoutSaysSo() {
    lifecycle =
        new WindowLifecycle(
            new WindowLifecycle.Settings(
                SETTINGS.granularities(),
                SETTINGS.grace(),
                SETTINGS.idleTimeout(),
                SETTINGS.latenessHorizon(),
                new BucketLayout(1000, 100, Set.of(HOUR))),
            store,
            delta -> {});

    final List<Measurement> sent = sendAnHourEverySevenSeconds();

    final List<ClosedBucket> hours = emittedOf(HOUR);
    assertThat(hours).hasSize(1);
    assertThat(hours.get(0).measurements()).isEqualTo(sent);
    assertThat(hours.get(0).summaries()).isEmpty();
  }

  @Test
  void shouldKeepTheHoursOfADayUntilTheDayCannotChange() {
    final Granularity day = Granularity.parse("1d");
    lifecycle =
        new WindowLifecycle(
            new WindowLifecycle.Settings(
                List.of(MINUTE, HOUR, day),
                SETTINGS.grace(),
                SETTINGS.idleTimeout(),
                Duration.ofMinutes(30),
                BucketLayout.finestKeepsMeasurements(1000)),
            store,
            delta -> {});
    final long midnight = day.windowStart(TEN);
    for (int hour = 0; hour < 24; hour++) {
      send(midnight + hour * 3_600_000L + 1_000, hour);
    }
    send(midnight + 86_400_000L + 20_000, 0.0); // closes the day

    final List<ClosedBucket> days = emittedOf(day);
    assertThat(days).hasSize(1);
    assertThat(days.get(0).summaries()).hasSize(24);
    assertThat(days.get(0).summaries())
        .allSatisfy(summary -> assertThat(summary.granularity()).isEqualTo(HOUR));
    assertThat(days.get(0).stats().count()).isEqualTo(24);
  }

  /** Sends a reading every seven seconds for an hour from ten, and one that closes the hour. */
  private List<Measurement> sendAnHourEverySevenSeconds() {
    final List<Measurement> sent = new ArrayList<>();
    for (int second = 0; second < 3_600; second += 7) {
      final Measurement reading = new Measurement(TEN + second * 1_000L, second % 13);
      sent.add(reading);
      send(reading.timestamp(), reading.value());
    }
    send(TEN + 3_610_000L, 0.0); // close the hour and its last minute
    return sent;
  }

  private List<ClosedBucket> emittedOf(final Granularity granularity) {
    return emitted.stream().filter(b -> b.granularity().equals(granularity)).toList();
  }

  @Test
  void shouldReEmitALateMinuteAndItsClosedHourWithAHigherRevision() {
    send(at(0, 5), 1.0);
    send(at(70, 0), 1.0); // closes 10:00 and the hour of 10
    emitted.clear();

    final Outcome outcome = send(at(0, 50), 5.0);

    assertThat(outcome).isEqualTo(Outcome.LATE_MERGED);
    assertThat(emitted).extracting(ClosedBucket::granularity).containsExactly(MINUTE, HOUR);
    assertThat(emitted).allSatisfy(bucket -> assertThat(bucket.revision()).isEqualTo(1));
    assertThat(emitted).allSatisfy(bucket -> assertThat(bucket.stats().count()).isEqualTo(2));
    // the hour's summary of that minute is the minute as re-emitted
    assertThat(emitted.get(1).summaries()).hasSize(1);
    assertThat(emitted.get(1).summaries().get(0).stats()).isEqualTo(emitted.get(0).stats());
  }

  @Test
  void shouldCountAResentReadingOnceWhileItsWindowIsOpen() {
    send(at(0, 5), 1.0);
    send(at(0, 6), 2.0);

    assertThat(send(at(0, 5), 1.0)).isEqualTo(Outcome.RESENT);
    assertThat(send(at(0, 6), 2.0)).isEqualTo(Outcome.RESENT);
    send(at(1, 10), 0.0);

    assertThat(emitted).hasSize(1);
    assertThat(emitted.get(0).measurements())
        .containsExactly(new Measurement(at(0, 5), 1.0), new Measurement(at(0, 6), 2.0));
    assertThat(emitted.get(0).stats().count()).isEqualTo(2);
  }

  @Test
  void shouldEmitNothingAgainForAReadingResentAfterItsWindowClosedButCountIt() {
    send(at(0, 5), 1.0);
    send(at(70, 0), 1.0); // closes 10:00 and the hour of 10
    emitted.clear();
    final int putsBefore = store.puts;

    assertThat(send(at(0, 5), 1.0)).isEqualTo(Outcome.RESENT);

    assertThat(emitted).isEmpty();
    assertThat(store.puts).as("the minute and the hour count it").isEqualTo(putsBefore + 2);
    assertThat(store.get(SERIES, MINUTE, TEN).quality()).isEqualTo(new WindowQuality(1, 0));
    assertThat(store.get(SERIES, HOUR, TEN).quality()).isEqualTo(new WindowQuality(1, 0));
    assertThat(store.get(SERIES, MINUTE, TEN).revision()).isZero();
  }

  /**
   * Resends and late readings reach a day through its hours and minutes, whichever closed first:
   * every coarser window's counts are the sum of its finer windows', and the expected interval
   * configured for the metric is on each window's extras.
   */
  @Test
  void shouldCountResendsAndLateReadingsInEveryWindowThatHoldsThem() {
    final Granularity day = Granularity.parse("1d");
    lifecycle =
        new WindowLifecycle(
            new WindowLifecycle.Settings(
                List.of(MINUTE, HOUR, day),
                Duration.ofSeconds(10),
                Duration.ofSeconds(30),
                Duration.ofHours(2),
                BucketLayout.finestKeepsMeasurements(1000),
                DuplicateTimestamps.KEEP_LAST,
                WindowComputations.DEFAULT.withExpectedIntervals(
                    new ExpectedIntervals(0, Map.of("temperature", Duration.ofSeconds(5))))),
            store,
            delta -> {});
    lifecycle.restore(WALL_CLOCK);
    send(at(0, 5), 1.0);
    send(at(0, 5), 1.0); // resent while 10:00 is open
    send(at(0, 20), 2.0);
    send(at(2, 0), 3.0); // closes 10:00
    send(at(0, 20), 4.0); // another value, replaced: closed 10:00 and open 10:XX
    send(at(0, 40), 5.0); // late for 10:00
    send(at(61, 0), 6.0); // closes the hour of 10
    send(at(0, 5), 1.0); // resent after the hour closed
    send(at(1, 30), 7.0); // late, into an empty minute of a closed hour
    assertThat(store.get(SERIES, MINUTE, TEN).quality()).isEqualTo(new WindowQuality(3, 1));
    assertThat(store.get(SERIES, MINUTE, at(1, 0)).quality()).isEqualTo(new WindowQuality(0, 1));
    assertThat(store.get(SERIES, HOUR, TEN).quality()).isEqualTo(new WindowQuality(3, 2));
    emitted.clear();
    lifecycle.closeIdleSeries(at(24 * 60 + 5, 0), emitted::add);

    final ClosedBucket closedDay =
        emitted.stream().filter(bucket -> bucket.granularity().equals(day)).findFirst().get();
    assertThat(closedDay.extras().quality()).isEqualTo(new WindowQuality(3, 2));
    assertThat(closedDay.extras().expectedIntervalMillis()).isEqualTo(5_000L);
    assertThat(closedDay.summaries())
        .extracting(summary -> summary.quality())
        .containsExactly(new WindowQuality(3, 2), WindowQuality.NONE);
  }

  @Test
  void shouldFindAResendInTheRunsSealedOffABusyWindow() {
    for (int i = 0; i < 3 * WindowLifecycle.TAIL_CAPACITY; i++) {
      send(TEN + i * 100L, i);
    }
    assertThat(store.sealedRunsOf(SERIES)).isEqualTo(3);

    assertThat(send(TEN + 100L, 1.0)).isEqualTo(Outcome.RESENT);
    assertThat(send(TEN + 150L, 1.5)).isEqualTo(Outcome.ON_TIME); // out of order, not held
    send(at(1, 10), 0.0);

    assertThat(emitted.get(0).stats().count()).isEqualTo(3L * WindowLifecycle.TAIL_CAPACITY + 1);
  }

  @Test
  void shouldKnowAResendAfterARestart() {
    send(at(0, 5), 1.0);
    lifecycle = started();

    assertThat(send(at(0, 5), 1.0)).isEqualTo(Outcome.RESENT);
  }

  @Test
  void shouldReplaceAnEarlierValueAtTheSameTimeWhileTheWindowIsOpen() {
    send(at(0, 5), 1.0);
    send(at(0, 30), 3.0);

    assertThat(send(at(0, 5), 7.0)).isEqualTo(Outcome.REPLACED);
    send(at(1, 10), 0.0);

    final ClosedBucket minute = emitted.get(0);
    assertThat(minute.measurements())
        .containsExactly(new Measurement(at(0, 5), 7.0), new Measurement(at(0, 30), 3.0));
    assertThat(minute.stats())
        .isEqualTo(
            BucketStats.ofAll(
                List.of(new Measurement(at(0, 5), 7.0), new Measurement(at(0, 30), 3.0)), null));
    assertThat(minute.revision()).isZero();
  }

  @Test
  void shouldReplaceAValueInARunSealedOffABusyWindow() {
    for (int i = 0; i < 2 * WindowLifecycle.TAIL_CAPACITY; i++) {
      send(TEN + i * 100L, 1.0);
    }

    assertThat(send(TEN + 100L, 100.0)).isEqualTo(Outcome.REPLACED);
    send(at(1, 10), 0.0);

    assertThat(emitted.get(0).stats().count()).isEqualTo(2L * WindowLifecycle.TAIL_CAPACITY);
    assertThat(emitted.get(0).stats().max()).isEqualTo(100.0);
    assertThat(emitted.get(0).measurements()).contains(new Measurement(TEN + 100L, 100.0));
  }

  /**
   * A closed minute and its closed hour are emitted again, restated: the hour's sums come from its
   * minutes again, so a replaced maximum is gone from them, which no running sum could undo.
   */
  @Test
  void shouldReEmitAClosedMinuteAndItsHourRestatedWhenAValueIsReplaced() {
    send(at(0, 5), 9.0);
    send(at(0, 6), 2.0);
    send(at(1, 5), 4.0);
    send(at(70, 0), 1.0); // closes the minutes of 10:00 and 10:01, and the hour of 10
    emitted.clear();

    assertThat(send(at(0, 5), 3.0)).isEqualTo(Outcome.REPLACED);

    assertThat(emitted).extracting(ClosedBucket::granularity).containsExactly(MINUTE, HOUR);
    assertThat(emitted).allSatisfy(bucket -> assertThat(bucket.revision()).isEqualTo(1));
    final ClosedBucket hour = emitted.get(1);
    assertThat(hour.stats().count()).isEqualTo(3);
    assertThat(hour.stats().max()).isEqualTo(4.0);
    assertThat(hour.stats().sum()).isEqualTo(9.0);
    assertThat(hour.summaries().get(0).stats()).isEqualTo(emitted.get(0).stats());
  }

  /** A granularity no finer one divides takes readings itself: its sums come from them again. */
  @Test
  void shouldRestateAWindowFedByReadingsFromTheReadingsWhenAValueIsReplaced() {
    final Granularity ninetySeconds = Granularity.parse("90s");
    lifecycle =
        new WindowLifecycle(
            new WindowLifecycle.Settings(
                List.of(MINUTE, ninetySeconds),
                SETTINGS.grace(),
                SETTINGS.idleTimeout(),
                SETTINGS.latenessHorizon(),
                SETTINGS.layout()),
            store,
            delta -> {});
    send(at(0, 5), 9.0);
    send(at(0, 6), 2.0);
    send(at(10, 0), 1.0); // closes both windows holding them
    emitted.clear();

    assertThat(send(at(0, 5), 3.0)).isEqualTo(Outcome.REPLACED);

    assertThat(emitted)
        .extracting(ClosedBucket::granularity)
        .containsExactly(MINUTE, ninetySeconds);
    assertThat(emitted.get(1).stats().max()).isEqualTo(3.0);
    assertThat(emitted.get(1).stats().sum()).isEqualTo(5.0);
    assertThat(emitted.get(1).revision()).isEqualTo(1);
  }

  @Test
  void shouldKeepTheFirstValueWhenThePolicySays() {
    lifecycle =
        new WindowLifecycle(
            new WindowLifecycle.Settings(
                SETTINGS.granularities(),
                SETTINGS.grace(),
                SETTINGS.idleTimeout(),
                SETTINGS.latenessHorizon(),
                SETTINGS.layout(),
                DuplicateTimestamps.KEEP_FIRST),
            store,
            delta -> {});
    send(at(0, 5), 1.0);
    send(at(70, 0), 1.0);
    emitted.clear();

    assertThat(send(at(0, 5), 3.0)).isEqualTo(Outcome.KEPT_FIRST);
    assertThat(send(at(70, 0), 3.0)).isEqualTo(Outcome.KEPT_FIRST);

    assertThat(emitted).isEmpty();
    assertThat(store.get(SERIES, MINUTE, TEN).stats().sum()).isEqualTo(1.0);
  }

  @Test
  void shouldCallAReadingTooLateOnceItsWindowsHorizonHasPassed() {
    send(at(0, 5), 1.0);
    send(at(0, 5) + Duration.ofHours(3).toMillis(), 1.0);

    assertThat(send(at(0, 6), 1.0)).isEqualTo(Outcome.TOO_LATE);
    assertThat(lifecycle.clockOf(SERIES)).isEqualTo(at(0, 5) + Duration.ofHours(3).toMillis());
  }

  @Test
  void shouldSealABusyWindowsReadingsInRunsAndEmitThemAllInTimeOrder() {
    final SplittableRandom random = new SplittableRandom(3);
    final List<Measurement> sent = new ArrayList<>();
    final Set<Long> times = new HashSet<>();
    while (sent.size() < 1_000) {
      // distinct times: a second reading at a time already held would replace the first
      final long time = TEN + random.nextLong(0, 60_000);
      if (times.add(time)) {
        final Measurement reading = new Measurement(time, sent.size());
        sent.add(reading);
        send(reading.timestamp(), reading.value());
      }
    }
    assertThat(store.sealedRunsOf(SERIES)).isEqualTo(1_000 / WindowLifecycle.TAIL_CAPACITY);
    assertThat(store.get(SERIES, MINUTE, TEN).tail().size())
        .isEqualTo(1_000 % WindowLifecycle.TAIL_CAPACITY);

    send(at(1, 10), 0.0);

    // a stable sort of the readings as sent: equal times keep their arrival order
    final List<Measurement> expected = new ArrayList<>(sent);
    expected.sort(Comparator.comparingLong(Measurement::timestamp));
    assertThat(emitted).hasSize(1);
    assertThat(emitted.get(0).measurements()).isEqualTo(expected);
  }

  /**
   * Closing a minute that sealed no runs emits its readings from the state the close just wrote:
   * one get finds the window, one the reading it carries in, and nothing else is read back. No
   * range read: in RocksDB one runs on to the next live key, past the tombstones of the next
   * series' expired windows.
   */
  @Test
  void shouldCloseAQuietMinuteWithoutARangeReadNorASealedRunRead() {
    send(TEN - 30_000, -1.0); // the steady state: the series sent in the minute before
    for (int second = 0; second < 60; second++) {
      send(TEN + second * 1_000L, second);
    }
    emitted.clear();
    final int getsBefore = store.gets;
    final int rangesBefore = store.ranges;
    final int sealedRunReadsBefore = store.sealedRunReads;

    send(at(1, 10), 0.0);

    assertThat(emitted).hasSize(1);
    assertThat(emitted.get(0).measurements()).hasSize(60);
    assertThat(store.ranges - rangesBefore).isZero();
    assertThat(store.sealedRunReads - sealedRunReadsBefore).isZero();
    // the closing minute, the hour the closed minute rolls up into, and the minute before it,
    // whose last reading it carries in; not the new minute, which starts after the clock's
    assertThat(store.gets - getsBefore).isEqualTo(3);
  }

  /**
   * No window of a series starts after the window of its clock, so the reading that opens the next
   * minute does not look it up: at live traffic that was a read of a missing key for every window a
   * minute opens. A clock derived again after a restart knows it as well; a series without state
   * looks its window up.
   */
  @Test
  void shouldOpenTheMinuteAfterItsSeriesClocksWithoutLookingItUp() {
    send(at(0, 5), 1.0);
    send(at(0, 50), 2.0);

    assertThat(getsFor(() -> send(at(1, 0), 3.0))).as("the next minute").isZero();
    assertThat(getsFor(() -> send(at(1, 1), 4.0))).as("a minute that holds a reading").isOne();
    send(at(1, 20), 4.5); // closes the first minute
    lifecycle = started();
    assertThat(getsFor(() -> send(at(2, 0), 5.0))).as("after a restart").isZero();
    assertThat(getsFor(() -> send(at(0, 30), 6.0))).as("a late reading").isPositive();
    final SeriesKey other = new SeriesKey("s2", "temperature");
    assertThat(
            getsFor(
                () ->
                    lifecycle.accept(
                        other, new Measurement(at(2, 0), 1.0), null, WALL_CLOCK, emitted::add)))
        .as("a series without state")
        .isOne();
    assertThat(lifecycle.accept(SERIES, new Measurement(at(2, 0), 5.0), null, WALL_CLOCK, b -> {}))
        .as("the reading of the minute opened unread, found again")
        .isEqualTo(Outcome.RESENT);
  }

  private int getsFor(final Runnable reading) {
    final int before = store.gets;
    reading.run();
    return store.gets - before;
  }

  /**
   * A series back after a silence longer than the windows looked up one by one closes what it left
   * open with a range read: the windows of every minute of the silence are not looked up.
   */
  @Test
  void shouldCloseTheWindowsOfALongSilenceWithARangeRead() {
    send(at(0, 5), 1.0);
    send(at(0, 50), 2.0);
    final int getsBefore = store.gets;
    final int rangesBefore = store.ranges;

    send(at(30, 0), 3.0);

    assertThat(emitted)
        .extracting(ClosedBucket::granularity, bucket -> bucket.measurements().size())
        .containsExactly(tuple(MINUTE, 2));
    // one finds the minutes to close, one looks for the reading the first minute carries in (the
    // series has no minute before it)
    assertThat(store.ranges - rangesBefore).isEqualTo(2);
    assertThat(store.gets - getsBefore).isLessThan(8);
  }

  @Test
  void shouldWriteOneValuePerReadingAndNoClockWhileReadingsMoveIt() {
    for (int second = 0; second < 50; second++) {
      send(TEN + second * 1_000L, second);
    }

    assertThat(store.puts).isEqualTo(50);
    assertThat(store.storedClock(SERIES)).isEmpty();
    assertThat(lifecycle.clockOf(SERIES)).isEqualTo(TEN + 49_000);
  }

  @Test
  void shouldStoreTheClockWhenTheWallClockMovesItForAQuietSeries() {
    send(at(0, 5), 1.0);

    // quiet for the idle timeout; by the wall clock, 11:00:31, the minute and the hour are over
    lifecycle.closeIdleSeries(WALL_CLOCK + 31_000, emitted::add);

    assertThat(emitted).extracting(ClosedBucket::granularity).containsExactly(MINUTE, HOUR);
    final long hourEndPlusGrace = TEN + 3_610_000L;
    assertThat(store.storedClock(SERIES)).hasValue(hourEndPlusGrace);
    assertThat(started().clockOf(SERIES)).isEqualTo(hourEndPlusGrace);
  }

  /**
   * A quiet series' next look is scheduled from its open windows, looked up one by one: a range
   * read to the series' end would, in RocksDB, run on over the next series' tombstones.
   */
  @Test
  void shouldScheduleAQuietSeriesNextLookWithoutARangeRead() {
    // the steady state: the minute before closed, with the reading the next one carries in
    for (final long time : new long[] {at(-1, 30), at(0, 5), at(0, 20)}) {
      lifecycle.accept(SERIES, new Measurement(time, 1.0), null, time, emitted::add);
    }
    emitted.clear();
    final int rangesBefore = store.ranges;

    // quiet for the idle timeout, its minute still open: the next look is at the minute's close
    lifecycle.closeIdleSeries(at(0, 55), emitted::add);
    assertThat(emitted).isEmpty();
    assertThat(store.ranges - rangesBefore).isZero();

    lifecycle.closeIdleSeries(at(1, 9), emitted::add);
    assertThat(emitted).isEmpty();
    lifecycle.closeIdleSeries(at(1, 10), emitted::add);
    assertThat(emitted).extracting(ClosedBucket::granularity).containsExactly(MINUTE);
    assertThat(store.ranges - rangesBefore).isZero();
  }

  @Test
  void shouldReviseALinearWindowTheWallClockClosedWhenItsNextReadingArrives() {
    final WindowLifecycle linear =
        new WindowLifecycle(
            new WindowLifecycle.Settings(
                List.of(MINUTE, HOUR),
                Duration.ofSeconds(10),
                Duration.ofSeconds(30),
                Duration.ofHours(2),
                BucketLayout.finestKeepsMeasurements(1000),
                DuplicateTimestamps.KEEP_LAST,
                WindowComputations.DEFAULT.withTimeWeightings(
                    new TimeWeightings(
                        new TimeWeighting(300_000, Interpolation.LINEAR), Map.of()))),
            store,
            delta -> {});
    linear.restore(at(0, 10));
    linear.accept(SERIES, new Measurement(at(0, 10), 1.0), null, at(0, 10), emitted::add);

    // quiet for more than the idle timeout: the wall clock closes the minute, its last value held
    linear.closeIdleSeries(at(1, 50), emitted::add);
    assertThat(emitted).hasSize(1);
    assertThat(emitted.get(0).revision()).isZero();
    assertThat(emitted.get(0).extras().timeWeighted().integral()).isEqualTo(1.0 * 50_000);

    // the next reading, within the max gap: the closed minute's last line runs to it now
    assertThat(
            linear.accept(SERIES, new Measurement(at(2, 10), 3.0), null, at(2, 10), emitted::add))
        .isEqualTo(Outcome.ON_TIME);

    assertThat(emitted).hasSize(2);
    final ClosedBucket revised = emitted.get(1);
    assertThat(revised.granularity()).isEqualTo(MINUTE);
    assertThat(revised.windowStart()).isEqualTo(TEN);
    assertThat(revised.revision()).isEqualTo(1);
    // from 1 at 10:00:10 towards 3 at 10:02:10: 1.8333 at 10:01, so 50 s at a mean of 1.41667
    assertThat(revised.extras().timeWeighted().integral())
        .isCloseTo(50_000 * (1.0 + (1.0 + 2.0 * 50 / 120)) / 2, within(1e-6));
  }

  @Test
  void shouldBehaveAfterARestartAsIfItHadNeverStopped() {
    final SplittableRandom random = new SplittableRandom(11);
    final InMemoryWindowStore uninterrupted = new InMemoryWindowStore();
    final WindowLifecycle reference = new WindowLifecycle(SETTINGS, uninterrupted, delta -> {});
    final List<ClosedBucket> referenceEmitted = new ArrayList<>();
    long time = TEN;
    for (int i = 0; i < 5_000; i++) {
      time += random.nextLong(0, 2_000);
      // 10 % arrive up to ten minutes late
      final long timestamp = random.nextInt(10) == 0 ? time - random.nextLong(600_000) : time;
      final Measurement reading = new Measurement(timestamp, random.nextDouble());
      reference.accept(SERIES, reading, null, WALL_CLOCK, referenceEmitted::add);
      lifecycle.accept(SERIES, reading, null, WALL_CLOCK, emitted::add);
      if (i % 50 == 0) {
        // a restart: only the store survives, and the old lifecycle's open windows stop counting
        openWindows -= lifecycle.openWindows();
        lifecycle = started();
      }
    }

    assertThat(emitted).isEqualTo(referenceEmitted);
    assertThat(lifecycle.clockOf(SERIES)).isEqualTo(reference.clockOf(SERIES));
    assertThat(openWindows).isEqualTo(reference.openWindows()).isPositive();
  }

  /**
   * Each expiry deletes from where the previous one stopped: RocksDB keeps deleted keys as
   * tombstones until compaction, and a range from the series' first key would walk all of them
   * again at every window boundary.
   */
  @Test
  void shouldExpireFromWhereTheLastExpiryStopped() {
    for (int minute = 0; minute < 6 * 60; minute++) {
      send(at(minute, 5), 1.0);
    }

    // one expiry from the start, the series' first: per granularity (1m, 1h)
    assertThat(store.deletionsFromTheStart).isEqualTo(2);
    // and the windows older than the horizon (2 h) went: about 4 h of minutes are gone
    assertThat(store.get(SERIES, MINUTE, TEN)).isNull();
    assertThat(store.get(SERIES, MINUTE, at(5 * 60, 0))).isNotNull();

    lifecycle = started(); // a restart: the first expiry after it starts from the start again
    send(at(6 * 60, 5), 1.0);
    assertThat(store.deletionsFromTheStart).isEqualTo(4);
  }

  @Test
  void shouldForgetEverythingOfASeriesSilentForAWholeHorizon() {
    send(at(0, 5), 1.0);
    send(at(61, 0), 1.0);

    lifecycle.closeIdleSeries(WALL_CLOCK + Duration.ofHours(3).toMillis(), emitted::add);

    assertThat(store.entries()).isZero();
    assertThat(openWindows).isZero();
    assertThat(send(at(61, 30), 1.0)).isEqualTo(Outcome.TOO_LATE);
  }
}
