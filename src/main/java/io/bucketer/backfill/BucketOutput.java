package io.bucketer.backfill;

import io.bucketer.buckets.ClosedBucket;
import java.util.List;

/** Where a backfill's documents go: MongoDB ({@link MongoOutput}), or nowhere in a dry run. */
interface BucketOutput {

  /** Makes ready to write: the indexes, as {@code run} creates them. */
  void prepare();

  /**
   * Writes {@code buckets}, returning once every one is acknowledged.
   *
   * @return how many of them changed nothing: their document was already stored at their revision
   *     or a newer one
   * @throws BackfillException when they cannot be written
   */
  int write(List<ClosedBucket> buckets);

  /** A dry run: nothing prepared, nothing written. */
  BucketOutput NOWHERE =
      new BucketOutput() {
        @Override
        public void prepare() {}

        @Override
        public int write(final List<ClosedBucket> buckets) {
          return 0;
        }
      };
}
