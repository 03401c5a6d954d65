package io.bucketer.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.mongodb.reactivestreams.client.MongoClient;
import com.mongodb.reactivestreams.client.MongoClients;
import io.bucketer.buckets.ClosedBucket;
import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.Measurement;
import io.bucketer.buckets.Retention;
import io.bucketer.buckets.SeriesKey;
import io.bucketer.buckets.WindowSummary;
import io.bucketer.embedded.EmbeddedMongoServer;
import io.bucketer.query.SeriesQueries.Statistics;
import io.bucketer.sink.BucketDocuments;
import io.bucketer.sink.MongoBucketWriter;
import io.bucketer.testing.GoldenBuckets;
import io.bucketer.testing.ReadingTotals;
import io.bucketer.testing.SeriesBuckets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.bson.BsonDocument;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

/**
 * Statistics over ranges that cut minutes, span whole hours or both, and charts at minute
 * resolution, read from bucket documents in the MongoDB stand-in, equal a computation straight from
 * the readings; the documents read are counted. Hours hold their minutes' summaries, so a range
 * whose edges cut hours reads those hours, not their minutes. Documents in the layout of earlier
 * versions (hours of raw measurements, no spread) stay readable.
 */
class StoredSeriesQueriesTest {

  private static final Granularity MINUTE = Granularity.parse("1m");
  private static final Granularity HOUR = Granularity.parse("1h");
  private static final List<Granularity> GRANULARITIES = List.of(MINUTE, HOUR);
  private static final SeriesKey SERIES = new SeriesKey("sensor-7", "temperature");
  private static final SeriesKey OTHER = new SeriesKey("sensor-8", null);

  /** Stored as versions before summaries wrote it. */
  private static final SeriesKey OLD = new SeriesKey("sensor-9", "temperature");

  /** A whole day, one reading a minute. */
  private static final SeriesKey DAILY = new SeriesKey("sensor-10", null);

  private static final Duration TIMEOUT = Duration.ofSeconds(30);
  private static final long START = Instant.parse("2026-11-22T12:00:00Z").toEpochMilli();
  private static final long DAY = Instant.parse("2026-11-20T00:00:00Z").toEpochMilli();

  /** Three hours at about 1 Hz, with jitter: a few minutes hold 59 or 61 readings. */
  private static final List<Measurement> READINGS =
      SeriesBuckets.readings(SERIES, START, 3 * 3_600);

  private static EmbeddedMongoServer server;
  private static MongoClient client;
  private static SeriesQueries queries;

  @BeforeAll
  static void storeBuckets() {
    server = EmbeddedMongoServer.start();
    client = MongoClients.create(server.connectionString());
    final MongoBucketWriter writer =
        new MongoBucketWriter(
            client.getDatabase("iot"), "buckets_", GRANULARITIES, Retention.NONE, 500, 4);
    final List<ClosedBucket> buckets = new ArrayList<>();
    buckets.addAll(SeriesBuckets.closed(SERIES, GRANULARITIES, READINGS));
    // another series in the same collections must not leak into the answers
    buckets.addAll(
        SeriesBuckets.closed(
            OTHER, GRANULARITIES, SeriesBuckets.readings(OTHER, START, 3 * 3_600)));
    buckets.addAll(
        SeriesBuckets.closed(
            DAILY, GRANULARITIES, SeriesBuckets.readings(DAILY, DAY, 1_440, 60_000)));
    // documents of schema_version 3, with time-weighted parts: the golden ones
    buckets.addAll(List.of(GoldenBuckets.MINUTE_BUCKET_V3, GoldenBuckets.HOUR_BUCKET_V3));
    writer.write(buckets, TIMEOUT);
    for (final ClosedBucket old :
        SeriesBuckets.closedWithMeasurements(OLD, GRANULARITIES, READINGS)) {
      Mono.from(
              client
                  .getDatabase("iot")
                  .getCollection("buckets_" + old.granularity().label(), BsonDocument.class)
                  .insertOne(SeriesBuckets.asWrittenBefore(BucketDocuments.toDocument(old))))
          .block(TIMEOUT);
    }
    queries =
        new SeriesQueries(
            new StoredBuckets(client.getDatabase("iot"), "buckets_", GRANULARITIES, TIMEOUT));
  }

  @AfterAll
  static void stop() {
    client.close();
    server.close();
  }

  @Test
  void shouldReadTheTimeWeightedPartsOfWindowsAndSummariesAndNoneFromOlderDocuments() {
    final SeriesKey golden = GoldenBuckets.MINUTE_BUCKET_V3.series();
    final long hour = GoldenBuckets.H0;

    final List<WindowTotals> hours =
        queries.windows(golden, HOUR, hour, hour + 3_600_000, LiveWindows.NONE).windows();
    final List<WindowTotals> minutes =
        queries.windows(golden, MINUTE, hour, hour + 3_600_000, LiveWindows.NONE).windows();

    assertThat(hours)
        .extracting(WindowTotals::timeWeighted)
        .containsExactly(GoldenBuckets.HOUR_BUCKET_V3.extras().timeWeighted());
    // the minutes come from the hour's summaries
    assertThat(minutes)
        .extracting(WindowTotals::timeWeighted)
        .containsExactlyElementsOf(
            GoldenBuckets.HOUR_BUCKET_V3.summaries().stream()
                .map(WindowSummary::timeWeighted)
                .toList());
    assertThat(queries.windows(SERIES, HOUR, at("13:00"), at("14:00"), LiveWindows.NONE).windows())
        .extracting(WindowTotals::timeWeighted)
        .containsOnlyNulls();
  }

  @Test
  void shouldReadOneDocumentForAnHourOnTheHour() {
    final Statistics hour = statistics(at("13:00"), at("14:00"));

    assertEqualsComputed(hour, at("13:00"), at("14:00"));
    assertThat(hour.documentsRead()).isEqualTo(1);
  }

  @Test
  void shouldReadThreeHoursForTwoHoursFromHalfPast() {
    final Statistics twoHours = statistics(at("12:30"), at("14:30"));

    assertEqualsComputed(twoHours, at("12:30"), at("14:30"));
    // the hour 13:00 whole, and the minutes at either edge from the summaries of 12:00 and 14:00
    assertThat(twoHours.documentsRead()).isEqualTo(3);
  }

  @Test
  void shouldReadRawMeasurementsOnlyWhereAnEdgeCutsAMinute() {
    final long from = at("12:59") + 12_345;
    final long to = at("14:02") + 40_000;
    final Statistics cut = statistics(from, to);

    assertEqualsComputed(cut, from, to);
    // the cut minutes 12:59 and 14:02, the hour 13:00, minutes 14:00-14:02 from the hour 14:00;
    // not the minute 12:59 once more for the reading before `from`: these documents are older
    // than the time-weighted parts, so the range's is unknown at its first whole window, before
    // the stretch that reading holds is computed
    assertThat(cut.timeWeight().missing()).isEqualTo("window_without_time_weight");
    assertThat(cut.documentsRead()).isEqualTo(1 + 1 + 1 + 1);
  }

  @Test
  void shouldChartADayAtMinuteResolutionFromItsHours() {
    final SeriesQueries.Windows onTheHour =
        queries.windows(DAILY, MINUTE, DAY, DAY + 86_400_000L, LiveWindows.NONE);
    final SeriesQueries.Windows fromHalfPast =
        queries.windows(DAILY, MINUTE, DAY + 1_800_000L, DAY + 88_200_000L, LiveWindows.NONE);

    assertThat(onTheHour.windows()).hasSize(1_440);
    assertThat(onTheHour.documentsRead()).isEqualTo(24);
    assertThat(fromHalfPast.documentsRead()).isEqualTo(24); // the day's last 23.5 hours: 24 hours
    assertThat(onTheHour.windows().get(0).stats().first().value())
        .isEqualTo(SeriesBuckets.readings(DAILY, DAY, 1, 60_000).get(0).value());
  }

  @Test
  void shouldReadMinutesFromTheirOwnDocumentsWhereTheHourHoldsNoSummaries() {
    final Statistics twoHours = queries.statistics(OLD, at("12:30"), at("14:30"), LiveWindows.NONE);

    ReadingTotals.of(between(at("12:30"), at("14:30")))
        .assertAnswered(
            "old layout", twoHours.count(), twoHours.sum(), twoHours.min(), twoHours.max());
    assertThat(twoHours.documentsRead()).isEqualTo(30 + 1 + 30);
    assertThat(twoHours.standardDeviation()).isNaN();
    assertThat(twoHours.first()).isEmpty();
    assertThat(queries.windows(OLD, MINUTE, at("13:00"), at("14:00"), LiveWindows.NONE).windows())
        .hasSize(60);
  }

  /**
   * Minutes kept two hours, hours kept three, at 16:00: what only expired documents could answer is
   * refused with a message, not answered short; minutes summarised in hours are still there.
   */
  @Test
  void shouldRefuseARangeThatReachesPastWhatIsKept() {
    final SeriesQueries retained =
        new SeriesQueries(
            new StoredBuckets(client.getDatabase("iot"), "buckets_", GRANULARITIES, TIMEOUT),
            Retention.parse("1m=2h,1h=3h", GRANULARITIES),
            Clock.fixed(Instant.ofEpochMilli(at("16:00")), ZoneOffset.UTC));

    // edges from the hours' summaries, kept from 13:00; the whole hour too
    assertThat(retained.statistics(SERIES, at("13:30"), at("14:30"), LiveWindows.NONE).count())
        .isEqualTo(between(at("13:30"), at("14:30")).size());
    // a minute cut at 13:59 needs its own document, kept only from 14:00
    assertThatThrownBy(
            () -> retained.statistics(SERIES, at("13:59") + 1_000, at("15:00"), LiveWindows.NONE))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("1m documents are kept for 2h")
        .hasMessageContaining("nothing before 2026-11-22T14:00:00Z");
    // hours kept from 13:00
    assertThatThrownBy(
            () -> retained.windows(SERIES, HOUR, at("12:00"), at("15:00"), LiveWindows.NONE))
        .hasMessageContaining("1h documents are kept for 3h");
    assertThat(
            retained.windows(SERIES, MINUTE, at("13:00"), at("14:00"), LiveWindows.NONE).windows())
        .hasSize(60);
  }

  @Test
  void shouldEqualTheReadingsOverRandomRanges() {
    final SplittableRandom random = new SplittableRandom(11);
    for (int i = 0; i < 40; i++) {
      final long from = START + random.nextLong(0, 3 * 3_600_000L);
      final long to = Math.min(START + 3 * 3_600_000L, from + 1 + random.nextLong(0, 7_200_000));
      assertEqualsComputed(statistics(from, to), from, to);
    }
  }

  @Test
  void shouldFindNothingOutsideTheStoredHours() {
    final Statistics none = statistics(at("16:00"), at("17:00"));

    assertThat(none.count()).isZero();
    assertThat(none.average()).isNaN();
  }

  private static Statistics statistics(final long from, final long to) {
    return queries.statistics(SERIES, from, to, LiveWindows.NONE);
  }

  private static void assertEqualsComputed(
      final Statistics stored, final long from, final long to) {
    ReadingTotals.of(between(from, to)).assertAnswered("[" + from + ", " + to + ")", stored);
  }

  private static List<Measurement> between(final long from, final long to) {
    return READINGS.stream().filter(m -> m.timestamp() >= from && m.timestamp() < to).toList();
  }

  private static long at(final String time) {
    return Instant.parse("2026-11-22T" + time + ":00Z").toEpochMilli();
  }
}
