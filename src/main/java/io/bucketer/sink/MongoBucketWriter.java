package io.bucketer.sink;

import static io.bucketer.buckets.BucketDocumentNames.ID;
import static io.bucketer.buckets.BucketDocumentNames.METRIC;
import static io.bucketer.buckets.BucketDocumentNames.REVISION;
import static io.bucketer.buckets.BucketDocumentNames.SENSOR_ID;
import static io.bucketer.buckets.BucketDocumentNames.START_DATE;

import com.mongodb.ConnectionString;
import com.mongodb.MongoBulkWriteException;
import com.mongodb.MongoClientSettings;
import com.mongodb.MongoCommandException;
import com.mongodb.bulk.BulkWriteError;
import com.mongodb.client.model.BulkWriteOptions;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.IndexOptions;
import com.mongodb.client.model.Indexes;
import com.mongodb.client.model.InsertOneModel;
import com.mongodb.client.model.Projections;
import com.mongodb.client.model.ReplaceOneModel;
import com.mongodb.client.model.ReplaceOptions;
import com.mongodb.client.model.WriteModel;
import com.mongodb.reactivestreams.client.MongoClient;
import com.mongodb.reactivestreams.client.MongoClients;
import com.mongodb.reactivestreams.client.MongoCollection;
import com.mongodb.reactivestreams.client.MongoDatabase;
import io.bucketer.buckets.BucketDocumentNames;
import io.bucketer.buckets.ClosedBucket;
import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.Retention;
import io.bucketer.topics.BucketKey;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonNull;
import org.bson.BsonSerializationException;
import reactor.core.Exceptions;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Upserts closed buckets into one collection per granularity, replacing each document by its {@code
 * _id}. Replacing (rather than {@code $inc}/{@code $push}) makes every write idempotent, so the
 * sink can retry a batch or receive a record twice without corrupting a bucket.
 *
 * <p>Success means MongoDB acknowledged every document under the database's write concern; the bulk
 * result counts are deliberately ignored (a stand-in server miscounts, and an acknowledged upsert
 * that changed nothing is still a success).
 */
public final class MongoBucketWriter implements AutoCloseable {

  /** Name of the {@code {sensor_id: 1, metric: 1, start_date: 1}} index on each collection. */
  public static final String SERIES_TIME_INDEX = "sensor_id_metric_start_date";

  private static final BulkWriteOptions UNORDERED = new BulkWriteOptions().ordered(false);

  /** MongoDB's duplicate-key error code. */
  private static final int DUPLICATE_KEY = 11000;

  private static final ReplaceOptions UPSERT = new ReplaceOptions().upsert(true);

  /** The driver's own default server selection timeout. */
  private static final long DRIVER_SERVER_SELECTION_MILLIS = 30_000;

  private static final BsonDocument PING = new BsonDocument("ping", new BsonInt32(1));

  private final MongoDatabase database;
  private final Map<String, MongoCollection<BsonDocument>> collectionsByLabel;
  private final RetentionIndexes retentionIndexes;
  private final int maxBatchSize;
  private final int maxWritesInFlight;
  private final Runnable closeOwned;
  private volatile boolean closed;

  /**
   * A writer on {@code database}, which the caller keeps and closes.
   *
   * @param maxBatchSize documents per bulk write
   * @param maxWritesInFlight bulk writes sent concurrently
   */
  public MongoBucketWriter(
      final MongoDatabase database,
      final String collectionPrefix,
      final List<Granularity> granularities,
      final int maxBatchSize,
      final int maxWritesInFlight) {
    this(
        database, collectionPrefix, granularities, Retention.NONE, maxBatchSize, maxWritesInFlight);
  }

  /**
   * A writer on {@code database}, which the caller keeps and closes, whose {@link #ensureIndexes}
   * also keeps the TTL indexes of {@code retention}.
   */
  public MongoBucketWriter(
      final MongoDatabase database,
      final String collectionPrefix,
      final List<Granularity> granularities,
      final Retention retention,
      final int maxBatchSize,
      final int maxWritesInFlight) {
    this(
        database,
        collectionPrefix,
        granularities,
        retention,
        maxBatchSize,
        maxWritesInFlight,
        () -> {});
  }

  private MongoBucketWriter(
      final MongoDatabase database,
      final String collectionPrefix,
      final List<Granularity> granularities,
      final Retention retention,
      final int maxBatchSize,
      final int maxWritesInFlight,
      final Runnable closeOwned) {
    if (maxBatchSize < 1 || maxWritesInFlight < 1) {
      throw new IllegalArgumentException("batch size and writes in flight must be at least 1");
    }
    if (granularities.isEmpty()) {
      throw new IllegalArgumentException("at least one granularity is required");
    }
    // The sink commits Kafka offsets on acknowledgement; an unacknowledged write concern would
    // turn that into a commit of writes that may never have happened.
    if (!database.getWriteConcern().isAcknowledged()) {
      throw new IllegalArgumentException("the write concern must be acknowledged: " + database);
    }
    final Map<String, MongoCollection<BsonDocument>> collections = new LinkedHashMap<>();
    final Map<Granularity, MongoCollection<BsonDocument>> byGranularity = new LinkedHashMap<>();
    for (final Granularity granularity : granularities) {
      final MongoCollection<BsonDocument> collection =
          database.getCollection(
              BucketDocumentNames.collectionName(collectionPrefix, granularity),
              BsonDocument.class);
      collections.put(granularity.label(), collection);
      byGranularity.put(granularity, collection);
    }
    this.database = database;
    this.collectionsByLabel = Map.copyOf(collections);
    this.retentionIndexes = new RetentionIndexes(database, byGranularity, retention);
    this.maxBatchSize = maxBatchSize;
    this.maxWritesInFlight = maxWritesInFlight;
    this.closeOwned = closeOwned;
  }

  /**
   * A writer with its own client, closed with the writer. Connection and timeout settings come from
   * the connection string, with defaults derived from {@code writeTimeout} where it sets none (see
   * {@link #clientSettings}); the Stable API is not requested (servers without {@code hello}, like
   * the in-JVM stand-in, could not be reached).
   *
   * @param writeTimeout the longest the caller lets one {@link #write} wait
   */
  public static MongoBucketWriter connect(
      final String connectionString,
      final String databaseName,
      final String collectionPrefix,
      final List<Granularity> granularities,
      final Retention retention,
      final int maxBatchSize,
      final int maxWritesInFlight,
      final Duration writeTimeout) {
    final MongoClient client = MongoClients.create(clientSettings(connectionString, writeTimeout));
    try {
      return new MongoBucketWriter(
          client.getDatabase(databaseName),
          collectionPrefix,
          granularities,
          retention,
          maxBatchSize,
          maxWritesInFlight,
          client::close);
    } catch (RuntimeException e) {
      client.close();
      throw e;
    }
  }

  /**
   * The connection string's settings, plus two timeouts where it sets neither them nor {@code
   * timeoutMS}. Socket reads: the driver waits for ever by default, so a connection whose peer
   * vanished without a reset (a partition, a dead host) would never fail and never return to the
   * pool, though the writer gave up on its batch long ago; they now fail after {@code
   * writeTimeout}, the longest a batch may take anyway. Server selection (30 s by default): at most
   * {@code writeTimeout}, so an unreachable server fails a write as "no server" with the driver's
   * view of the cluster, not as an anonymous batch timeout.
   */
  static MongoClientSettings clientSettings(
      final String connectionString, final Duration writeTimeout) {
    final ConnectionString uri = new ConnectionString(connectionString);
    final MongoClientSettings.Builder settings =
        MongoClientSettings.builder().applyConnectionString(uri);
    if (uri.getTimeout() != null) {
      return settings.build();
    }
    final long timeoutMillis = writeTimeout.toMillis();
    if (uri.getSocketTimeout() == null) {
      settings.applyToSocketSettings(s -> s.readTimeout(timeoutMillis, TimeUnit.MILLISECONDS));
    }
    if (uri.getServerSelectionTimeout() == null) {
      final long selectionMillis = Math.min(timeoutMillis, DRIVER_SERVER_SELECTION_MILLIS);
      settings.applyToClusterSettings(
          c -> c.serverSelectionTimeout(selectionMillis, TimeUnit.MILLISECONDS));
    }
    return settings.build();
  }

  /** The database the buckets are written to, for readers that share this writer's client. */
  public MongoDatabase database() {
    return database;
  }

  /**
   * Whether MongoDB answers a {@code ping} on the buckets' database within {@code timeout}: for
   * readiness checks, which must not hang on a server that went away.
   */
  public boolean ping(final Duration timeout) {
    if (closed) {
      return false;
    }
    try {
      Mono.from(database.runCommand(PING, BsonDocument.class)).timeout(timeout).block();
      return true;
    } catch (RuntimeException e) {
      return false;
    }
  }

  /**
   * Creates the series/time index on every granularity's collection (a no-op when present), and
   * brings their TTL indexes in line with the retention ({@link RetentionIndexes}).
   */
  public void ensureIndexes(final Duration timeout) {
    ensureOpen();
    final IndexOptions options = new IndexOptions().name(SERIES_TIME_INDEX);
    final Flux<String> created =
        Flux.fromIterable(collectionsByLabel.values())
            .flatMap(
                collection ->
                    collection.createIndex(
                        Indexes.ascending(SENSOR_ID, METRIC, START_DATE), options));
    try {
      created.then().then(retentionIndexes.apply()).timeout(timeout).block();
    } catch (RuntimeException e) {
      final Throwable cause = unwrap(e);
      if (cause instanceof MongoCommandException) {
        // The server answered and refused, e.g. an index of that name with other keys exists.
        throw BucketWriteException.rejected("cannot create bucket indexes", cause, Map.of());
      }
      throw BucketWriteException.retryable("cannot create bucket indexes", cause);
    }
  }

  /**
   * Upserts {@code buckets} and returns once MongoDB acknowledged all of them. A stored document is
   * replaced only by a higher revision. Buckets with the same {@code _id} in one call are written
   * once, as the highest revision (the last of equals): an unordered bulk gives no order between
   * two writes of one document.
   *
   * @throws BucketWriteException when any document was not acknowledged within {@code timeout};
   *     some of the others may have been written, which a retry of the whole call repairs
   */
  public void write(final List<ClosedBucket> buckets, final Duration timeout) {
    ensureOpen();
    final List<Chunk> chunks = chunks(buckets);
    final List<Failure> failures;
    try {
      failures =
          Flux.fromIterable(chunks)
              .flatMap(this::send, maxWritesInFlight)
              .collectList()
              .timeout(timeout)
              .block();
    } catch (RuntimeException e) {
      throw BucketWriteException.retryable(
          "bucket writes not acknowledged within " + timeout, unwrap(e));
    }
    if (!failures.isEmpty()) {
      throw classify(failures, chunks.size());
    }
  }

  @Override
  public void close() {
    closed = true;
    closeOwned.run();
  }

  private Mono<Failure> send(final Chunk chunk) {
    // defer: an exception thrown while building the request fails this chunk, not the whole call
    return Mono.defer(() -> Mono.from(chunk.collection().bulkWrite(chunk.models(), UNORDERED)))
        .then(Mono.<Failure>empty())
        .onErrorResume(
            error ->
                staleWrites(chunk, error)
                    .flatMap(
                        stale ->
                            isOnly(error, stale)
                                ? Mono.empty()
                                : Mono.just(new Failure(chunk, error, stale))));
  }

  /**
   * The indexes, within the chunk, of duplicate-key errors on buckets whose stored revision is
   * already this one or newer. The revision filter turns such a replace into an insert that
   * collides on {@code _id}; asking the store for the stored revisions tells that harmless case
   * apart from a real unique-index violation, without parsing error messages.
   */
  private static Mono<Set<Integer>> staleWrites(final Chunk chunk, final Throwable error) {
    if (!(error instanceof MongoBulkWriteException bulk)) {
      return Mono.just(Set.of());
    }
    final Map<BsonDocument, BulkWriteError> duplicates = new LinkedHashMap<>();
    for (final BulkWriteError writeError : bulk.getWriteErrors()) {
      if (writeError.getCode() == DUPLICATE_KEY) {
        duplicates.put(
            BucketDocuments.idOf(chunk.buckets().get(writeError.getIndex())), writeError);
      }
    }
    if (duplicates.isEmpty()) {
      return Mono.just(Set.of());
    }
    return Flux.from(
            chunk
                .collection()
                .find(Filters.in(ID, List.copyOf(duplicates.keySet())))
                .projection(Projections.include(REVISION)))
        .filter(stored -> stored.isInt32(REVISION))
        .mapNotNull(
            stored -> {
              final int index = duplicates.get(stored.getDocument(ID)).getIndex();
              final int revision = chunk.buckets().get(index).revision();
              return stored.getInt32(REVISION).getValue() >= revision ? index : null;
            })
        .collect(Collectors.toSet())
        .onErrorReturn(Set.of());
  }

  /** True when the bulk failed only because of the given (stale) writes. */
  private static boolean isOnly(final Throwable error, final Set<Integer> stale) {
    return error instanceof MongoBulkWriteException bulk
        && bulk.getWriteConcernError() == null
        && !bulk.getWriteErrors().isEmpty()
        && bulk.getWriteErrors().stream().allMatch(e -> stale.contains(e.getIndex()));
  }

  // package-private: tests check de-duplication and chunking without racing writes
  List<Chunk> chunks(final List<ClosedBucket> buckets) {
    final Map<String, Map<BsonDocument, ClosedBucket>> lastById = new LinkedHashMap<>();
    final Map<String, String> unknown = new LinkedHashMap<>();
    for (final ClosedBucket bucket : buckets) {
      final String label = bucket.granularity().label();
      if (!collectionsByLabel.containsKey(label)) {
        unknown.put(BucketKey.of(bucket), "no collection configured for granularity " + label);
      } else {
        lastById
            .computeIfAbsent(label, l -> new LinkedHashMap<>())
            .merge(BucketDocuments.idOf(bucket), bucket, MongoBucketWriter::newerRevision);
      }
    }
    if (!unknown.isEmpty()) {
      throw BucketWriteException.rejected(
          "no collection configured for the granularity of " + unknown.keySet(), null, unknown);
    }
    final List<Chunk> chunks = new ArrayList<>();
    lastById.forEach(
        (label, byId) -> {
          final List<ClosedBucket> unique = List.copyOf(byId.values());
          for (int from = 0; from < unique.size(); from += maxBatchSize) {
            final List<ClosedBucket> part =
                unique.subList(from, Math.min(unique.size(), from + maxBatchSize));
            chunks.add(Chunk.of(collectionsByLabel.get(label), part));
          }
        });
    return chunks;
  }

  private static ClosedBucket newerRevision(final ClosedBucket earlier, final ClosedBucket later) {
    return later.revision() >= earlier.revision() ? later : earlier;
  }

  /**
   * One exception for all failed bulk writes. Retryable wins over rejected: a retry of the whole
   * call rewrites the rejected documents too, and they fail again once the store is reachable.
   */
  private static BucketWriteException classify(final List<Failure> failures, final int total) {
    final Map<String, String> rejections = new LinkedHashMap<>();
    Throwable retryableCause = null;
    for (final Failure failure : failures) {
      final Map<String, String> rejected = failure.rejections();
      if (rejected.isEmpty() && retryableCause == null) {
        retryableCause = failure.error();
      }
      rejections.putAll(rejected);
    }
    final String summary = failures.size() + " of " + total + " bulk writes failed";
    final BucketWriteException exception =
        retryableCause != null
            ? BucketWriteException.retryable(summary, retryableCause)
            : BucketWriteException.rejected(
                summary + ", MongoDB rejected buckets " + rejections.keySet(),
                failures.get(0).error(),
                rejections);
    for (final Failure failure : failures) {
      if (failure.error() != exception.getCause()) {
        exception.addSuppressed(failure.error());
      }
    }
    return exception;
  }

  private void ensureOpen() {
    if (closed) {
      throw new IllegalStateException("the bucket writer is closed");
    }
  }

  private static Throwable unwrap(final RuntimeException e) {
    final Throwable cause = Exceptions.unwrap(e);
    if (cause instanceof InterruptedException) {
      Thread.currentThread().interrupt();
    }
    return cause;
  }

  /** One bulk write: the buckets and their replace models, index for index. */
  record Chunk(
      MongoCollection<BsonDocument> collection,
      List<ClosedBucket> buckets,
      List<WriteModel<BsonDocument>> models) {

    /**
     * Replace only an older revision. When the stored one is as new or newer, the filter matches
     * nothing, the upsert's insert collides on {@code _id}, and that duplicate-key error means
     * "already written": replays and reordered revisions leave the newest in place. Revision 0 is
     * the oldest there is, so for it (almost every bucket) that upsert is exactly an insert: a
     * lookup in the {@code _id} index, where a query on {@code _id} and revision may cost a server
     * more (the in-JVM stand-in scans the whole collection for it).
     */
    private static WriteModel<BsonDocument> model(final ClosedBucket bucket) {
      final BsonDocument document = BucketDocuments.toDocument(bucket);
      if (bucket.revision() == 0) {
        return new InsertOneModel<>(document);
      }
      // The series and start, though the _id holds them: a collection sharded on the series/time
      // index's fields (deploy/README.md) takes an upsert only with its shard key in the filter.
      final BsonDocument filter =
          new BsonDocument(ID, BucketDocuments.idOf(bucket))
              .append(SENSOR_ID, document.get(SENSOR_ID))
              .append(METRIC, document.get(METRIC, BsonNull.VALUE))
              .append(START_DATE, document.get(START_DATE))
              .append(REVISION, new BsonDocument("$lt", new BsonInt32(bucket.revision())));
      return new ReplaceOneModel<>(filter, document, UPSERT);
    }

    static Chunk of(final MongoCollection<BsonDocument> collection, final List<ClosedBucket> part) {
      final List<WriteModel<BsonDocument>> models = new ArrayList<>(part.size());
      for (final ClosedBucket bucket : part) {
        models.add(model(bucket));
      }
      return new Chunk(collection, part, models);
    }
  }

  /** A bulk write that failed as a whole or in part. */
  record Failure(Chunk chunk, Throwable error, Set<Integer> staleWrites) {

    /**
     * MongoDB's error for each bucket it will reject again, by bucket key, or empty when the
     * failure is infrastructure (timeouts, connections, write-concern errors) and a retry may
     * succeed.
     */
    Map<String, String> rejections() {
      final Map<String, String> rejections = new LinkedHashMap<>();
      if (error instanceof MongoBulkWriteException bulk && !bulk.getWriteErrors().isEmpty()) {
        for (final BulkWriteError writeError : bulk.getWriteErrors()) {
          if (!staleWrites.contains(writeError.getIndex())) {
            rejections.put(
                BucketKey.of(chunk.buckets().get(writeError.getIndex())),
                "error " + writeError.getCode() + ": " + writeError.getMessage());
          }
        }
      } else if (error instanceof BsonSerializationException) {
        // The driver refused to encode a document (too large); it does not say which one.
        chunk.buckets().forEach(b -> rejections.put(BucketKey.of(b), error.getMessage()));
      }
      return rejections;
    }
  }
}
