package io.bucketer.backfill;

import io.bucketer.buckets.ClosedBucket;
import io.bucketer.sink.MongoBucketWriter.Repaired;
import java.util.List;

/** Where a backfill's documents go: MongoDB ({@link MongoOutput}). */
interface BucketOutput {

  /** Makes ready to write: the indexes, as {@code run} creates them. */
  void prepare();

  /**
   * Writes {@code buckets}, returning once every one is acknowledged; a stored document is replaced
   * only by a higher revision.
   *
   * @return how many of them changed nothing: their document was already stored at their revision
   *     or a newer one
   * @throws BackfillException when they cannot be written
   */
  int write(List<ClosedBucket> buckets);

  /**
   * Writes {@code buckets}, whole windows, over whatever their windows' stored documents are, where
   * those differ ({@link io.bucketer.sink.MongoBucketWriter#repair}).
   *
   * @throws BackfillException when they cannot be written
   */
  Repaired repair(List<ClosedBucket> buckets);
}
