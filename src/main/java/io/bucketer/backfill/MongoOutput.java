package io.bucketer.backfill;

import dev.failsafe.Failsafe;
import dev.failsafe.FailsafeException;
import dev.failsafe.RetryPolicy;
import dev.failsafe.function.CheckedSupplier;
import io.bucketer.buckets.ClosedBucket;
import io.bucketer.sink.AcknowledgementRetries;
import io.bucketer.sink.BucketWriteException;
import io.bucketer.sink.MongoBucketWriter;
import io.bucketer.sink.MongoBucketWriter.Repaired;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;

/**
 * Writes a backfill's documents through the sink's own writer ({@link MongoBucketWriter}): the same
 * documents, the same revision guard, the same indexes. What MongoDB does not acknowledge is tried
 * again with a growing wait, as the sink and a resink do, for at most {@code giveUpAfter}. A
 * document MongoDB rejects stops the backfill: a summary document is far below MongoDB's size limit
 * ({@code bucket.max.bytes} cuts it), so a rejection means something an operator must look at.
 */
final class MongoOutput implements BucketOutput {

  private final MongoBucketWriter writer;
  private final boolean dryRun;
  private final Duration writeTimeout;
  private final RetryPolicy<Object> untilAcknowledged;

  /**
   * @param writer kept and closed by the caller
   * @param dryRun read only: nothing prepared or written, every write counted as it would be
   * @param retrying told each failed attempt, in one line
   */
  MongoOutput(
      final MongoBucketWriter writer,
      final boolean dryRun,
      final Duration writeTimeout,
      final Duration maxBackoff,
      final Duration giveUpAfter,
      final Consumer<String> retrying) {
    this.writer = writer;
    this.dryRun = dryRun;
    this.writeTimeout = writeTimeout;
    this.untilAcknowledged =
        AcknowledgementRetries.untilAcknowledged(maxBackoff, giveUpAfter, retrying);
  }

  @Override
  public void prepare() {
    if (dryRun) {
      return;
    }
    retried(
        "cannot create the bucket indexes",
        () -> {
          writer.ensureIndexes(writeTimeout);
          return null;
        });
  }

  @Override
  public int write(final List<ClosedBucket> buckets) {
    if (dryRun) {
      // The revision guard is MongoDB's: a dry run does not ask it.
      return 0;
    }
    return retried(
        "cannot write " + buckets.size() + " documents",
        () -> writer.write(buckets, writeTimeout).unchanged().size());
  }

  @Override
  public Repaired repair(final List<ClosedBucket> buckets) {
    return retried(
        "cannot repair " + buckets.size() + " documents",
        () -> writer.repair(buckets, dryRun, writeTimeout));
  }

  private <T> T retried(final String doing, final CheckedSupplier<T> step) {
    try {
      return Failsafe.with(untilAcknowledged).get(step);
    } catch (FailsafeException e) {
      throw new BackfillException(doing + ": " + e.getMessage(), e);
    } catch (BucketWriteException e) {
      throw new BackfillException(
          doing
              + (e.isRetryable() ? ": MongoDB did not acknowledge for too long: " : ": ")
              + e.getMessage(),
          e);
    }
  }
}
