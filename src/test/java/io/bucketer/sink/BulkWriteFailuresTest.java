package io.bucketer.sink;

import static io.bucketer.buckets.TestBuckets.START;
import static io.bucketer.buckets.TestBuckets.minute;
import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.MongoBulkWriteException;
import com.mongodb.MongoSocketReadException;
import com.mongodb.ServerAddress;
import com.mongodb.bulk.BulkWriteError;
import com.mongodb.bulk.BulkWriteResult;
import com.mongodb.bulk.WriteConcernError;
import com.mongodb.reactivestreams.client.MongoClient;
import com.mongodb.reactivestreams.client.MongoClients;
import com.mongodb.reactivestreams.client.MongoCollection;
import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.backend.memory.MemoryBackend;
import io.bucketer.buckets.ClosedBucket;
import io.bucketer.topics.BucketKey;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.bson.BsonDocument;
import org.bson.BsonSerializationException;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

class BulkWriteFailuresTest {

  private static final Duration TIMEOUT = Duration.ofSeconds(10);
  private static final ClosedBucket FIRST = minute("sensor-1", START);
  private static final ClosedBucket SECOND = minute("sensor-2", START);

  /** A chunk whose collection is never asked: for the analyses that need no stored revision. */
  private static final BucketChunk CHUNK = BucketChunk.of(null, List.of(FIRST, SECOND));

  private static BulkWriteError error(final int code, final int index) {
    return new BulkWriteError(code, "error message " + code, new BsonDocument(), index);
  }

  private static MongoBulkWriteException bulk(
      final WriteConcernError concern, final BulkWriteError... errors) {
    return new MongoBulkWriteException(
        BulkWriteResult.acknowledged(0, 0, 0, 0, List.of(), List.of()),
        List.of(errors),
        concern,
        new ServerAddress(),
        Set.of());
  }

  @Test
  void shouldRejectTheBucketsOfWriteErrorsOtherThanStaleDuplicates() {
    final BulkWriteFailures.Failure failure =
        new BulkWriteFailures.Failure(CHUNK, bulk(null, error(11000, 0), error(121, 1)), Set.of(0));

    assertThat(failure.rejections())
        .containsExactly(Map.entry(BucketKey.of(SECOND), "error 121: error message 121"));
  }

  @Test
  void shouldRejectEveryBucketOfAChunkTheDriverCouldNotEncode() {
    final BulkWriteFailures.Failure failure =
        new BulkWriteFailures.Failure(CHUNK, new BsonSerializationException("too large"), Set.of());

    assertThat(failure.rejections())
        .containsOnlyKeys(BucketKey.of(FIRST), BucketKey.of(SECOND))
        .containsValue("too large");
  }

  @Test
  void shouldRetryAWriteConcernErrorAndAnyFailureThatIsNotAWriteError() {
    final WriteConcernError concern =
        new WriteConcernError(
            64, "WriteConcernFailed", "waiting for replication timed out", new BsonDocument());
    final MongoSocketReadException socket =
        new MongoSocketReadException("connection reset", new ServerAddress());

    final BucketWriteException exception =
        BulkWriteFailures.toException(
            List.of(
                new BulkWriteFailures.Failure(CHUNK, bulk(concern), Set.of()),
                new BulkWriteFailures.Failure(CHUNK, socket, Set.of())),
            3);

    assertThat(exception.isRetryable()).isTrue();
    // the first retryable failure's own words, as the driver gives no cause to name
    assertThat(exception)
        .hasMessageStartingWith("2 of 3 bulk writes failed: ")
        .hasMessageContaining("waiting for replication timed out");
    assertThat(exception.getSuppressed()).containsExactly(socket);
  }

  @Test
  void shouldPreferARetryOverRejectionsAcrossTheBulkWritesOfOneCall() {
    final MongoBulkWriteException rejected = bulk(null, error(121, 0));
    final MongoSocketReadException socket =
        new MongoSocketReadException("connection reset", new ServerAddress());

    final BucketWriteException exception =
        BulkWriteFailures.toException(
            List.of(
                new BulkWriteFailures.Failure(CHUNK, rejected, Set.of()),
                new BulkWriteFailures.Failure(CHUNK, socket, Set.of())),
            2);

    assertThat(exception.isRetryable()).isTrue();
    assertThat(exception).hasCause(socket);
    assertThat(exception.getSuppressed()).containsExactly(rejected);
  }

  @Test
  void shouldNameEveryRejectedBucketWhenNoFailureIsRetryable() {
    final MongoBulkWriteException rejected = bulk(null, error(121, 1));

    final BucketWriteException exception =
        BulkWriteFailures.toException(
            List.of(new BulkWriteFailures.Failure(CHUNK, rejected, Set.of())), 1);

    assertThat(exception.isRetryable()).isFalse();
    assertThat(exception).hasCause(rejected);
    assertThat(exception.rejectedBucketKeys()).containsExactly(BucketKey.of(SECOND));
    assertThat(exception.rejectionReason(BucketKey.of(SECOND)))
        .isEqualTo("error 121: error message 121");
  }

  @Test
  void shouldTellStaleDuplicatesFromRealOnesByTheStoredRevision() {
    final MongoServer server = new MongoServer(new MemoryBackend());
    final InetSocketAddress address = server.bind();
    try (MongoClient client =
        MongoClients.create("mongodb://" + address.getHostString() + ":" + address.getPort())) {
      final MongoCollection<BsonDocument> collection =
          client.getDatabase("bucketer").getCollection("buckets_1m", BsonDocument.class);
      // Stored: FIRST at revision 2, SECOND at revision 0.
      Mono.from(
              collection.insertMany(
                  List.of(
                      BucketDocuments.toDocument(FIRST.atRevision(2)),
                      BucketDocuments.toDocument(SECOND))))
          .block(TIMEOUT);
      // Written: FIRST at revision 1 (stale), SECOND at revision 1 (newer: a real collision).
      final BucketChunk chunk =
          BucketChunk.of(collection, List.of(FIRST.atRevision(1), SECOND.atRevision(1)));

      final MongoBulkWriteException bothCollide = bulk(null, error(11000, 0), error(11000, 1));
      assertThat(BulkWriteFailures.staleWrites(chunk, bothCollide).block(TIMEOUT))
          .containsExactly(0);
      assertThat(BulkWriteFailures.analyse(chunk, bothCollide).block(TIMEOUT))
          .satisfies(
              failure -> assertThat(failure.rejections()).containsOnlyKeys(BucketKey.of(SECOND)));

      final MongoBulkWriteException staleOnly = bulk(null, error(11000, 0));
      assertThat(BulkWriteFailures.analyse(chunk, staleOnly).blockOptional(TIMEOUT)).isEmpty();

      final WriteConcernError concern =
          new WriteConcernError(64, "", "timed out", new BsonDocument());
      final MongoBulkWriteException staleButUnreplicated = bulk(concern, error(11000, 0));
      assertThat(BulkWriteFailures.analyse(chunk, staleButUnreplicated).blockOptional(TIMEOUT))
          .hasValueSatisfying(failure -> assertThat(failure.rejections()).isEmpty());
    } finally {
      server.shutdownNow();
    }
  }

  @Test
  void shouldNotAskTheStoreAboutErrorsThatAreNotDuplicateKeys() {
    assertThat(BulkWriteFailures.staleWrites(CHUNK, bulk(null, error(121, 0))).block(TIMEOUT))
        .isEmpty();
    assertThat(
            BulkWriteFailures.staleWrites(
                    CHUNK, new MongoSocketReadException("reset", new ServerAddress()))
                .block(TIMEOUT))
        .isEmpty();
  }
}
