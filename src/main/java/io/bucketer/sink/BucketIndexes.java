package io.bucketer.sink;

import static io.bucketer.buckets.BucketDocumentNames.METRIC;
import static io.bucketer.buckets.BucketDocumentNames.SENSOR_ID;
import static io.bucketer.buckets.BucketDocumentNames.START_DATE;

import com.mongodb.client.model.IndexOptions;
import com.mongodb.client.model.Indexes;
import com.mongodb.reactivestreams.client.MongoCollection;
import com.mongodb.reactivestreams.client.MongoDatabase;
import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.Retention;
import java.util.Map;
import org.bson.BsonDocument;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The indexes every bucket collection needs: the series/time index the queries of a series' range
 * use, and the TTL indexes that keep the retention ({@link RetentionIndexes}). Apart from the
 * writer, which only decides when they are ensured and what a failure means.
 */
final class BucketIndexes {

  /** Name of the {@code {sensor_id: 1, metric: 1, start_date: 1}} index on each collection. */
  static final String SERIES_TIME_INDEX = "sensor_id_metric_start_date";

  private final Map<Granularity, MongoCollection<BsonDocument>> collections;
  private final RetentionIndexes retentionIndexes;

  BucketIndexes(
      final MongoDatabase database,
      final Map<Granularity, MongoCollection<BsonDocument>> collections,
      final Retention retention) {
    this.collections = Map.copyOf(collections);
    this.retentionIndexes = new RetentionIndexes(database, collections, retention);
  }

  /**
   * Creates the series/time index on every collection (a no-op when present), then brings their TTL
   * indexes in line with the retention; completes once MongoDB has done so.
   */
  Mono<Void> ensure() {
    final IndexOptions options = new IndexOptions().name(SERIES_TIME_INDEX);
    return Flux.fromIterable(collections.values())
        .flatMap(
            collection ->
                collection.createIndex(Indexes.ascending(SENSOR_ID, METRIC, START_DATE), options))
        .then()
        .then(retentionIndexes.apply());
  }
}
