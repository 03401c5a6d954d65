package io.bucketer.sink;

import static io.bucketer.buckets.TestBuckets.HOUR;
import static io.bucketer.buckets.TestBuckets.MINUTE;
import static io.bucketer.buckets.TestBuckets.START;
import static io.bucketer.buckets.TestBuckets.bucket;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.bucketer.buckets.BucketDocumentNames;
import io.bucketer.buckets.BucketStats;
import io.bucketer.buckets.ClosedBucket;
import io.bucketer.buckets.Measurement;
import io.bucketer.buckets.SeriesKey;
import io.bucketer.buckets.WindowExtras;
import io.bucketer.buckets.WindowQuality;
import io.bucketer.buckets.WindowSummary;
import java.util.List;
import org.bson.BsonDocument;
import org.junit.jupiter.api.Test;

class BucketDocumentsTest {

  /** Equal values and the same field order: MongoDB compares sub-documents in order. */
  private static void assertSameDocument(final BsonDocument actual, final BsonDocument expected) {
    assertThat(actual).isEqualTo(expected);
    assertThat(actual.toJson()).isEqualTo(expected.toJson());
  }

  @Test
  void shouldMapABucketWithMetricAndOffset() {
    final ClosedBucket bucket = bucket("sensor-1", "temperature", MINUTE, START, 60, 20.5, 22.5);

    assertSameDocument(
        BucketDocuments.toDocument(bucket),
        BsonDocument.parse(
            """
            {
              "_id": {
                "sensor_id": "sensor-1",
                "metric": "temperature",
                "granularity": "1m",
                "start": {"$date": "2023-11-14T22:13:00Z"},
                "seq": 0
              },
              "schema_version": 3,
              "sensor_id": "sensor-1",
              "metric": "temperature",
              "granularity": "1m",
              "start_date": {"$date": "2023-11-14T22:13:00Z"},
              "end_date": {"$date": "2023-11-14T22:14:00Z"},
              "seq": 0,
              "buckets": 1,
              "revision": 0,
              "utc_offset_minutes": 60,
              "count": {"$numberLong": "2"},
              "sum": 43.0,
              "avg": 21.5,
              "min": 20.5,
              "max": 22.5,
              "first_timestamp": {"$date": "2023-11-14T22:13:00Z"},
              "first_value": 20.5,
              "last_timestamp": {"$date": "2023-11-14T22:13:01Z"},
              "last_value": 22.5,
              "stddev": 1.0,
              "window": {
                "count": {"$numberLong": "2"}, "sum": 43.0, "avg": 21.5, "min": 20.5, "max": 22.5,
                "first_timestamp": {"$date": "2023-11-14T22:13:00Z"}, "first_value": 20.5,
                "last_timestamp": {"$date": "2023-11-14T22:13:01Z"}, "last_value": 22.5,
                "stddev": 1.0
              },
              "measurements": [
                {"timestamp": {"$date": "2023-11-14T22:13:00Z"}, "value": 20.5},
                {"timestamp": {"$date": "2023-11-14T22:13:01Z"}, "value": 22.5}
              ]
            }
            """));
  }

  @Test
  void shouldOmitAnAbsentMetricAndOffsetButKeepTheIdShape() {
    final ClosedBucket bucket = bucket("sensor-2", null, HOUR, HOUR.windowStart(START), null, 4.0);

    assertSameDocument(
        BucketDocuments.toDocument(bucket),
        BsonDocument.parse(
            """
            {
              "_id": {
                "sensor_id": "sensor-2",
                "metric": null,
                "granularity": "1h",
                "start": {"$date": "2023-11-14T22:00:00Z"},
                "seq": 0
              },
              "schema_version": 3,
              "sensor_id": "sensor-2",
              "granularity": "1h",
              "start_date": {"$date": "2023-11-14T22:00:00Z"},
              "end_date": {"$date": "2023-11-14T23:00:00Z"},
              "seq": 0,
              "buckets": 1,
              "revision": 0,
              "count": {"$numberLong": "1"},
              "sum": 4.0,
              "avg": 4.0,
              "min": 4.0,
              "max": 4.0,
              "first_timestamp": {"$date": "2023-11-14T22:00:00Z"},
              "first_value": 4.0,
              "last_timestamp": {"$date": "2023-11-14T22:00:00Z"},
              "last_value": 4.0,
              "stddev": 0.0,
              "window": {
                "count": {"$numberLong": "1"}, "sum": 4.0, "avg": 4.0, "min": 4.0, "max": 4.0,
                "first_timestamp": {"$date": "2023-11-14T22:00:00Z"}, "first_value": 4.0,
                "last_timestamp": {"$date": "2023-11-14T22:00:00Z"}, "last_value": 4.0,
                "stddev": 0.0
              },
              "measurements": [{"timestamp": {"$date": "2023-11-14T22:00:00Z"}, "value": 4.0}]
            }
            """));
  }

  @Test
  void shouldHoldTheSummariesOfItsMinutesInAnHourInsteadOfMeasurements() {
    final ClosedBucket first = bucket("s", null, MINUTE, START, null, 1.0, 3.0);
    final ClosedBucket second = bucket("s", null, MINUTE, START + 60_000, null, 5.0);
    final ClosedBucket hour =
        ClosedBucket.ofSummaries(
                first.series(),
                HOUR,
                HOUR.windowStart(START),
                first.stats().merge(second.stats()),
                List.of(
                    new WindowSummary(MINUTE, START, first.stats()),
                    new WindowSummary(MINUTE, START + 60_000, second.stats())),
                0,
                100)
            .get(0);

    final BsonDocument document = BucketDocuments.toDocument(hour);

    assertThat(document.containsKey("measurements")).isFalse();
    assertThat(document.getString("summary_granularity").getValue()).isEqualTo("1m");
    assertThat(document.getNumber("count").longValue()).isEqualTo(3);
    assertThat(document.getDouble("stddev").getValue())
        .isCloseTo(Math.sqrt(8.0 / 3), within(1e-12));
    assertSameDocument(
        document.getArray("summaries").get(0).asDocument(),
        BsonDocument.parse(
            """
            {
              "start_date": {"$date": "2023-11-14T22:13:00Z"},
              "count": {"$numberLong": "2"}, "sum": 4.0, "avg": 2.0, "min": 1.0, "max": 3.0,
              "first_timestamp": {"$date": "2023-11-14T22:13:00Z"}, "first_value": 1.0,
              "last_timestamp": {"$date": "2023-11-14T22:13:01Z"}, "last_value": 3.0,
              "stddev": 1.0
            }
            """));
    assertThat(
            document.getArray("summaries").get(1).asDocument().getDouble("first_value").getValue())
        .isEqualTo(5.0);
  }

  @Test
  void shouldSayTheExpectedReadingsAndLeaveOutCountsOfNoneInAVersionFourDocument() {
    // a minute at an expected 5 s should have 12 readings; nothing was resent or late
    final ClosedBucket minute =
        bucket("s", "m", MINUTE, START, null, 1.0, 2.0)
            .withExtras(new WindowExtras(null, null, null, null, WindowQuality.NONE, 5_000L));
    final ClosedBucket unexpected =
        minute.withExtras(new WindowExtras(null, null, null, null, new WindowQuality(0, 2), null));

    final BsonDocument document = BucketDocuments.toDocument(minute);
    final BsonDocument late = BucketDocuments.toDocument(unexpected);

    assertThat(document.getInt32("schema_version").getValue()).isEqualTo(4);
    assertSameDocument(
        withoutComputedFields(document.getDocument("window")),
        BsonDocument.parse(
            """
            {"expected_interval_ms": {"$numberLong": "5000"}, "expected": 12.0}
            """));
    assertSameDocument(
        withoutComputedFields(late.getDocument("window")),
        BsonDocument.parse(
            """
            {"late_readings": {"$numberLong": "2"}}
            """));
  }

  /** {@code fields} without count, sum, avg, min, max, first, last and stddev. */
  private static BsonDocument withoutComputedFields(final BsonDocument fields) {
    final BsonDocument rest = new BsonDocument();
    rest.putAll(fields);
    for (final String name :
        List.of(
            "count",
            "sum",
            "avg",
            "min",
            "max",
            "first_timestamp",
            "first_value",
            "last_timestamp",
            "last_value",
            "stddev")) {
      rest.remove(name);
    }
    return rest;
  }

  @Test
  void shouldLeaveOutWhatStatsFromAnOlderVersionDoNotKnow() {
    final BsonDocument document =
        BucketDocuments.toDocument(
            new ClosedBucket(
                new SeriesKey("s", null),
                MINUTE,
                START,
                BucketStats.withoutSpread(1, 2.0, 2.0, 2.0, START, START, null),
                List.of(new Measurement(START, 2.0))));

    assertThat(document.containsKey("first_value")).isFalse();
    assertThat(document.containsKey("last_value")).isFalse();
    assertThat(document.containsKey("stddev")).isFalse();
    assertThat(document.getDouble("avg").getValue()).isEqualTo(2.0);
  }

  @Test
  void shouldGiveTheSameDocumentAndIdForTheSameBucket() {
    final ClosedBucket bucket = bucket("s", "m", MINUTE, START, null, 1.0, 2.0);
    final ClosedBucket copy = bucket("s", "m", MINUTE, START, null, 1.0, 2.0);

    assertSameDocument(BucketDocuments.toDocument(copy), BucketDocuments.toDocument(bucket));
    assertSameDocument(
        BucketDocuments.idOf(bucket), BucketDocuments.toDocument(bucket).getDocument("_id"));
  }

  @Test
  void shouldNameOneCollectionPerGranularity() {
    assertThat(
            BucketDocumentNames.collectionName(
                BucketDocumentNames.DEFAULT_COLLECTION_PREFIX, MINUTE))
        .isEqualTo("buckets_1m");
    assertThat(BucketDocumentNames.collectionName("buckets_", HOUR)).isEqualTo("buckets_1h");
  }
}
