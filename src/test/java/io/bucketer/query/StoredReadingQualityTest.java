package io.bucketer.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.mongodb.reactivestreams.client.MongoClient;
import com.mongodb.reactivestreams.client.MongoClients;
import io.bucketer.buckets.BucketDocumentNames;
import io.bucketer.buckets.ClosedBucket;
import io.bucketer.buckets.ExpectedIntervals;
import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.IntegralUnits;
import io.bucketer.buckets.Measurement;
import io.bucketer.buckets.Retention;
import io.bucketer.buckets.SeriesKey;
import io.bucketer.buckets.WindowComputations;
import io.bucketer.buckets.WindowQuality;
import io.bucketer.embedded.EmbeddedMongoServer;
import io.bucketer.query.SeriesQueries.Points;
import io.bucketer.query.SeriesQueries.Statistics;
import io.bucketer.testing.CountedDocuments;
import io.bucketer.testing.SeriesBuckets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonInt64;
import org.bson.BsonString;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

/**
 * Resends, late readings and completeness read back over stored documents and the processor's
 * state, against a computation straight from the counts each minute was given: documents of
 * schema_version 4 (hours 11 and 13, counts absent where 0), of version 3 (hour 10, whose counts
 * are unknown), a silent hour without any document (12), and the open hour 14 in the state. A
 * window cut by a range counts whole in it; the readings expected come from the interval configured
 * for the query, so the silent hour expects its readings too.
 */
class StoredReadingQualityTest {

  private static final Granularity MINUTE = Granularity.parse("1m");
  private static final Granularity HOUR = Granularity.parse("1h");
  private static final List<Granularity> GRANULARITIES = List.of(MINUTE, HOUR);
  private static final SeriesKey SERIES = new SeriesKey("sensor-q", "temperature");
  private static final Duration TIMEOUT = Duration.ofSeconds(30);
  private static final long TEN = Instant.parse("2026-11-22T10:00:00Z").toEpochMilli();
  private static final long INTERVAL = 10_000;

  /**
   * About a reading every 10 s from 10:00 to 14:30, but none in hour 12, nor from 11:15 to 11:30.
   */
  private static final List<Measurement> READINGS =
      SeriesBuckets.readings(SERIES, TEN, 27 * 60, INTERVAL).stream()
          .filter(m -> m.timestamp() < at("12:00") || m.timestamp() >= at("13:00"))
          .filter(m -> m.timestamp() < at("11:15") || m.timestamp() >= at("11:30"))
          .toList();

  /** Where the state begins: 13:59 closed, the minutes of the open hour 14, 14:29 open. */
  private static final long HELD_FROM = at("13:59");

  private static final long OPEN_MINUTE = at("14:29");

  /** Each minute's resends and late readings, as its window counted them: the truth. */
  private static final Map<Long, WindowQuality> COUNTS = counts();

  private static EmbeddedMongoServer server;
  private static MongoClient client;
  private static SeriesQueries queries;
  private static SeriesQueries withoutInterval;

  @BeforeAll
  static void storeDocuments() {
    server = EmbeddedMongoServer.start();
    client = MongoClients.create(server.connectionString());
    final List<Measurement> closedEarlier =
        READINGS.stream().filter(m -> m.timestamp() < at("14:00")).toList();
    for (final ClosedBucket bucket : SeriesBuckets.closed(SERIES, GRANULARITIES, closedEarlier)) {
      final BsonDocument document =
          bucket.windowStart() < at("11:00")
              ? CountedDocuments.beforeCounts(bucket)
              : CountedDocuments.of(bucket, MINUTE, COUNTS);
      Mono.from(
              client
                  .getDatabase("iot")
                  .getCollection("buckets_" + bucket.granularity().label(), BsonDocument.class)
                  .insertOne(document))
          .block(TIMEOUT);
    }
    final StoredBuckets stored =
        new StoredBuckets(client.getDatabase("iot"), "buckets_", GRANULARITIES, TIMEOUT);
    queries =
        new SeriesQueries(
            stored,
            Retention.NONE,
            Clock.systemUTC(),
            WindowComputations.DEFAULT.withExpectedIntervals(
                new ExpectedIntervals(0, Map.of("temperature", Duration.ofMillis(INTERVAL)))),
            IntegralUnits.SECONDS);
    withoutInterval = new SeriesQueries(stored);
  }

  @AfterAll
  static void stop() {
    client.close();
    server.close();
  }

  @Test
  void shouldAddUpTheCountsOfAWholeHourOfSchemaVersionFour() {
    final Statistics found = queries.statistics(SERIES, at("11:00"), at("12:00"), state());

    assertThat(found.documentsRead()).isEqualTo(1);
    assertThat(found.quality().counts()).isEqualTo(expectedCounts(at("11:00"), at("12:00")));
    assertThat(found.quality().counts().isNone()).as("a test that adds something up").isFalse();
    assertThat(found.quality().expectedIntervalMillis()).hasValue(INTERVAL);
    assertThat(found.quality().expected()).hasValue(360.0);
    assertThat(found.quality().completeness().getAsDouble())
        .isCloseTo(readings(at("11:00"), at("12:00")) / 360.0, within(1e-12));
  }

  @Test
  void shouldAnswerCountsUnknownWhenAWindowReadIsOfAnEarlierVersion() {
    for (final long[] range :
        new long[][] {
          {at("10:00"), at("12:00")},
          {at("10:59:30"), at("11:10")},
          {at("10:30:10"), at("10:30:50")},
        }) {
      final Statistics found = queries.statistics(SERIES, range[0], range[1], state());

      assertThat(found.quality().counts()).as(describe(range)).isNull();
      // the readings expected and the completeness do not depend on the documents' version
      assertThat(found.quality().expected().getAsDouble())
          .isEqualTo((range[1] - range[0]) / (double) INTERVAL);
      assertThat(found.quality().completeness().getAsDouble())
          .isCloseTo(
              readings(range[0], range[1]) / ((range[1] - range[0]) / (double) INTERVAL),
              within(1e-12));
    }
  }

  @Test
  void shouldCountAWindowCutByTheRangeWholeAndOnceInIt() {
    // 11:05:20 to 11:06:40 cuts 11:05 (a resend) and 11:06 (a late reading), each read raw;
    // 11:09:10 to 11:09:50 lies within 11:09 (five resends)
    final Statistics across = queries.statistics(SERIES, at("11:05:20"), at("11:06:40"), state());
    final Statistics within = queries.statistics(SERIES, at("11:09:10"), at("11:09:50"), state());

    assertThat(across.quality().counts())
        .isEqualTo(COUNTS.get(at("11:05")).plus(COUNTS.get(at("11:06"))))
        .isEqualTo(new WindowQuality(1, 1));
    assertThat(within.quality().counts())
        .isEqualTo(COUNTS.get(at("11:09")))
        .isEqualTo(new WindowQuality(5, 0));
    assertThat(within.quality().expected()).hasValue(4.0);
  }

  @Test
  void shouldExpectTheReadingsOfAHourWithoutDocuments() {
    final Statistics silent = queries.statistics(SERIES, at("12:00"), at("13:00"), state());
    final Statistics around = queries.statistics(SERIES, at("11:00"), at("14:00"), state());

    assertThat(silent.count()).isZero();
    assertThat(silent.quality().counts()).isEqualTo(WindowQuality.NONE);
    assertThat(silent.quality().expected()).hasValue(360.0);
    assertThat(silent.quality().completeness()).hasValue(0.0);
    assertThat(around.quality().counts()).isEqualTo(expectedCounts(at("11:00"), at("14:00")));
    assertThat(around.quality().expected()).hasValue(3 * 360.0);
    assertThat(around.quality().completeness().getAsDouble())
        .isCloseTo(readings(at("11:00"), at("14:00")) / (3 * 360.0), within(1e-12));
    // fewer than expected: the silent hour and quarter hour
    assertThat(around.quality().completeness().getAsDouble()).isLessThan(0.7);
  }

  @Test
  void shouldEqualTheCountsOfEveryMinuteTheRangeOverlapsOverRandomRanges() {
    final SplittableRandom random = new SplittableRandom(4);
    for (int i = 0; i < 60; i++) {
      final long from = at("10:40") + random.nextLong(0, 4 * 3_600_000L);
      final long to = Math.min(at("14:30"), from + 1 + random.nextLong(0, 3 * 3_600_000L));
      if (from >= to) {
        continue;
      }
      final Statistics found = queries.statistics(SERIES, from, to, state());
      final String what = describe(new long[] {from, to});

      assertThat(found.count()).as(what).isEqualTo(readings(from, to));
      assertThat(found.quality().counts()).as(what).isEqualTo(expectedCounts(from, to));
      assertThat(found.quality().expected().getAsDouble())
          .as(what)
          .isEqualTo((to - from) / (double) INTERVAL);
    }
  }

  @Test
  void shouldTakeTheCountsOfAWindowTheStateHoldsFromTheState() {
    final Statistics openHour = queries.statistics(SERIES, at("14:00"), at("15:00"), state());
    final Statistics intoOpenMinute =
        queries.statistics(SERIES, at("14:20"), at("14:29:30"), state());
    // the state counted a resend into 13:59 after its document was written: a resend is no
    // revision, so the document keeps the older count
    final WindowQuality later = COUNTS.get(at("13:59")).withResend();
    final Statistics resentInto =
        queries.statistics(SERIES, at("13:59"), at("14:00"), state(Map.of(at("13:59"), later)));

    assertThat(openHour.stateWindowsRead()).isPositive();
    assertThat(openHour.quality().counts()).isEqualTo(expectedCounts(at("14:00"), at("15:00")));
    assertThat(openHour.quality().counts().isNone()).isFalse();
    assertThat(intoOpenMinute.quality().counts())
        .isEqualTo(expectedCounts(at("14:20"), at("14:29:30")));
    assertThat(resentInto.quality().counts()).isEqualTo(later);
  }

  @Test
  void shouldAnswerNoExpectedReadingsWithoutAnIntervalOrWhenNoWindowReadLearnedOne() {
    // These documents were written without a learned interval (StoredLearnedIntervalTest has
    // those), and the state holds no window of the range: a learned metric has none to go by.
    final SeriesQueries learned =
        new SeriesQueries(
            new StoredBuckets(client.getDatabase("iot"), "buckets_", GRANULARITIES, TIMEOUT),
            Retention.NONE,
            Clock.systemUTC(),
            WindowComputations.DEFAULT.withExpectedIntervals(
                new ExpectedIntervals(ExpectedIntervals.LEARNED, Map.of())),
            IntegralUnits.SECONDS);

    for (final SeriesQueries queries : List.of(withoutInterval, learned)) {
      final Statistics found = queries.statistics(SERIES, at("11:00"), at("12:00"), state());

      assertThat(found.quality().counts()).isEqualTo(expectedCounts(at("11:00"), at("12:00")));
      assertThat(found.quality().expectedIntervalMillis()).isEmpty();
      assertThat(found.quality().expected()).isEmpty();
      assertThat(found.quality().completeness()).isEmpty();
    }
  }

  @Test
  void shouldGiveEachPointTheCountsAndTheExpectedReadingsOfItsWholeSpan() {
    final long from = at("10:50");
    final long to = at("14:20");
    final Resolution resolution =
        Resolution.pick(
            GRANULARITIES,
            from,
            to,
            Resolution.step(to - from, OptionalLong.of(14), OptionalLong.empty()),
            1_000);
    final Points found = queries.points(SERIES, resolution, GapFill.NULL, state());

    assertThat(resolution.pointMillis()).isEqualTo(900_000);
    // 10:45 to 14:30, whole points
    assertThat(found.points()).hasSize(15);
    int filled = 0;
    for (final ChartPoint point : found.points()) {
      final String what = describe(new long[] {point.start(), point.end()});
      final ReadingQuality quality = found.quality(point);
      assertThat(quality.count()).as(what).isEqualTo(readings(point.start(), point.end()));
      assertThat(quality.expected()).as(what).hasValue(90.0);
      assertThat(quality.completeness().getAsDouble())
          .as(what)
          .isCloseTo(quality.count() / 90.0, within(1e-12));
      if (point instanceof ChartPoint.Filled) {
        // 11:15 and the silent hour: no readings, so no resend and no late reading either
        filled++;
        assertThat(quality.counts()).as(what).isEqualTo(WindowQuality.NONE);
        assertThat(quality.completeness()).as(what).hasValue(0.0);
      } else {
        assertThat(quality.counts()).as(what).isEqualTo(expectedCounts(point.start(), point.end()));
      }
    }
    assertThat(filled).isEqualTo(5);
    // the point of 10:45 holds minutes of the hour of schema_version 3
    assertThat(found.quality(found.points().get(0)).counts()).isNull();
    assertThat(found.quality(found.points().get(1)).counts()).isNotNull();
  }

  @Test
  void shouldReadCountsAbsentInVersionFourAsZeroAndUnreadableOnesAsUnknown() {
    final BsonDocument window = new BsonDocument("count", new BsonInt32(3));

    assertThat(StoredStats.quality(window, 4)).isEqualTo(WindowQuality.NONE);
    assertThat(StoredStats.quality(window, 3)).isNull();
    assertThat(
            StoredStats.quality(
                window.clone().append(BucketDocumentNames.RESENDS, new BsonInt64(2)), 4))
        .isEqualTo(new WindowQuality(2, 0));
    assertThat(
            StoredStats.quality(
                window.clone().append(BucketDocumentNames.LATE_READINGS, new BsonString("2")), 4))
        .isNull();
    assertThat(
            StoredStats.quality(
                window.clone().append(BucketDocumentNames.RESENDS, new BsonInt32(-1)), 4))
        .isNull();
    assertThat(StoredStats.schemaVersion(new BsonDocument())).isEqualTo(1);
  }

  /**
   * The resends and late readings of {@code [from, to)} computed from {@link #COUNTS}: those of
   * every minute with readings that overlaps it; null when one is in the hour of version 3.
   */
  private static WindowQuality expectedCounts(final long from, final long to) {
    WindowQuality sum = WindowQuality.NONE;
    for (final Map.Entry<Long, WindowQuality> minute : COUNTS.entrySet()) {
      final long start = minute.getKey();
      if (start < to && start + 60_000 > from) {
        if (start < at("11:00")) {
          return null;
        }
        sum = sum.plus(minute.getValue());
      }
    }
    return sum;
  }

  private static long readings(final long from, final long to) {
    return READINGS.stream().filter(m -> m.timestamp() >= from && m.timestamp() < to).count();
  }

  /** Some resends in every fourth minute, a late reading or two in every seventh. */
  private static Map<Long, WindowQuality> counts() {
    final Map<Long, WindowQuality> counts = new TreeMap<>();
    for (final Measurement reading : READINGS) {
      final long start = MINUTE.windowStart(reading.timestamp());
      final long i = (start - TEN) / 60_000;
      counts.put(start, new WindowQuality(i % 4 == 1 ? 1 + i % 5 : 0, i % 7 == 3 ? 1 + i % 2 : 0));
    }
    return counts;
  }

  private static LiveWindows state() {
    return state(Map.of());
  }

  /**
   * The state: 13:59 closed, the open hour 14 of closed minutes, and the open minute 14:29, with
   * {@link #COUNTS} but where {@code changed} says otherwise.
   */
  private static LiveWindows state(final Map<Long, WindowQuality> changed) {
    final Map<Long, WindowQuality> counts = new HashMap<>(COUNTS);
    counts.putAll(changed);
    return new FakeLiveWindows(SERIES, READINGS, HELD_FROM, OPEN_MINUTE, counts);
  }

  private static String describe(final long[] range) {
    return Instant.ofEpochMilli(range[0]) + " to " + Instant.ofEpochMilli(range[1]);
  }

  private static long at(final String time) {
    return Instant.parse("2026-11-22T" + (time.length() == 5 ? time + ":00" : time) + "Z")
        .toEpochMilli();
  }
}
