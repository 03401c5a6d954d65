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
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.bson.BsonBoolean;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The indexes every bucket collection needs: the series/time index the queries of a series' range
 * use, and the TTL indexes that keep the retention ({@link RetentionIndexes}). Apart from the
 * writer, which only decides when they are ensured and what a failure means.
 */
final class BucketIndexes {

  private static final BsonDocument CONNECTION_STATUS =
      new BsonDocument("connectionStatus", new BsonInt32(1))
          .append("showPrivileges", BsonBoolean.TRUE);

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

  /** Which collections lack the series/time index, and whether the login may create indexes. */
  Mono<IndexCheck> check(final MongoDatabase database) {
    final Mono<List<String>> missing =
        // Finest first, as the configuration names them: the same answer, in the same words, each
        // time.
        Flux.fromIterable(new TreeMap<>(collections).values())
            .concatMap(
                collection ->
                    Flux.from(collection.listIndexes(BsonDocument.class))
                        .any(index -> SERIES_TIME_INDEX.equals(indexName(index)))
                        .map(
                            present ->
                                present ? "" : collection.getNamespace().getCollectionName()))
            .filter(name -> !name.isEmpty())
            .collectList();
    final Mono<Optional<Boolean>> mayCreate =
        Mono.from(database.runCommand(CONNECTION_STATUS, BsonDocument.class))
            .map(status -> IndexCheck.mayCreateIndexes(status, database.getName()))
            // A server that cannot describe privileges (or refuses to) leaves the answer open.
            .onErrorReturn(Optional.empty());
    return Mono.zip(missing, mayCreate).map(both -> new IndexCheck(both.getT1(), both.getT2()));
  }

  private static String indexName(final BsonDocument index) {
    return index.isString("name") ? index.getString("name").getValue() : null;
  }
}
