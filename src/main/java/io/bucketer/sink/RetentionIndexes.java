package io.bucketer.sink;

import static io.bucketer.buckets.BucketDocumentNames.END_DATE;

import com.mongodb.MongoCommandException;
import com.mongodb.client.model.IndexOptions;
import com.mongodb.client.model.Indexes;
import com.mongodb.reactivestreams.client.MongoCollection;
import com.mongodb.reactivestreams.client.MongoDatabase;
import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.Retention;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.bson.BsonDocument;
import org.bson.BsonInt64;
import org.bson.BsonString;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Keeps each bucket collection's TTL index in line with {@code retention}: an index on {@code
 * end_date} named {@value #INDEX_NAME} whose {@code expireAfterSeconds} is the granularity's
 * retention. It is created when missing, changed in place with {@code collMod} when the retention
 * changed (no rebuild, no moment without expiry), and dropped when the granularity no longer has a
 * retention. Indexes of other names are never touched.
 */
final class RetentionIndexes {

  static final String INDEX_NAME = "end_date_ttl";

  private static final Logger LOG = LoggerFactory.getLogger(RetentionIndexes.class);
  private static final int COMMAND_NOT_FOUND = 59;

  private final MongoDatabase database;
  private final Map<Granularity, MongoCollection<BsonDocument>> collections;
  private final Retention retention;

  RetentionIndexes(
      final MongoDatabase database,
      final Map<Granularity, MongoCollection<BsonDocument>> collections,
      final Retention retention) {
    this.database = database;
    this.collections = Map.copyOf(collections);
    this.retention = retention;
  }

  /** Brings every collection's TTL index in line; completes once MongoDB has done so. */
  Mono<Void> apply() {
    return Flux.fromIterable(collections.entrySet())
        .concatMap(entry -> apply(entry.getValue(), retention.of(entry.getKey())))
        .then();
  }

  private Mono<Void> apply(
      final MongoCollection<BsonDocument> collection, final Optional<Duration> wanted) {
    return Flux.from(collection.listIndexes(BsonDocument.class))
        .filter(index -> INDEX_NAME.equals(index.getString("name", new BsonString("")).getValue()))
        .next()
        .map(index -> Optional.of(index))
        .defaultIfEmpty(Optional.empty())
        .flatMap(existing -> change(collection, existing, wanted));
  }

  private Mono<Void> change(
      final MongoCollection<BsonDocument> collection,
      final Optional<BsonDocument> existing,
      final Optional<Duration> wanted) {
    final String name = collection.getNamespace().getCollectionName();
    if (wanted.isEmpty()) {
      if (existing.isEmpty()) {
        return Mono.empty();
      }
      LOG.info("{}: no retention any more, dropping TTL index {}", name, INDEX_NAME);
      return drop(collection);
    }
    final long seconds = wanted.get().toSeconds();
    if (existing.isEmpty()) {
      LOG.info("{}: retention {} s, creating TTL index {}", name, seconds, INDEX_NAME);
      return create(collection, seconds);
    }
    final BsonDocument index = existing.get();
    if (index.isNumber("expireAfterSeconds")
        && index.getNumber("expireAfterSeconds").longValue() == seconds) {
      return Mono.empty();
    }
    LOG.info("{}: retention now {} s, changing TTL index {} in place", name, seconds, INDEX_NAME);
    final BsonDocument collMod =
        new BsonDocument("collMod", new BsonString(name))
            .append(
                "index",
                new BsonDocument("name", new BsonString(INDEX_NAME))
                    .append("expireAfterSeconds", new BsonInt64(seconds)));
    return Mono.from(database.runCommand(collMod))
        .then()
        .onErrorResume(
            e -> e instanceof MongoCommandException c && c.getErrorCode() == COMMAND_NOT_FOUND,
            e -> {
              // Every MongoDB server has collMod; a wire-compatible one without it (the in-JVM
              // stand-in) gets the index dropped and created again.
              LOG.warn("{}: the server has no collMod; dropping and creating {}", name, INDEX_NAME);
              return drop(collection).then(create(collection, seconds));
            });
  }

  /**
   * Drops the index found by its name, by its key: a collection has one index per key pattern, so
   * that is the same index on MongoDB, and the stand-in drops an index named so in every collection
   * of the database when asked by name.
   */
  private static Mono<Void> drop(final MongoCollection<BsonDocument> collection) {
    return Mono.from(collection.dropIndex(Indexes.ascending(END_DATE))).then();
  }

  private static Mono<Void> create(
      final MongoCollection<BsonDocument> collection, final long seconds) {
    return Mono.from(
            collection.createIndex(
                Indexes.ascending(END_DATE),
                new IndexOptions().name(INDEX_NAME).expireAfter(seconds, TimeUnit.SECONDS)))
        .then();
  }
}
