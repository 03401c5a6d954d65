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
import java.util.Optional;
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
   * A question about one series over {@code [start + offset, start + offset + length)}: its
   * statistics, or a chart of its windows of one granularity.
   */
  record Question(String label, Duration offset, Duration length, Optional<Granularity> chart) {

    static Question statistics(final String label, final Duration offset, final Duration length) {
      return new Question(label, offset, length, Optional.empty());
    }

    static Question chart(
        final String label, final Granularity granularity, final Duration length) {
      return new Question(label, Duration.ZERO, length, Optional.of(granularity));
    }

    Instant from(final Instant start) {
      return start.plus(offset);
    }
  }

  /**
   * The answer as the processor's own query reads it ({@link SeriesQueries}, from MongoDB alone):
   * statistics of an hour on the hour from one hour bucket, of one that starts mid-hour from the
   * minute summaries of the two hours it cuts; a chart's minutes from their hours' summaries.
   */
  Answer fromBuckets(
      final Question question,
      final String database,
      final String prefix,
      final List<Granularity> granularities,
      final SeriesKey series,
      final Instant start) {
    final long from = question.from(start).toEpochMilli();
    final long to = question.from(start).plus(question.length()).toEpochMilli();
    final SeriesQueries queries =
        new SeriesQueries(
            new StoredBuckets(client.getDatabase(database), prefix, granularities, TIMEOUT));
    final long before = documentsReturned.getAsLong();
    final double average;
    if (question.chart().isEmpty()) {
      average = queries.statistics(series, from, to, LiveWindows.NONE).average();
    } else {
      double sum = 0;
      long count = 0;
      for (final WindowTotals window :
          queries.windows(series, question.chart().get(), from, to, LiveWindows.NONE).windows()) {
        sum += window.sum();
        count += window.count();
      }
      average = sum / count;
    }
    return new Answer(question.label(), documentsReturned.getAsLong() - before, average);
  }

  /** Every reading's own document in the question's range, as the connector wrote it. */
  Answer fromReadingDocuments(
      final Question question,
      final String database,
      final String collection,
      final SeriesKey series,
      final Instant start) {
    final Instant from = question.from(start);
    final Bson query =
        Filters.and(
            Filters.eq("sensor_id", series.sensorId()),
            Filters.eq("metric", series.metric()),
            Filters.gte("timestamp", Date.from(from)),
            Filters.lt("timestamp", Date.from(from.plus(question.length()))));
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
