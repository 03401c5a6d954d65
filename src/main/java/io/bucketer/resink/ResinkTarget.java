package io.bucketer.resink;

import io.bucketer.buckets.ClosedBucket;
import java.util.List;

/** Where a resink writes its buckets: MongoDB ({@link MongoTarget}), or nowhere in a dry run. */
interface ResinkTarget extends AutoCloseable {

  /** What became of the buckets of one {@link #write}: all others created or replaced theirs. */
  record Written(List<ClosedBucket> unchanged, List<ClosedBucket> rejected) {

    static final Written ALL = new Written(List.of(), List.of());

    public Written {
      unchanged = List.copyOf(unchanged);
      rejected = List.copyOf(rejected);
    }
  }

  /** Makes ready to write: the indexes, as {@code run} creates them. */
  void prepare();

  /**
   * Writes {@code buckets}, returning once the target acknowledged every one it does not reject.
   *
   * @throws ResinkException when it cannot write them
   */
  Written write(List<ClosedBucket> buckets);

  @Override
  void close();

  /** A dry run: nothing prepared, nothing written, every bucket counted as it would be. */
  static ResinkTarget dryRun() {
    return new ResinkTarget() {
      @Override
      public void prepare() {}

      @Override
      public Written write(final List<ClosedBucket> buckets) {
        return Written.ALL;
      }

      @Override
      public void close() {}
    };
  }
}
