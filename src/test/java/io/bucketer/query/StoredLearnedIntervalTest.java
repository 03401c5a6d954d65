package io.bucketer.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.mongodb.reactivestreams.client.MongoClient;
import com.mongodb.reactivestreams.client.MongoClients;
import io.bucketer.buckets.BucketLayout;
import io.bucketer.buckets.ClosedBucket;
import io.bucketer.buckets.ExpectedIntervals;
import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.IntegralUnits;
import io.bucketer.buckets.Measurement;
import io.bucketer.buckets.Retention;
import io.bucketer.buckets.SeriesKey;
import io.bucketer.buckets.TimeWeightings;
import io.bucketer.buckets.WindowComputations;
import io.bucketer.embedded.EmbeddedMongoServer;
import io.bucketer.query.SeriesQueries.Points;
import io.bucketer.query.SeriesQueries.Statistics;
import io.bucketer.testing.CountedDocuments;
import io.bucketer.testing.SeriesBuckets;
import io.bucketer.windows.LifecycleRuns;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.bson.BsonDocument;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

/**
 * The readings expected of a metric whose interval is learned, read back over stored documents and
 * the processor's state, against a brute-force computation: each reading of a range stands for the
 * learned interval of the window it was read from, and the range's interval is the lower middle of
 * those intervals sorted, with the readings of windows without one left out.
 *
 * <p>The windows' intervals are given by the test, not learned from the readings, so that which
 * window a reading is read through shows: a whole hour and the minutes read from its summaries take
 * the hour document's ({@link #HOUR_INTERVALS}); a minute cut by a range, read raw, its own
 * document's ({@link #minuteInterval}); a window of the state learns its own from its readings
 * there and the reading it carries in. Hour 9 is written with a configured interval instead and
 * hour 10 at schema_version 3 (each with an interval that must not be read); hour 12 is silent,
 * without any document; hour 11 sends about every 10 s, hour 13 every 20 s, and the open hour 14,
 * held in the state from 13:59 on, every 5 s.
 */
class StoredLearnedIntervalTest {

  private static final Granularity MINUTE = Granularity.parse("1m");
  private static final Granularity HOUR = Granularity.parse("1h");
  private static final List<Granularity> GRANULARITIES = List.of(MINUTE, HOUR);
  private static final SeriesKey SERIES = new SeriesKey("sensor-l", "temperature");
  private static final Duration TIMEOUT = Duration.ofSeconds(30);
  private static final long MAX_GAP = TimeWeightings.DEFAULT_MAX_GAP.toMillis();

  private static final List<Measurement> READINGS =
      Stream.of(
              SeriesBuckets.readings(SERIES, at("09:00"), 360, 10_000),
              SeriesBuckets.readings(SERIES, at("10:00"), 360, 10_000),
              SeriesBuckets.readings(SERIES, at("11:00"), 360, 10_000),
              SeriesBuckets.readings(SERIES, at("13:00"), 180, 20_000),
              SeriesBuckets.readings(SERIES, at("14:00"), 360, 5_000))
          .flatMap(List::stream)
          .toList();

  /**
   * The learned interval each stored hour document says: hour 10's is of schema_version 3, and not
   * read; hour 9 has a configured one instead.
   */
  private static final Map<Long, Long> HOUR_INTERVALS =
      Map.of(at("10:00"), 7_000L, at("11:00"), 10_000L, at("13:00"), 20_000L);

  /** Where the state begins: 13:59 closed, the minutes of the open hour 14, 14:29 open. */
  private static final long HELD_FROM = at("13:59");

  private static final long OPEN_MINUTE = at("14:29");

  private static EmbeddedMongoServer server;
  private static MongoClient client;
  private static SeriesQueries learned;
  private static SeriesQueries configured;

  @BeforeAll
  static void storeDocuments() {
    server = EmbeddedMongoServer.start();
    client = MongoClients.create(server.connectionString());
    final List<Measurement> closedEarlier =
        READINGS.stream().filter(m -> m.timestamp() < at("14:00")).toList();
    // As the emit path closes them: with the time-weighted fields, which tell the reading a window
    // of the state carries in from the stored minute before it
    for (final ClosedBucket bucket :
        LifecycleRuns.emitted(
            GRANULARITIES,
            BucketLayout.finestKeepsMeasurements(1_000),
            TimeWeightings.DEFAULT,
            Map.of(SERIES, closedEarlier),
            at("09:00"))) {
      final Granularity granularity = bucket.granularity();
      final long start = bucket.windowStart();
      final BsonDocument document;
      if (start < at("10:00")) {
        document =
            CountedDocuments.configured(
                CountedDocuments.of(bucket, MINUTE, Map.of()), granularity, 10_000);
      } else if (start < at("11:00")) {
        // schema_version 3 learned nothing: an interval in it is not read
        document =
            CountedDocuments.learned(
                CountedDocuments.beforeCounts(bucket), granularity, storedInterval(bucket));
      } else {
        document =
            CountedDocuments.learned(
                CountedDocuments.of(bucket, MINUTE, Map.of()), granularity, storedInterval(bucket));
      }
      Mono.from(
              client
                  .getDatabase("iot")
                  .getCollection("buckets_" + granularity.label(), BsonDocument.class)
                  .insertOne(document))
          .block(TIMEOUT);
    }
    final StoredBuckets stored =
        new StoredBuckets(client.getDatabase("iot"), "buckets_", GRANULARITIES, TIMEOUT);
    learned = queries(stored, new ExpectedIntervals(0, Map.of("temperature", Duration.ZERO)));
    configured =
        queries(stored, new ExpectedIntervals(0, Map.of("temperature", Duration.ofSeconds(10))));
  }

  private static SeriesQueries queries(
      final StoredBuckets stored, final ExpectedIntervals intervals) {
    return new SeriesQueries(
        stored,
        Retention.NONE,
        Clock.systemUTC(),
        WindowComputations.DEFAULT.withExpectedIntervals(intervals),
        IntegralUnits.SECONDS);
  }

  @AfterAll
  static void stop() {
    client.close();
    server.close();
  }

  @Test
  void shouldTakeTheIntervalOfTheWindowsThatGiveMostOfTheReadings() {
    // hour 11 (360 readings at 10 s) outweighs hour 13 (180 at 20 s); the silent hour between
    // them learns nothing and is expected all the same
    final Statistics both = learned.statistics(SERIES, at("11:00"), at("14:00"), state());
    // 10 minutes of hour 11 (60 readings) against 30 of hour 13 (90)
    final Statistics mostlyThirteen = learned.statistics(SERIES, at("11:50"), at("13:30"), state());

    assertThat(both.quality().learnedIntervalMillis()).hasValue(10_000);
    assertThat(both.quality().expected()).hasValue(3 * 360.0);
    assertThat(both.quality().completeness().getAsDouble())
        .isCloseTo(both.count() / (3 * 360.0), within(1e-12));
    assertThat(mostlyThirteen.quality().learnedIntervalMillis()).hasValue(20_000);
    assertThat(mostlyThirteen.quality().expected().getAsDouble())
        .isCloseTo((at("13:30") - at("11:50")) / 20_000.0, within(1e-12));
    assertThat(mostlyThirteen.quality().expectedIntervalMillis()).isEmpty();
    assertThat(both.quality().learnedIntervalMillis())
        .isEqualTo(bruteForce(readOracle(at("11:00"), at("14:00"))));
    assertThat(mostlyThirteen.quality().learnedIntervalMillis())
        .isEqualTo(bruteForce(readOracle(at("11:50"), at("13:30"))));
  }

  @Test
  void shouldTakeACutMinutesOwnIntervalWeightedByTheReadingsTheRangeHoldsOfIt() {
    // 11:30:20 to 11:31:40 cuts 11:30 and 11:31, read raw from their own documents
    final long from = at("11:30:20");
    final long to = at("11:31:40");
    final Statistics found = learned.statistics(SERIES, from, to, state());

    assertThat(minuteInterval(at("11:30"))).isNotEqualTo(minuteInterval(at("11:31")));
    assertThat(found.quality().learnedIntervalMillis())
        .isEqualTo(bruteForce(readOracle(from, to)))
        .isNotEqualTo(OptionalLong.of(HOUR_INTERVALS.get(at("11:00"))));
    assertThat(found.quality().expected().getAsDouble())
        .isCloseTo(
            (to - from) / (double) found.quality().learnedIntervalMillis().getAsLong(),
            within(1e-12));
  }

  @Test
  void shouldEqualTheBruteForceMedianOverRandomRanges() {
    final SplittableRandom random = new SplittableRandom(11);
    int learnedSome = 0;
    for (int i = 0; i < 80; i++) {
      final long from = at("10:40") + random.nextLong(0, 4 * 3_600_000L);
      final long to = Math.min(at("15:00"), from + 1 + random.nextLong(0, 3 * 3_600_000L));
      if (from >= to) {
        continue;
      }
      final Statistics found = learned.statistics(SERIES, from, to, state());
      final String what = describe(from, to);
      final OptionalLong expected = bruteForce(readOracle(from, to));

      assertThat(found.count()).as(what).isEqualTo(readings(from, to).size());
      assertThat(found.quality().learnedIntervalMillis()).as(what).isEqualTo(expected);
      if (expected.isPresent()) {
        learnedSome++;
        final double readingsExpected = (to - from) / (double) expected.getAsLong();
        assertThat(found.quality().expected().getAsDouble())
            .as(what)
            .isCloseTo(readingsExpected, within(1e-9));
        assertThat(found.quality().completeness().getAsDouble())
            .as(what)
            .isCloseTo(found.count() / readingsExpected, within(1e-12));
      } else {
        assertThat(found.quality().expected()).as(what).isEmpty();
        assertThat(found.quality().completeness()).as(what).isEmpty();
      }
    }
    assertThat(learnedSome).isGreaterThan(40);
  }

  @Test
  void shouldLearnTheIntervalOfWindowsOfTheStateFromTheirReadings() {
    // the open hour 14, from the state: its readings every ~5 s and the one carried in from 13:59
    final Statistics openHour = learned.statistics(SERIES, at("14:00"), at("15:00"), state());
    // 13:59 (closed, stored and held) and minutes of hour 14, whole, from the state
    final Statistics minutes = learned.statistics(SERIES, at("13:59"), at("14:10"), state());
    // 14:05 and 14:06 cut, read raw from the state's log
    final Statistics cut = learned.statistics(SERIES, at("14:05:30"), at("14:06:20"), state());

    final Long hour = stateInterval(at("14:00"), at("15:00"));
    assertThat(hour).isBetween(1_000L, 9_999L);
    assertThat(openHour.stateWindowsRead()).isPositive();
    assertThat(openHour.quality().learnedIntervalMillis()).hasValue(hour);
    assertThat(openHour.quality().expected().getAsDouble())
        .isCloseTo(3_600_000.0 / hour, within(1e-9));
    assertThat(minutes.quality().learnedIntervalMillis())
        .isEqualTo(bruteForce(readOracle(at("13:59"), at("14:10"))));
    assertThat(cut.quality().learnedIntervalMillis())
        .isEqualTo(bruteForce(readOracle(at("14:05:30"), at("14:06:20"))));
    assertThat(cut.quality().learnedIntervalMillis()).isPresent();
  }

  @Test
  void shouldLeaveOutWindowsWithoutALearnedIntervalAndAnswerNullWhenNoneIsLeft() {
    // hour 9 says a configured interval, hour 10 is of schema_version 3, hour 12 is silent
    final Statistics configuredHour = learned.statistics(SERIES, at("09:00"), at("10:00"), state());
    final Statistics olderHour = learned.statistics(SERIES, at("10:00"), at("11:00"), state());
    final Statistics silent = learned.statistics(SERIES, at("12:00"), at("13:00"), state());
    // 11:07 learned none: a range of it alone has none, one around it the others'
    final Statistics withoutOwn =
        learned.statistics(SERIES, at("11:07:10"), at("11:07:50"), state());
    final Statistics around = learned.statistics(SERIES, at("10:30"), at("11:30"), state());

    for (final Statistics none : List.of(configuredHour, olderHour, silent, withoutOwn)) {
      assertThat(none.quality().learnedIntervalMillis()).isEmpty();
      assertThat(none.quality().expected()).isEmpty();
      assertThat(none.quality().completeness()).isEmpty();
      assertThat(none.quality().expectedIntervalMillis()).isEmpty();
    }
    assertThat(configuredHour.count()).isEqualTo(360);
    assertThat(withoutOwn.count()).isPositive();
    // half an hour of the older hour, half of hour 11: hour 11's alone
    assertThat(around.quality().learnedIntervalMillis()).hasValue(10_000);
    assertThat(around.quality().expected()).hasValue(360.0);
  }

  @Test
  void shouldAnswerTheConfiguredIntervalAndNoLearnedOneForAMetricThatDoesNotLearn() {
    final Statistics found = configured.statistics(SERIES, at("13:00"), at("14:30"), state());

    assertThat(found.quality().expectedIntervalMillis()).hasValue(10_000);
    assertThat(found.quality().learnedIntervalMillis()).isEmpty();
    assertThat(found.quality().expected()).hasValue(540.0);
  }

  @Test
  void shouldGiveEachPointTheWeightedMedianOfItsWindows() {
    final long from = at("10:50");
    final long to = at("14:30");
    final Resolution resolution =
        Resolution.pick(
            GRANULARITIES,
            from,
            to,
            Resolution.step(to - from, OptionalLong.of(15), OptionalLong.empty()),
            1_000);
    final Points found = learned.points(SERIES, resolution, GapFill.NULL, state());

    assertThat(resolution.read()).isEqualTo(MINUTE);
    assertThat(resolution.pointMillis()).isEqualTo(900_000);
    int withInterval = 0;
    for (final ChartPoint point : found.points()) {
      final String what = describe(point.start(), point.end());
      final ReadingQuality quality = found.quality(point);
      // a point's minutes are whole: a stored one read from its hour's summary, with the hour's
      final OptionalLong expected = bruteForce(readOracle(point.start(), point.end()));
      assertThat(quality.learnedIntervalMillis()).as(what).isEqualTo(expected);
      if (expected.isPresent()) {
        withInterval++;
        assertThat(quality.expected().getAsDouble())
            .as(what)
            .isCloseTo(900_000.0 / expected.getAsLong(), within(1e-9));
        assertThat(quality.completeness().getAsDouble())
            .as(what)
            .isCloseTo(quality.count() / (900_000.0 / expected.getAsLong()), within(1e-12));
      } else {
        assertThat(quality.completeness()).as(what).isEmpty();
      }
    }
    // 11:00 to 12:00 and 13:00 to 14:30
    assertThat(withInterval).isEqualTo(10);
    // the point of 13:45 holds 13:59, learned from the state, with the hour's other minutes
    final ChartPoint quarterToTwo =
        found.points().stream().filter(p -> p.start() == at("13:45")).findFirst().orElseThrow();
    assertThat(found.quality(quarterToTwo).learnedIntervalMillis()).hasValue(20_000);
  }

  @Test
  void shouldGiveAnHourPointItsDocumentsIntervalOrTheOneItsStateLearns() {
    final Points found =
        learned.points(
            SERIES, Resolution.of(HOUR, at("09:00"), at("15:00")), GapFill.NONE, state());

    final List<OptionalLong> intervals =
        found.points().stream().map(p -> found.quality(p).learnedIntervalMillis()).toList();
    assertThat(found.points()).hasSize(5);
    assertThat(intervals)
        .containsExactly(
            OptionalLong.empty(),
            OptionalLong.empty(),
            OptionalLong.of(10_000),
            OptionalLong.of(20_000),
            OptionalLong.of(stateInterval(at("14:00"), at("15:00"))));
  }

  @Test
  void shouldTakeTheLowerMiddleOfAnEvenNumberOfReadings() {
    final LearnedIntervals intervals = new LearnedIntervals();
    assertThat(intervals.median()).isEmpty();
    intervals.add(5_000L, 2);
    intervals.add(null, 7);
    intervals.add(9_000L, 2);
    assertThat(intervals.median()).hasValue(5_000);
    intervals.add(9_000L, 1);
    assertThat(intervals.median()).hasValue(9_000);
    intervals.add(1_000L, 0);
    assertThat(intervals.median()).hasValue(9_000);
  }

  /**
   * For each reading of {@code [from, to)}, the interval of the window it is read from; null where
   * that window has none. A minute the range cuts is read raw, from its own document or the state;
   * a whole minute of a stored hour from its hour's summary, and a whole hour from its document,
   * both with the hour's interval; a whole window of the state learns its own.
   */
  private static List<Long> readOracle(final long from, final long to) {
    final List<Long> intervals = new ArrayList<>();
    for (final Measurement reading : readings(from, to)) {
      final long minute = MINUTE.windowStart(reading.timestamp());
      final long hour = HOUR.windowStart(reading.timestamp());
      final boolean minuteCut = minute < from || minute + 60_000 > to;
      final boolean hourWhole = hour >= from && hour + 3_600_000 <= to;
      final boolean hourHeld = hour >= at("14:00");
      final boolean minuteHeld = minute >= HELD_FROM;
      if (minuteCut) {
        intervals.add(
            minuteHeld ? stateInterval(minute, minute + 60_000) : storedMinuteInterval(minute));
      } else if (hourWhole) {
        intervals.add(hourHeld ? stateInterval(hour, hour + 3_600_000) : storedHourInterval(hour));
      } else if (minuteHeld) {
        intervals.add(stateInterval(minute, minute + 60_000));
      } else {
        intervals.add(storedHourInterval(hour));
      }
    }
    return intervals;
  }

  /**
   * What the documents of a stored hour say, as read: none before hour 11 (hour 9 configured, hour
   * 10 of schema_version 3).
   */
  private static Long storedHourInterval(final long hour) {
    return hour < at("11:00") ? null : HOUR_INTERVALS.get(hour);
  }

  /** What the documents of a stored minute say, as read: none before hour 11. */
  private static Long storedMinuteInterval(final long minute) {
    return minute < at("11:00") ? null : minuteInterval(minute);
  }

  /** The lower middle of the intervals, sorted, those of readings without one left out. */
  private static OptionalLong bruteForce(final List<Long> intervals) {
    final List<Long> known = intervals.stream().filter(i -> i != null).sorted().toList();
    return known.isEmpty()
        ? OptionalLong.empty()
        : OptionalLong.of(known.get((known.size() - 1) / 2));
  }

  /**
   * The interval a window of the state learns: the lower middle of the times between its readings,
   * sorted, the reading carried in (the last before it, holding into it) included.
   */
  private static Long stateInterval(final long start, final long end) {
    final List<Measurement> before =
        READINGS.stream()
            .filter(m -> m.timestamp() < start && m.timestamp() + MAX_GAP > start)
            .toList();
    final List<Long> times = new ArrayList<>();
    if (!before.isEmpty()) {
      times.add(before.get(before.size() - 1).timestamp());
    }
    readings(start, end).forEach(m -> times.add(m.timestamp()));
    final List<Long> between = new ArrayList<>();
    for (int i = 1; i < times.size(); i++) {
      between.add(times.get(i) - times.get(i - 1));
    }
    return bruteForce(between).isPresent() ? bruteForce(between).getAsLong() : null;
  }

  /** The interval each stored window's document says it learned, as the test gives them. */
  private static Long storedInterval(final ClosedBucket bucket) {
    return bucket.granularity().equals(HOUR)
        ? HOUR_INTERVALS.get(bucket.windowStart())
        : minuteInterval(bucket.windowStart());
  }

  /** Each stored minute's own: unlike its hour's, and none for 11:07. */
  private static Long minuteInterval(final long minute) {
    final long i = (minute - at("00:00")) / 60_000;
    if (minute == at("11:07")) {
      return null;
    }
    return minute < at("13:00") ? 8_000 + i % 5 * 1_000 : 15_000 + i % 4 * 1_000;
  }

  private static List<Measurement> readings(final long from, final long to) {
    return READINGS.stream().filter(m -> m.timestamp() >= from && m.timestamp() < to).toList();
  }

  /** The state: 13:59 closed, the open hour 14 of closed minutes, and the open minute 14:29. */
  private static LiveWindows state() {
    return new FakeLiveWindows(SERIES, READINGS, HELD_FROM, OPEN_MINUTE);
  }

  private static String describe(final long from, final long to) {
    return Instant.ofEpochMilli(from) + " to " + Instant.ofEpochMilli(to);
  }

  private static long at(final String time) {
    return Instant.parse("2026-11-22T" + (time.length() == 5 ? time + ":00" : time) + "Z")
        .toEpochMilli();
  }
}
