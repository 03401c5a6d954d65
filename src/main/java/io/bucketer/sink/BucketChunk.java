package io.bucketer.sink;

import com.mongodb.client.model.WriteModel;
import com.mongodb.reactivestreams.client.MongoCollection;
import io.bucketer.buckets.ClosedBucket;
import io.bucketer.topics.BucketKey;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.bson.BsonDocument;

/**
 * One bulk write: a collection, the buckets and their write models, index for index (a write
 * error's index names its bucket). {@link #split} turns the buckets of one call into such chunks,
 * which is where a call's duplicates are resolved: an unordered bulk gives no order between two
 * writes of one document.
 */
record BucketChunk(
    MongoCollection<BsonDocument> collection,
    List<ClosedBucket> buckets,
    List<WriteModel<BsonDocument>> models) {

  static BucketChunk of(
      final MongoCollection<BsonDocument> collection, final List<ClosedBucket> part) {
    final List<WriteModel<BsonDocument>> models = new ArrayList<>(part.size());
    for (final ClosedBucket bucket : part) {
      models.add(BucketWriteModels.of(bucket));
    }
    return new BucketChunk(collection, part, models);
  }

  /**
   * The chunks of {@code buckets}: per granularity's collection, at most {@code maxBatchSize}
   * buckets each, one per {@code _id} (the highest revision, the last of equals).
   *
   * @throws BucketWriteException (rejected) when a bucket's granularity has no collection
   */
  static List<BucketChunk> split(
      final List<ClosedBucket> buckets,
      final Map<String, MongoCollection<BsonDocument>> collectionsByLabel,
      final int maxBatchSize) {
    final Map<String, Map<BsonDocument, ClosedBucket>> lastById = new LinkedHashMap<>();
    final Map<String, String> unknown = new LinkedHashMap<>();
    for (final ClosedBucket bucket : buckets) {
      final String label = bucket.granularity().label();
      if (!collectionsByLabel.containsKey(label)) {
        unknown.put(BucketKey.of(bucket), "no collection configured for granularity " + label);
      } else {
        lastById
            .computeIfAbsent(label, l -> new LinkedHashMap<>())
            .merge(BucketDocuments.idOf(bucket), bucket, BucketChunk::newerRevision);
      }
    }
    if (!unknown.isEmpty()) {
      throw BucketWriteException.rejected(
          "no collection configured for the granularity of " + unknown.keySet(), null, unknown);
    }
    final List<BucketChunk> chunks = new ArrayList<>();
    lastById.forEach(
        (label, byId) -> {
          final List<ClosedBucket> unique = List.copyOf(byId.values());
          for (int from = 0; from < unique.size(); from += maxBatchSize) {
            final List<ClosedBucket> part =
                unique.subList(from, Math.min(unique.size(), from + maxBatchSize));
            chunks.add(of(collectionsByLabel.get(label), part));
          }
        });
    return chunks;
  }

  private static ClosedBucket newerRevision(final ClosedBucket earlier, final ClosedBucket later) {
    return later.revision() >= earlier.revision() ? later : earlier;
  }
}
