package io.bucketer.bench;

import com.mongodb.client.model.Filters;
import com.mongodb.reactivestreams.client.MongoClient;
import com.mongodb.reactivestreams.client.MongoClients;
import com.mongodb.reactivestreams.client.MongoCollection;
import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.SeriesKey;
import io.bucketer.query.LiveWindows;
import io.bucketer.query.SeriesQueries;
import io.bucketer.query.StoredBuckets;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.function.LongSupplier;
import org.bson.BsonDocument;
import org.bson.conversions.Bson;
import reactor.core.publisher.Flux;

/**
 * Answers "the average of one series over one hour" from each layout and counts, on the server, the
 * documents MongoDB returned for it: bucketer's buckets, read as its own query reads them, and one
 * document per reading as the sink connector writes them.
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

  /**
   * The buckets as the processor's own query reads them ({@link SeriesQueries}, from MongoDB
   * alone): one hour bucket for an hour on the hour; for one that starts mid-hour, the minute
   * summaries of the two hours it cuts.
   */
  Answer fromBuckets(
      final String layout,
      final String database,
      final String prefix,
      final List<Granularity> granularities,
      final SeriesKey series,
      final Instant from) {
    final long before = documentsReturned.getAsLong();
    final SeriesQueries.Statistics statistics =
        new SeriesQueries(
                new StoredBuckets(client.getDatabase(database), prefix, granularities, TIMEOUT))
            .statistics(
                series,
                from.toEpochMilli(),
                from.plus(Duration.ofHours(1)).toEpochMilli(),
                LiveWindows.NONE);
    return new Answer(layout, documentsReturned.getAsLong() - before, statistics.average());
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

  private MongoCollection<BsonDocument> collection(final String database, final String name) {
    return client.getDatabase(database).getCollection(name, BsonDocument.class);
  }

  @Override
  public void close() {
    client.close();
  }
}
