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
import io.bucketer.query.WindowTotals;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.function.LongSupplier;
import org.bson.BsonDocument;
import org.bson.conversions.Bson;
import reactor.core.publisher.Flux;

/**
 * Answers questions about one series over a range from each layout and counts, on the server, the
 * documents MongoDB returned for them: bucketer's buckets, read as its own query reads them, and
 * one document per reading as the sink connector writes them. Each answer carries the range's
 * average, so the layouts can be seen to agree.
 */
final class RangeReads implements AutoCloseable {

  /** One way of answering: the documents it read and the average it found. */
  record Answer(String layout, long documentsRead, double average) {}

  private static final Duration TIMEOUT = Duration.ofSeconds(60);

  private final MongoClient client;
  private final LongSupplier documentsReturned;

  RangeReads(final String mongoUri, final LongSupplier documentsReturned) {
    this.client = MongoClients.create(mongoUri);
    this.documentsReturned = documentsReturned;
  }

  /**
   * The statistics of {@code [from, from + length)} as the processor's own query reads them ({@link
   * SeriesQueries}, from MongoDB alone): for an hour on the hour, one hour bucket; for one that
   * starts mid-hour, the minute summaries of the two hours it cuts.
   */
  Answer statisticsFromBuckets(
      final String layout,
      final String database,
      final String prefix,
      final List<Granularity> granularities,
      final SeriesKey series,
      final Instant from,
      final Duration length) {
    final long before = documentsReturned.getAsLong();
    final SeriesQueries.Statistics statistics =
        queries(database, prefix, granularities)
            .statistics(
                series, from.toEpochMilli(), from.plus(length).toEpochMilli(), LiveWindows.NONE);
    return new Answer(layout, documentsReturned.getAsLong() - before, statistics.average());
  }

  /**
   * A chart: every window of {@code granularity} in {@code [from, from + length)}, as the chart API
   * reads them; minutes come from the summaries in their hours' documents.
   */
  Answer chartFromBuckets(
      final String layout,
      final String database,
      final String prefix,
      final List<Granularity> granularities,
      final SeriesKey series,
      final Granularity granularity,
      final Instant from,
      final Duration length) {
    final long before = documentsReturned.getAsLong();
    final SeriesQueries.Windows windows =
        queries(database, prefix, granularities)
            .windows(
                series,
                granularity,
                from.toEpochMilli(),
                from.plus(length).toEpochMilli(),
                LiveWindows.NONE);
    double sum = 0;
    long count = 0;
    for (final WindowTotals window : windows.windows()) {
      sum += window.sum();
      count += window.count();
    }
    return new Answer(layout, documentsReturned.getAsLong() - before, sum / count);
  }

  /** Every reading's own document in {@code [from, from + length)}, as the connector wrote it. */
  Answer fromReadingDocuments(
      final String database,
      final String collection,
      final String sensorId,
      final String metric,
      final Instant from,
      final Duration length) {
    final Bson query =
        Filters.and(
            Filters.eq("sensor_id", sensorId),
            Filters.eq("metric", metric),
            Filters.gte("timestamp", Date.from(from)),
            Filters.lt("timestamp", Date.from(from.plus(length))));
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

  private SeriesQueries queries(
      final String database, final String prefix, final List<Granularity> granularities) {
    return new SeriesQueries(
        new StoredBuckets(client.getDatabase(database), prefix, granularities, TIMEOUT));
  }

  private MongoCollection<BsonDocument> collection(final String database, final String name) {
    return client.getDatabase(database).getCollection(name, BsonDocument.class);
  }

  @Override
  public void close() {
    client.close();
  }
}
