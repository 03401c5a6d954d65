package io.bucketer.query;

import static io.bucketer.buckets.BucketDocumentNames.COUNT;
import static io.bucketer.buckets.BucketDocumentNames.METRIC;
import static io.bucketer.buckets.BucketDocumentNames.SENSOR_ID;
import static io.bucketer.buckets.BucketDocumentNames.START_DATE;

import com.mongodb.client.model.Accumulators;
import com.mongodb.client.model.Aggregates;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.Projections;
import com.mongodb.client.model.Sorts;
import com.mongodb.reactivestreams.client.MongoClient;
import com.mongodb.reactivestreams.client.MongoClients;
import com.mongodb.reactivestreams.client.MongoCollection;
import io.bucketer.buckets.BucketDocumentNames;
import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.SeriesKey;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.bson.BsonDocument;
import org.bson.BsonNumber;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The bucket documents as stored, read back whole: counts and totals per granularity, and single
 * documents to show. What the demo prints and what the tests check the sink's writes against; the
 * query API reads through {@link StoredBuckets} instead, which knows how windows span documents.
 */
public final class StoredDocuments implements AutoCloseable {

  private static final Duration TIMEOUT = Duration.ofSeconds(30);

  private final MongoClient client;
  private final String database;
  private final String collectionPrefix;
  private final Duration timeout;

  public StoredDocuments(
      final String connectionString, final String database, final String collectionPrefix) {
    this(connectionString, database, collectionPrefix, TIMEOUT);
  }

  /**
   * @param timeout how long a read may take: the MongoDB stand-in sums an hour of a fleet's
   *     documents in minutes, not seconds
   */
  public StoredDocuments(
      final String connectionString,
      final String database,
      final String collectionPrefix,
      final Duration timeout) {
    this.client = MongoClients.create(connectionString);
    this.database = database;
    this.collectionPrefix = collectionPrefix;
    this.timeout = timeout;
  }

  /** Number of bucket documents of one granularity. */
  public long documents(final Granularity granularity) {
    return Mono.from(collection(granularity).countDocuments()).block(timeout);
  }

  /** Sum of the {@code count} fields of one granularity: the readings its buckets hold. */
  public long readingsInBuckets(final Granularity granularity) {
    final List<BsonDocument> result =
        Flux.from(
                collection(granularity)
                    .aggregate(
                        List.of(Aggregates.group(null, Accumulators.sum("readings", "$" + COUNT)))))
            .collectList()
            .block(timeout);
    if (result == null || result.isEmpty()) {
      return 0;
    }
    final BsonNumber readings = result.get(0).getNumber("readings");
    return readings.longValue();
  }

  /** The earliest of the fullest bucket documents of one granularity, if any. */
  public Optional<BsonDocument> fullest(final Granularity granularity) {
    return Optional.ofNullable(
        Mono.from(
                collection(granularity)
                    .find()
                    .sort(Sorts.orderBy(Sorts.descending(COUNT), Sorts.ascending(START_DATE)))
                    .first())
            .block(timeout));
  }

  /**
   * The first document of {@code series}' window of one granularity that starts at {@code start}.
   */
  public Optional<BsonDocument> first(
      final SeriesKey series, final Granularity granularity, final Instant start) {
    return Optional.ofNullable(
        Mono.from(
                collection(granularity)
                    .find(
                        Filters.and(
                            Filters.eq(SENSOR_ID, series.sensorId()),
                            Filters.eq(METRIC, series.metric()),
                            Filters.eq(START_DATE, Date.from(start))))
                    .first())
            .block(timeout));
  }

  /**
   * The query API's read path over these documents, for {@code granularities} in their default
   * layout.
   */
  public StoredBuckets buckets(final List<Granularity> granularities) {
    return new StoredBuckets(
        client.getDatabase(database), collectionPrefix, granularities, timeout);
  }

  /**
   * The readings each window of one granularity holds, summed over the window's documents (a window
   * may span several). Reads only the four fields it needs of each document.
   */
  public Map<WindowId, Long> countsByWindow(final Granularity granularity) {
    final Map<WindowId, Long> counts = new HashMap<>();
    for (final BsonDocument document :
        Flux.from(
                collection(granularity)
                    .find()
                    .projection(Projections.include(SENSOR_ID, METRIC, START_DATE, COUNT)))
            .toIterable()) {
      final SeriesKey series =
          new SeriesKey(
              document.getString(SENSOR_ID).getValue(),
              document.isString(METRIC) ? document.getString(METRIC).getValue() : null);
      final Instant start = Instant.ofEpochMilli(document.getDateTime(START_DATE).getValue());
      counts.merge(new WindowId(series, start), document.getNumber(COUNT).longValue(), Long::sum);
    }
    return counts;
  }

  /** A window of a series: its series and its start. */
  public record WindowId(SeriesKey series, Instant start) {}

  /** Every bucket document of one granularity. */
  public List<BsonDocument> all(final Granularity granularity) {
    return Flux.from(collection(granularity).find()).collectList().block(timeout);
  }

  private MongoCollection<BsonDocument> collection(final Granularity granularity) {
    return client
        .getDatabase(database)
        .getCollection(
            BucketDocumentNames.collectionName(collectionPrefix, granularity), BsonDocument.class);
  }

  @Override
  public void close() {
    client.close();
  }
}
