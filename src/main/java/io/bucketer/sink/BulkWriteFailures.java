package io.bucketer.sink;

import static io.bucketer.buckets.BucketDocumentNames.ID;
import static io.bucketer.buckets.BucketDocumentNames.REVISION;

import com.mongodb.MongoBulkWriteException;
import com.mongodb.bulk.BulkWriteError;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.Projections;
import io.bucketer.topics.BucketKey;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.bson.BsonDocument;
import org.bson.BsonSerializationException;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * What a failed bulk write means for its buckets: which writes are stale duplicates (the store
 * already holds that revision or a newer one: a success), which buckets MongoDB rejected and will
 * reject again (data errors, for the dead letters), and whether the rest is an infrastructure
 * failure a retry may repair. The sink's exactly-once and dead-letter decisions rest on this
 * analysis, so it lives in one class, apart from sending the writes.
 */
final class BulkWriteFailures {

  /** MongoDB's duplicate-key error code. */
  static final int DUPLICATE_KEY = 11000;

  private BulkWriteFailures() {}

  /** A bulk write that failed as a whole or in part. */
  record Failure(BucketChunk chunk, Throwable error, Set<Integer> staleWrites) {

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

  /**
   * What a bulk write of a chunk came to: the indexes of its stale writes (the store already held
   * that revision or a newer one, so they changed nothing), and its failure, absent when it failed
   * only on those.
   */
  record Outcome(BucketChunk chunk, Set<Integer> staleWrites, Optional<Failure> failure) {

    /** A bulk write MongoDB acknowledged whole: every write changed its document. */
    static Outcome acknowledged(final BucketChunk chunk) {
      return new Outcome(chunk, Set.of(), Optional.empty());
    }
  }

  /**
   * The failure of {@code chunk}'s bulk write with {@code error}, or empty when it failed only on
   * stale duplicates, that is when every document is now as new as the chunk's or newer.
   */
  static Mono<Failure> analyse(final BucketChunk chunk, final Throwable error) {
    return outcome(chunk, error).flatMap(outcome -> Mono.justOrEmpty(outcome.failure()));
  }

  /** As {@link #analyse}, with the stale writes, which changed nothing, named. */
  static Mono<Outcome> outcome(final BucketChunk chunk, final Throwable error) {
    return staleWrites(chunk, error)
        .map(
            stale ->
                new Outcome(
                    chunk,
                    stale,
                    isOnly(error, stale)
                        ? Optional.empty()
                        : Optional.of(new Failure(chunk, error, stale))));
  }

  /**
   * The indexes, within the chunk, of duplicate-key errors on buckets whose stored revision is
   * already this one or newer. The revision filter turns such a replace into an insert that
   * collides on {@code _id}; asking the store for the stored revisions tells that harmless case
   * apart from a real unique-index violation, without parsing error messages. Empty when the store
   * cannot be asked: the duplicates then count as rejections.
   */
  static Mono<Set<Integer>> staleWrites(final BucketChunk chunk, final Throwable error) {
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
  static boolean isOnly(final Throwable error, final Set<Integer> stale) {
    return error instanceof MongoBulkWriteException bulk
        && bulk.getWriteConcernError() == null
        && !bulk.getWriteErrors().isEmpty()
        && bulk.getWriteErrors().stream().allMatch(e -> stale.contains(e.getIndex()));
  }

  /**
   * One exception for all failed bulk writes of a call of {@code total}. Retryable wins over
   * rejected: a retry of the whole call rewrites the rejected documents too, and they fail again
   * once the store is reachable.
   */
  static BucketWriteException toException(final List<Failure> failures, final int total) {
    return toException(failures, total, MongoFailures.unknown());
  }

  /**
   * As {@link #toException(List, int)}, a retryable one saying why in {@code why}'s words when it
   * knows, else in the driver's.
   */
  static BucketWriteException toException(
      final List<Failure> failures, final int total, final MongoFailures why) {
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
            ? BucketWriteException.retryable(
                summary + ": " + why.reason(retryableCause), retryableCause)
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
}
