package io.bucketer.sink;

import static io.bucketer.buckets.BucketDocumentNames.ID;
import static io.bucketer.buckets.BucketDocumentNames.METRIC;
import static io.bucketer.buckets.BucketDocumentNames.REVISION;
import static io.bucketer.buckets.BucketDocumentNames.SENSOR_ID;
import static io.bucketer.buckets.BucketDocumentNames.START_DATE;

import com.mongodb.client.model.InsertOneModel;
import com.mongodb.client.model.ReplaceOneModel;
import com.mongodb.client.model.ReplaceOptions;
import com.mongodb.client.model.WriteModel;
import io.bucketer.buckets.ClosedBucket;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonNull;

/**
 * What write each closed bucket becomes: a replacement of its document by {@code _id}, upserted,
 * guarded by the revision. Replacing (rather than {@code $inc}/{@code $push}) makes every write
 * idempotent; the revision guard makes replays and reordered revisions leave the newest in place.
 * In its own class because these guarantees rest on this one decision.
 */
final class BucketWriteModels {

  private static final ReplaceOptions UPSERT = new ReplaceOptions().upsert(true);

  private BucketWriteModels() {}

  /**
   * Replace only an older revision. When the stored one is as new or newer, the filter matches
   * nothing, the upsert's insert collides on {@code _id}, and that duplicate-key error means
   * "already written" ({@link BulkWriteFailures} tells it apart): replays and reordered revisions
   * leave the newest in place. Revision 0 is the oldest there is, so for it (almost every bucket)
   * that upsert is exactly an insert: a lookup in the {@code _id} index, where a query on {@code
   * _id} and revision may cost a server more (the in-JVM stand-in scans the whole collection for
   * it).
   */
  static WriteModel<BsonDocument> of(final ClosedBucket bucket) {
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
}
