package io.bucketer.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import com.mongodb.reactivestreams.client.MongoClient;
import com.mongodb.reactivestreams.client.MongoClients;
import com.mongodb.reactivestreams.client.MongoCollection;
import io.bucketer.buckets.BucketStats;
import io.bucketer.buckets.ClosedBucket;
import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.Measurement;
import io.bucketer.buckets.SeriesKey;
import io.bucketer.buckets.WindowQuality;
import io.bucketer.embedded.EmbeddedMongoServer;
import io.bucketer.query.StoredWindows.StoredWindow;
import io.bucketer.sink.BucketDocuments;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.bson.BsonDocument;
import org.bson.BsonDouble;
import org.bson.BsonInt32;
import org.bson.BsonInt64;
import org.bson.codecs.BsonDocumentCodec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

/** The window totals a backfill reads, from documents as the sink writes them. */
class StoredWindowsTest {

  private static final Granularity MINUTE = Granularity.parse("1m");
  private static final long T0 = Instant.parse("2026-03-01T10:00:00Z").toEpochMilli();
  private static final SeriesKey A = new SeriesKey("a", "temperature");
  private static final SeriesKey B = new SeriesKey("b", null);

  private EmbeddedMongoServer server;
  private MongoClient client;
  private MongoCollection<BsonDocument> minutes;
  private StoredWindows stored;

  @BeforeEach
  void start() {
    server = EmbeddedMongoServer.start();
    client = MongoClients.create(server.connectionString());
    minutes = client.getDatabase("iot").getCollection("buckets_1m", BsonDocument.class);
    stored = new StoredWindows(client.getDatabase("iot"), "buckets_");
  }

  @AfterEach
  void stop() {
    client.close();
    server.close();
  }

  /** The documents of a minute of {@code readings} readings, 5 to a document, at revision 2. */
  private static List<BsonDocument> minute(
      final SeriesKey series, final long start, final int readings, final Integer offset) {
    final List<Measurement> measurements = new ArrayList<>();
    for (int i = 0; i < readings; i++) {
      measurements.add(new Measurement(start + i * 1_000L, i));
    }
    final List<BsonDocument> documents = new ArrayList<>();
    for (final ClosedBucket bucket :
        ClosedBucket.ofWindow(
            series, MINUTE, start, BucketStats.ofAll(measurements, offset), measurements, 2, 5)) {
      documents.add(BucketDocuments.toDocument(bucket).decode(new BsonDocumentCodec()));
    }
    return documents;
  }

  private void store(final List<BsonDocument> documents) {
    for (final BsonDocument document : documents) {
      Mono.from(minutes.insertOne(document)).block(Duration.ofSeconds(10));
    }
  }

  private List<StoredWindow> read(final long from, final long until) {
    final List<StoredWindow> windows = new ArrayList<>();
    stored
        .read(MINUTE, Instant.ofEpochMilli(from), Instant.ofEpochMilli(until))
        .forEachRemaining(windows::add);
    return windows;
  }

  @Test
  void shouldGiveEachWindowOnceBySeriesAndStartWithItsWholeTotals() {
    store(minute(B, T0, 3, null));
    store(minute(A, T0 + 60_000, 12, 60));
    store(minute(A, T0, 2, 60));
    store(minute(A, T0 + 120_000, 1, 60)); // after the range

    final List<StoredWindow> windows = read(T0, T0 + 120_000);

    assertThat(windows)
        .extracting(StoredWindow::series, StoredWindow::start)
        .containsExactly(tuple(A, T0), tuple(A, T0 + 60_000), tuple(B, T0));
    final StoredWindow split = windows.get(1);
    assertThat(split.stats().count()).isEqualTo(12);
    assertThat(split.stats().sum()).isEqualTo(66);
    assertThat(split.stats().firstTimestamp()).isEqualTo(T0 + 60_000);
    assertThat(split.stats().lastTimestamp()).isEqualTo(T0 + 71_000);
    assertThat(split.stats().average()).isEqualTo(5.5);
    assertThat(split.revision()).isEqualTo(2);
    assertThat(split.stats().utcOffsetMinutes()).isEqualTo(60);
    assertThat(windows.get(2).stats().utcOffsetMinutes()).isNull();
  }

  @Test
  void shouldTakeTheOffsetOfTheLastDocumentThatHasOneAndIgnoreStaleOnes() {
    final List<BsonDocument> parts = minute(A, T0, 12, 60); // seq 0, 1, 2
    parts.get(1).put("utc_offset_minutes", new BsonInt32(120));
    parts.get(2).remove("utc_offset_minutes");
    final BsonDocument stale = parts.get(2).clone();
    stale.getDocument("_id").put("seq", new BsonInt32(3));
    stale.put("seq", new BsonInt32(3));
    stale.put("utc_offset_minutes", new BsonInt32(999));
    store(List.of(parts.get(2), stale, parts.get(1), parts.get(0)));

    assertThat(read(T0, T0 + 60_000))
        .singleElement()
        .satisfies(window -> assertThat(window.stats().utcOffsetMinutes()).isEqualTo(120));
  }

  @Test
  void shouldReadTheCountsAndExpectedIntervalOfSchemaVersionFourAndKnowNoneOfEarlierOnes() {
    final List<BsonDocument> counted = minute(A, T0, 12, 60);
    for (final BsonDocument part : counted) {
      part.put("schema_version", new BsonInt32(4));
      part.getDocument("window")
          .append("resends", new BsonInt64(3))
          .append("expected_interval_ms", new BsonInt64(5_000))
          .append("expected", new BsonDouble(12));
    }
    final List<BsonDocument> uncounted = minute(A, T0 + 60_000, 2, 60);
    uncounted.forEach(part -> part.put("schema_version", new BsonInt32(3)));
    // version 4 with no count: none, and without an interval configured
    final List<BsonDocument> quiet = minute(B, T0, 3, null);
    for (final BsonDocument part : quiet) {
      part.put("schema_version", new BsonInt32(4));
      part.getDocument("window").remove("resends");
      part.getDocument("window").remove("late_readings");
      part.getDocument("window").remove("expected_interval_ms");
    }
    store(counted);
    store(uncounted);
    store(quiet);

    final List<StoredWindow> windows = read(T0, T0 + 120_000);

    assertThat(windows)
        .extracting(
            StoredWindow::start, StoredWindow::quality, StoredWindow::expectedIntervalMillis)
        .containsExactly(
            tuple(T0, new WindowQuality(3, 0), 5_000L),
            tuple(T0 + 60_000, null, null),
            tuple(T0, WindowQuality.NONE, null));
  }

  @Test
  void shouldRefuseAWindowWithoutItsFirstDocument() {
    final List<BsonDocument> parts = minute(A, T0, 12, 60);
    store(parts.subList(1, 3));

    final Iterator<StoredWindow> windows =
        stored.read(MINUTE, Instant.ofEpochMilli(T0), Instant.ofEpochMilli(T0 + 60_000));

    assertThatThrownBy(windows::next)
        .isInstanceOf(IllegalStateException.class)
        .hasMessage(
            "the 1m window of a/temperature at 2026-03-01T10:00:00Z has no first document (seq"
                + " 0), only 2 later ones: its totals are unknown");
  }
}
