package io.bucketer.bench;

import com.mongodb.client.model.Filters;
import com.mongodb.reactivestreams.client.MongoClient;
import com.mongodb.reactivestreams.client.MongoClients;
import com.mongodb.reactivestreams.client.MongoCollection;
import io.bucketer.buckets.Granularity;
import io.bucketer.sink.BucketDocuments;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.function.LongSupplier;
import org.bson.BsonDocument;
import org.bson.conversions.Bson;
import reactor.core.publisher.Flux;

/**
 * Answers "the average of one series over one hour" from each layout and counts the documents
 * MongoDB returned for it: one bucket per hour, minute buckets when the hour does not start on an
 * hour, and one document per reading as the sink connector writes them.
 */
final class HourAverageReads implements AutoCloseable {

  /** One way of answering: the documents it read and the average it found. */
  record Answer(String layout, long documentsRead, double average) {}

  private static final Duration TIMEOUT = Duration.ofSeconds(60);

  private final MongoClient client;
  private final LongSupplier documentsReturned;

  HourAverageReads(final String mongoUri, final LongSupplier documentsReturned) {
    this.client = MongoClients.create(mongoUri);
    this.documentsReturned = documentsReturned;
  }

  /** The hour bucket's window totals: every part of a split window carries them. */
  Answer fromHourBucket(
      final String database,
      final String prefix,
      final String sensorId,
      final String metric,
      final Instant hour) {
    final Bson query =
        Filters.and(
            Filters.eq("sensor_id", sensorId),
            Filters.eq("metric", metric),
            Filters.eq("start_date", Date.from(hour)),
            Filters.eq("seq", 0));
    return totals(
        "hour bucket, hour starts on the hour",
        collection(database, BucketDocuments.collectionName(prefix, Granularity.parse("1h"))),
        query);
  }

  /** Sixty minute buckets' window totals, for an hour that starts at {@code from}. */
  Answer fromMinuteBuckets(
      final String database,
      final String prefix,
      final String sensorId,
      final String metric,
      final Instant from) {
    final Bson query =
        Filters.and(
            Filters.eq("sensor_id", sensorId),
            Filters.eq("metric", metric),
            Filters.gte("start_date", Date.from(from)),
            Filters.lt("start_date", Date.from(from.plus(Duration.ofHours(1)))),
            Filters.eq("seq", 0));
    return totals(
        "minute buckets, hour starts mid-hour",
        collection(database, BucketDocuments.collectionName(prefix, Granularity.parse("1m"))),
        query);
  }

  /** Every reading's own document, as the sink connector wrote it. */
  Answer fromReadingDocuments(
      final String database,
      final String collection,
      final String sensorId,
      final String metric,
      final Instant from) {
    final Bson query =
        Filters.and(
            Filters.eq("sensor_id", sensorId),
            Filters.eq("metric", metric),
            Filters.gte("timestamp", Date.from(from)),
            Filters.lt("timestamp", Date.from(from.plus(Duration.ofHours(1)))));
    final long before = documentsReturned.getAsLong();
    final List<BsonDocument> readings =
        Flux.from(collection(database, collection).find(query)).collectList().block(TIMEOUT);
    final double sum =
        readings.stream().mapToDouble(doc -> doc.getNumber("value").doubleValue()).sum();
    return new Answer(
        "one document per reading (connector)",
        documentsReturned.getAsLong() - before,
        sum / readings.size());
  }

  private Answer totals(
      final String layout, final MongoCollection<BsonDocument> collection, final Bson query) {
    final long before = documentsReturned.getAsLong();
    final List<BsonDocument> buckets =
        Flux.from(collection.find(query)).collectList().block(TIMEOUT);
    long count = 0;
    double sum = 0;
    for (final BsonDocument bucket : buckets) {
      final BsonDocument window = bucket.getDocument("window");
      count += window.getNumber("count").longValue();
      sum += window.getNumber("sum").doubleValue();
    }
    return new Answer(layout, documentsReturned.getAsLong() - before, sum / count);
  }

  private MongoCollection<BsonDocument> collection(final String database, final String name) {
    return client.getDatabase(database).getCollection(name, BsonDocument.class);
  }

  @Override
  public void close() {
    client.close();
  }
}
