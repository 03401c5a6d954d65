package io.bucketer.sink;

import com.mongodb.MongoCommandException;
import com.mongodb.client.model.BulkWriteOptions;
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
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
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
 *
 * <p>Its parts: {@link BucketWriteModels}, {@link BucketChunk}, {@link BulkWriteFailures}, {@link
 * BucketIndexes}, {@link WriterClientSettings}, {@link WriteResult}, {@link WindowRepair}.
 */
public final class MongoBucketWriter implements AutoCloseable {

  /** Name of the {@code {sensor_id: 1, metric: 1, start_date: 1}} index on each collection. */
  public static final String SERIES_TIME_INDEX = BucketIndexes.SERIES_TIME_INDEX;

  private static final BulkWriteOptions UNORDERED = new BulkWriteOptions().ordered(false);

  private static final BsonDocument PING = new BsonDocument("ping", new BsonInt32(1));

  private final MongoDatabase database;
  private final Map<String, MongoCollection<BsonDocument>> collectionsByLabel;
  private final BucketIndexes indexes;
  private final int maxBatchSize;
  private final int maxWritesInFlight;
  private final Runnable closeOwned;
  private final MongoFailures diagnosis;
  private volatile boolean closed;

  /**
   * A writer on {@code database}, which the caller keeps and closes, whose {@link #ensureIndexes}
   * also keeps the TTL indexes of {@code retention}.
   *
   * @param maxBatchSize documents per bulk write
   * @param maxWritesInFlight bulk writes sent concurrently
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
        () -> {},
        MongoFailures.unknown());
  }

  private MongoBucketWriter(
      final MongoDatabase database,
      final String collectionPrefix,
      final List<Granularity> granularities,
      final Retention retention,
      final int maxBatchSize,
      final int maxWritesInFlight,
      final Runnable closeOwned,
      final MongoFailures diagnosis) {
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
    this.indexes = new BucketIndexes(database, byGranularity, retention);
    this.maxBatchSize = maxBatchSize;
    this.maxWritesInFlight = maxWritesInFlight;
    this.closeOwned = closeOwned;
    this.diagnosis = diagnosis;
  }

  /**
   * A writer with its own client, closed with the writer. Connection and timeout settings come from
   * the connection string, with defaults derived from {@code writeTimeout} where it sets none, and
   * TLS and login from {@code connection}'s files and settings (see {@link WriterClientSettings});
   * the Stable API is not requested (servers without {@code hello}, like the in-JVM stand-in, could
   * not be reached). Its errors say why MongoDB cannot be used, when the driver knows: TLS trust, a
   * refused client certificate, failed authentication, an unreachable server.
   *
   * @param writeTimeout the longest the caller lets one {@link #write} wait
   */
  public static MongoBucketWriter connect(
      final MongoConnection connection,
      final String databaseName,
      final String collectionPrefix,
      final List<Granularity> granularities,
      final Retention retention,
      final int maxBatchSize,
      final int maxWritesInFlight,
      final Duration writeTimeout) {
    final MongoFailures diagnosis = new MongoFailures(connection.tls().orElse(null));
    final MongoClient client =
        MongoClients.create(WriterClientSettings.of(connection, writeTimeout, diagnosis));
    try {
      return new MongoBucketWriter(
          client.getDatabase(databaseName),
          collectionPrefix,
          granularities,
          retention,
          maxBatchSize,
          maxWritesInFlight,
          client::close,
          diagnosis);
    } catch (RuntimeException e) {
      client.close();
      throw e;
    }
  }

  /** The database the buckets are written to, for readers that share this writer's client. */
  public MongoDatabase database() {
    return database;
  }

  /**
   * Why MongoDB does not answer a {@code ping} on the buckets' database within {@code timeout}, in
   * one line that names the server and the cause when the driver knows it ("MongoDB db-0:27017:
   * unreachable: Connection refused (no answer to a ping within 800 ms)"); empty when it answers.
   * For readiness checks, which must not hang on a server that went away.
   */
  public Optional<String> pingFailure(final Duration timeout) {
    if (closed) {
      return Optional.of("the MongoDB client is closed");
    }
    try {
      Mono.from(database.runCommand(PING, BsonDocument.class)).timeout(timeout).block();
      return Optional.empty();
    } catch (RuntimeException e) {
      final String noAnswer = "no answer to a ping within " + timeout.toMillis() + " ms";
      return Optional.of(
          diagnosis
              .explain(unwrap(e))
              .map(reason -> reason + " (" + noAnswer + ")")
              .orElse("MongoDB: " + noAnswer));
    }
  }

  /**
   * What {@code bucketer check} says of the bucket collections, without changing them: which lack
   * the series/time index, and whether this login may create it ({@link IndexCheck}).
   */
  public IndexCheck checkIndexes(final Duration timeout) {
    ensureOpen();
    try {
      return indexes.check(database).timeout(timeout).block();
    } catch (RuntimeException e) {
      final Throwable cause = unwrap(e);
      throw BucketWriteException.retryable(
          explained("cannot list the bucket indexes", cause), cause);
    }
  }

  /**
   * Creates the series/time index on every granularity's collection (a no-op when present), and
   * brings their TTL indexes in line with the retention ({@link BucketIndexes}).
   *
   * @throws MongoUnusableException when MongoDB cannot be used as configured (TLS trust, a refused
   *     certificate or login): retrying would not change it
   */
  public void ensureIndexes(final Duration timeout) {
    ensureOpen();
    try {
      indexes.ensure().timeout(timeout).block();
    } catch (RuntimeException e) {
      final Throwable cause = unwrap(e);
      if (cause instanceof MongoCommandException) {
        // The server answered and refused, e.g. an index of that name with other keys exists.
        throw BucketWriteException.rejected("cannot create bucket indexes", cause, Map.of());
      }
      if (diagnosis.isPermanent(cause)) {
        throw new MongoUnusableException(
            diagnosis.explain(cause).orElse("MongoDB refused the connection"));
      }
      throw BucketWriteException.retryable(explained("cannot create bucket indexes", cause), cause);
    }
  }

  /**
   * Upserts {@code buckets} and returns once MongoDB acknowledged all of them. A stored document is
   * replaced only by a higher revision. Buckets with the same {@code _id} in one call are written
   * once, as the highest revision (the last of equals): an unordered bulk gives no order between
   * two writes of one document.
   *
   * @return which of the buckets changed nothing: MongoDB already held their revision or a newer
   *     one, or the call held a newer revision of their document; every other one created or
   *     replaced its document
   * @throws BucketWriteException when any document was not acknowledged within {@code timeout}; it
   *     names the buckets of the bulk writes MongoDB did acknowledge, so that a retry sends only
   *     the others (of which some may have been written: writing them again is harmless)
   */
  public WriteResult write(final List<ClosedBucket> buckets, final Duration timeout) {
    ensureOpen();
    final List<BucketChunk> chunks = chunks(buckets);
    // Gathered as they come, not at the end: a call that times out still knows what was written.
    final Queue<BulkWriteFailures.Outcome> outcomes = new ConcurrentLinkedQueue<>();
    try {
      Flux.fromIterable(chunks)
          .flatMap(this::send, maxWritesInFlight)
          .doOnNext(outcomes::add)
          .then()
          .timeout(timeout)
          .block();
    } catch (RuntimeException e) {
      final Throwable cause = unwrap(e);
      throw BucketWriteException.retryable(
              explained("bucket writes not acknowledged within " + timeout, cause), cause)
          .acknowledging(acknowledgedKeys(outcomes));
    }
    final List<BulkWriteFailures.Failure> failures =
        outcomes.stream().flatMap(outcome -> outcome.failure().stream()).toList();
    if (!failures.isEmpty()) {
      throw BulkWriteFailures.toException(failures, chunks.size(), diagnosis)
          .acknowledging(acknowledgedKeys(outcomes));
    }
    return WriteResult.of(buckets, List.copyOf(outcomes));
  }

  /** The keys of the buckets of every bulk write that MongoDB acknowledged whole. */
  private static List<String> acknowledgedKeys(
      final Collection<BulkWriteFailures.Outcome> outcomes) {
    final List<String> keys = new ArrayList<>();
    for (final BulkWriteFailures.Outcome outcome : List.copyOf(outcomes)) {
      if (outcome.failure().isEmpty()) {
        outcome.chunk().buckets().forEach(bucket -> keys.add(BucketKey.of(bucket)));
      }
    }
    return keys;
  }

  /**
   * What one {@link #repair} did.
   *
   * @param written documents created or replaced (in a dry run: that would be)
   * @param unchanged documents stored with the same content, or at a newer revision meanwhile
   * @param staleDeleted stored documents beyond their window's new count, deleted
   */
  public record Repaired(long written, long unchanged, long staleDeleted) {}

  /**
   * Writes {@code buckets}, whole windows each, over whatever is stored of their windows: a window
   * stored with other content is replaced at a revision above every stored one, and its stored
   * documents beyond the new count are deleted; a window stored with the same content (revisions
   * aside, averages and deviations to rounding) is left as it is; one not stored is written as
   * {@link #write} would. For a window a running stream may still revise, a repair can refuse the
   * stream's next revision: repair settled windows.
   *
   * @param dryRun read and compare only: count what would change
   * @throws BucketWriteException as {@link #write} does; what was written stays, and a repair run
   *     again finds it the same
   */
  public Repaired repair(
      final List<ClosedBucket> buckets, final boolean dryRun, final Duration timeout) {
    ensureOpen();
    long written = 0;
    long unchanged = 0;
    long stale = 0;
    final Map<String, List<ClosedBucket>> byGranularity = new LinkedHashMap<>();
    for (final ClosedBucket bucket : buckets) {
      byGranularity
          .computeIfAbsent(bucket.granularity().label(), g -> new ArrayList<>())
          .add(bucket);
    }
    for (final Map.Entry<String, List<ClosedBucket>> group : byGranularity.entrySet()) {
      final MongoCollection<BsonDocument> collection = collectionsByLabel.get(group.getKey());
      if (collection == null) {
        throw BucketWriteException.rejected(
            "no collection for granularity " + group.getKey(), null, Map.of());
      }
      final List<BsonDocument> stored =
          awaited(
              "cannot read the stored documents to repair",
              Flux.from(collection.find(WindowRepair.storedOf(group.getValue()))).collectList(),
              timeout);
      final List<ClosedBucket> toWrite = new ArrayList<>();
      final List<WriteModel<BsonDocument>> deletes = new ArrayList<>();
      for (final WindowRepair.Window window : WindowRepair.windows(group.getValue(), stored)) {
        if (window.unchanged()) {
          unchanged += window.built().size();
          continue;
        }
        toWrite.addAll(window.toWrite());
        if (window.stale() > 0) {
          stale += window.stale();
          deletes.add(window.deleteStale());
        }
      }
      if (dryRun || toWrite.isEmpty()) {
        written += toWrite.size();
        continue;
      }
      final int refused = write(toWrite, timeout).unchanged().size();
      written += toWrite.size() - refused;
      unchanged += refused;
      if (!deletes.isEmpty()) {
        awaited(
            "cannot delete stale documents",
            Mono.from(collection.bulkWrite(deletes, UNORDERED)),
            timeout);
      }
    }
    return new Repaired(written, unchanged, stale);
  }

  private <T> T awaited(final String what, final Mono<T> step, final Duration timeout) {
    try {
      return step.block(timeout);
    } catch (RuntimeException e) {
      final Throwable cause = unwrap(e);
      throw BucketWriteException.retryable(explained(what, cause), cause);
    }
  }

  @Override
  public void close() {
    closed = true;
    closeOwned.run();
  }

  private Mono<BulkWriteFailures.Outcome> send(final BucketChunk chunk) {
    // defer: an exception thrown while building the request fails this chunk, not the whole call
    return Mono.defer(() -> Mono.from(chunk.collection().bulkWrite(chunk.models(), UNORDERED)))
        .thenReturn(BulkWriteFailures.Outcome.acknowledged(chunk))
        .onErrorResume(error -> BulkWriteFailures.outcome(chunk, error));
  }

  // package-private: tests check de-duplication and chunking without racing writes
  List<BucketChunk> chunks(final List<ClosedBucket> buckets) {
    return BucketChunk.split(buckets, collectionsByLabel, maxBatchSize);
  }

  private String explained(final String what, final Throwable cause) {
    return what + ": " + diagnosis.reason(cause);
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
}
