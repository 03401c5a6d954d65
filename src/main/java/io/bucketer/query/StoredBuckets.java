package io.bucketer.query;

import com.mongodb.MongoException;
import com.mongodb.client.model.Accumulators;
import com.mongodb.client.model.Aggregates;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.Projections;
import com.mongodb.client.model.Sorts;
import com.mongodb.reactivestreams.client.MongoCollection;
import com.mongodb.reactivestreams.client.MongoDatabase;
import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.Measurement;
import io.bucketer.buckets.SeriesKey;
import io.bucketer.sink.BucketDocuments;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Date;
import java.util.List;
import java.util.regex.Pattern;
import org.bson.BsonDocument;
import org.bson.BsonString;
import org.bson.BsonValue;
import org.bson.conversions.Bson;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The closed buckets of a series as MongoDB holds them, read through the {@code {sensor_id, metric,
 * start_date}} index: window totals from the first document of each window (a window split by
 * {@code bucket.max.measurements} carries its totals in {@code seq} 0), and raw measurements. Every
 * method says how many documents it read.
 */
public final class StoredBuckets {

  /** What a read found, and the documents it took. */
  public record Read<T>(T found, long documentsRead) {}

  private final MongoDatabase database;
  private final String collectionPrefix;
  private final List<Granularity> granularities;
  private final Duration timeout;

  /**
   * @param timeout how long one read may wait for MongoDB
   */
  public StoredBuckets(
      final MongoDatabase database,
      final String collectionPrefix,
      final List<Granularity> granularities,
      final Duration timeout) {
    this.database = database;
    this.collectionPrefix = collectionPrefix;
    this.granularities = granularities.stream().sorted().toList();
    this.timeout = timeout;
  }

  /** The configured granularities, finest first. */
  public List<Granularity> granularities() {
    return granularities;
  }

  /** The totals of the stored windows of {@code granularity} starting in {@code [from, to)}. */
  public Read<List<WindowTotals>> windows(
      final SeriesKey series, final Granularity granularity, final long from, final long to) {
    final Bson query =
        Filters.and(
            seriesFilter(series),
            Filters.gte("start_date", new Date(from)),
            Filters.lt("start_date", new Date(to)),
            Filters.eq("seq", 0));
    final List<BsonDocument> documents =
        find(granularity, query, Projections.include("start_date", "window"));
    final List<WindowTotals> windows = new ArrayList<>();
    for (final BsonDocument bucket : documents) {
      final BsonDocument window = bucket.getDocument("window");
      windows.add(
          new WindowTotals(
              granularity,
              bucket.getDateTime("start_date").getValue(),
              window.getNumber("count").longValue(),
              window.getNumber("sum").doubleValue(),
              window.getNumber("min").doubleValue(),
              window.getNumber("max").doubleValue(),
              false));
    }
    windows.sort(Comparator.comparingLong(WindowTotals::start));
    return new Read<>(windows, documents.size());
  }

  /** The stored readings of {@code series} with {@code from <= timestamp < to}, in time order. */
  public Read<List<Measurement>> measurements(
      final SeriesKey series, final long from, final long to) {
    final Granularity finest = granularities.get(0);
    // Every part of every finest bucket that overlaps the stretch: parts split by count, not time.
    final Bson query =
        Filters.and(
            seriesFilter(series),
            Filters.gte("start_date", new Date(finest.windowStart(from))),
            Filters.lt("start_date", new Date(to)));
    final List<BsonDocument> documents = find(finest, query, Projections.include("measurements"));
    final List<Measurement> measurements = new ArrayList<>();
    for (final BsonDocument bucket : documents) {
      for (final BsonValue value : bucket.getArray("measurements")) {
        final BsonDocument measurement = value.asDocument();
        final long timestamp = measurement.getDateTime("timestamp").getValue();
        if (timestamp >= from && timestamp < to) {
          measurements.add(
              new Measurement(timestamp, measurement.getNumber("value").doubleValue()));
        }
      }
    }
    measurements.sort(Comparator.comparingLong(Measurement::timestamp));
    return new Read<>(measurements, documents.size());
  }

  /** True when any bucket of {@code series} is stored, in the finest granularity's collection. */
  public boolean hasSeries(final SeriesKey series) {
    return awaitRead(
        Flux.from(
                collection(granularities.get(0))
                    .find(seriesFilter(series))
                    .projection(Projections.include("_id"))
                    .limit(1))
            .hasElements());
  }

  /**
   * Up to {@code limit} stored series whose sensor id starts with {@code prefix}, in order, from
   * the coarsest collection (the fewest documents per series).
   */
  public List<SeriesKey> series(final String prefix, final int limit) {
    final Granularity coarsest = granularities.get(granularities.size() - 1);
    final List<Bson> pipeline =
        List.of(
            Aggregates.match(
                Filters.regex("sensor_id", Pattern.compile("^" + Pattern.quote(prefix)))),
            Aggregates.group(
                new BsonDocument("sensor_id", new BsonString("$sensor_id"))
                    .append("metric", new BsonString("$metric")),
                Accumulators.sum("buckets", 1)),
            Aggregates.sort(Sorts.ascending("_id.sensor_id", "_id.metric")),
            Aggregates.limit(limit));
    final List<BsonDocument> groups =
        awaitRead(
            Flux.from(collection(coarsest).aggregate(pipeline, BsonDocument.class)).collectList());
    return groups.stream()
        .map(group -> group.getDocument("_id"))
        .map(
            id ->
                new SeriesKey(
                    id.getString("sensor_id").getValue(),
                    id.isString("metric") ? id.getString("metric").getValue() : null))
        .toList();
  }

  /** A series without a metric has no {@code metric} field, which equality with null matches. */
  private static Bson seriesFilter(final SeriesKey series) {
    return Filters.and(
        Filters.eq("sensor_id", series.sensorId()), Filters.eq("metric", series.metric()));
  }

  private List<BsonDocument> find(
      final Granularity granularity, final Bson query, final Bson projection) {
    return awaitRead(
        Flux.from(collection(granularity).find(query).projection(projection)).collectList());
  }

  /** The read's result, waiting at most the timeout; MongoDB's failures as one exception. */
  private <T> T awaitRead(final Mono<T> read) {
    try {
      return read.block(timeout);
    } catch (MongoException e) {
      throw new StoreUnavailableException("MongoDB refused or failed the read: " + e, e);
    } catch (IllegalStateException e) {
      // Reactor's block(timeout) reports a timeout this way, with no type of its own.
      throw new StoreUnavailableException("MongoDB did not answer within " + timeout, e);
    }
  }

  private MongoCollection<BsonDocument> collection(final Granularity granularity) {
    return database.getCollection(
        BucketDocuments.collectionName(collectionPrefix, granularity), BsonDocument.class);
  }
}
