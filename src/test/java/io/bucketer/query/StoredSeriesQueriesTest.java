package io.bucketer.query;

import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.reactivestreams.client.MongoClient;
import com.mongodb.reactivestreams.client.MongoClients;
import io.bucketer.buckets.ClosedBucket;
import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.Measurement;
import io.bucketer.buckets.SeriesKey;
import io.bucketer.embedded.EmbeddedMongoServer;
import io.bucketer.query.SeriesQueries.Statistics;
import io.bucketer.sink.MongoBucketWriter;
import io.bucketer.testing.ReadingTotals;
import io.bucketer.testing.SeriesBuckets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Statistics over ranges that cut minutes, span whole hours or both, read from bucket documents in
 * the MongoDB stand-in, equal a computation straight from the readings; the documents read are
 * counted.
 */
class StoredSeriesQueriesTest {

  private static final Granularity MINUTE = Granularity.parse("1m");
  private static final Granularity HOUR = Granularity.parse("1h");
  private static final List<Granularity> GRANULARITIES = List.of(MINUTE, HOUR);
  private static final SeriesKey SERIES = new SeriesKey("sensor-7", "temperature");
  private static final SeriesKey OTHER = new SeriesKey("sensor-8", null);
  private static final Duration TIMEOUT = Duration.ofSeconds(30);
  private static final long START = Instant.parse("2026-11-22T12:00:00Z").toEpochMilli();

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
        new MongoBucketWriter(client.getDatabase("iot"), "buckets_", GRANULARITIES, 500, 4);
    final List<ClosedBucket> buckets = new ArrayList<>();
    buckets.addAll(SeriesBuckets.closed(SERIES, GRANULARITIES, READINGS));
    // another series in the same collections must not leak into the answers
    buckets.addAll(
        SeriesBuckets.closed(
            OTHER, GRANULARITIES, SeriesBuckets.readings(OTHER, START, 3 * 3_600)));
    writer.write(buckets, TIMEOUT);
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
  void shouldReadOneDocumentForAnHourOnTheHour() {
    final Statistics hour = statistics(at("13:00"), at("14:00"));

    assertEqualsComputed(hour, at("13:00"), at("14:00"));
    assertThat(hour.documentsRead()).isEqualTo(1);
  }

  @Test
  void shouldReadOneHourAndSixtyMinutesForTwoHoursFromHalfPast() {
    final Statistics twoHours = statistics(at("12:30"), at("14:30"));

    assertEqualsComputed(twoHours, at("12:30"), at("14:30"));
    assertThat(twoHours.documentsRead()).isEqualTo(1 + 60);
  }

  @Test
  void shouldReadRawMeasurementsOnlyWhereAnEdgeCutsAMinute() {
    final long from = at("12:59") + 12_345;
    final long to = at("14:02") + 40_000;
    final Statistics cut = statistics(from, to);

    assertEqualsComputed(cut, from, to);
    // the cut minutes 12:59 and 14:02, whole minute 13:00 ... no: the hour 13:00, minutes
    // 14:00-14:02
    assertThat(cut.documentsRead()).isEqualTo(1 + 1 + 2 + 1);
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
    ReadingTotals.of(
            READINGS.stream().filter(m -> m.timestamp() >= from && m.timestamp() < to).toList())
        .assertAnswered(
            "[" + from + ", " + to + ")", stored.count(), stored.sum(), stored.min(), stored.max());
  }

  private static long at(final String time) {
    return Instant.parse("2026-11-22T" + time + ":00Z").toEpochMilli();
  }
}
