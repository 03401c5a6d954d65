package io.bucketer.resink;

import dev.failsafe.Failsafe;
import dev.failsafe.FailsafeException;
import dev.failsafe.RetryPolicy;
import dev.failsafe.function.CheckedSupplier;
import io.bucketer.buckets.ClosedBucket;
import io.bucketer.sink.AcknowledgementRetries;
import io.bucketer.sink.BucketWriteException;
import io.bucketer.sink.MongoBucketWriter;
import io.bucketer.topics.BucketKey;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Writes a resink's buckets through the sink's own writer ({@link MongoBucketWriter}): the same
 * documents, the same revision guard, the same indexes. What MongoDB does not acknowledge is tried
 * again with a growing wait, as the sink does, for at most {@code giveUpAfter}; a bucket MongoDB
 * rejects (a document it will never take) is counted and the rest written, as the sink does, but
 * not dead-lettered again: the running sink already did, when it met it.
 */
final class MongoTarget implements ResinkTarget {

  private final MongoBucketWriter writer;
  private final Duration writeTimeout;
  private final RetryPolicy<Object> untilAcknowledged;

  /**
   * @param writer closed with this target
   * @param writeTimeout how long one write may wait for MongoDB
   * @param maxBackoff the longest wait between two attempts
   * @param giveUpAfter how long one batch may go unacknowledged before the resink stops
   * @param retrying told each failed attempt, in one line
   */
  MongoTarget(
      final MongoBucketWriter writer,
      final Duration writeTimeout,
      final Duration maxBackoff,
      final Duration giveUpAfter,
      final Consumer<String> retrying) {
    this.writer = writer;
    this.writeTimeout = writeTimeout;
    this.untilAcknowledged =
        AcknowledgementRetries.untilAcknowledged(maxBackoff, giveUpAfter, retrying);
  }

  /**
   * Creates the indexes as {@code run} does: the series/time index and the retention's TTL indexes.
   *
   * @throws io.bucketer.sink.MongoUnusableException when MongoDB cannot be used as configured
   */
  @Override
  public void prepare() {
    try {
      retriedStep("cannot create the bucket indexes", () -> writer.ensureIndexes(writeTimeout));
    } catch (BucketWriteException e) {
      throw new ResinkException("MongoDB refused the bucket indexes: " + e.getMessage(), e);
    }
  }

  /**
   * Writes {@code buckets}; those MongoDB rejects are set aside and the rest written again. When
   * MongoDB rejected several at once (the driver refuses a whole bulk write over a document too
   * large, without naming it), each of those is tried alone, so that only the culprits count.
   */
  @Override
  public Written write(final List<ClosedBucket> buckets) {
    try {
      return new Written(
          retried(
                  "cannot write " + buckets.size() + " buckets",
                  () -> writer.write(buckets, writeTimeout))
              .unchanged(),
          List.of());
    } catch (BucketWriteException e) {
      final Set<String> keys = new HashSet<>(e.rejectedBucketKeys());
      if (keys.isEmpty()) {
        throw new ResinkException("MongoDB refused the buckets: " + e.getMessage(), e);
      }
      if (buckets.size() == 1) {
        return new Written(List.of(), buckets);
      }
      final List<ClosedBucket> rest = new ArrayList<>();
      final List<ClosedBucket> suspects = new ArrayList<>();
      for (final ClosedBucket bucket : buckets) {
        (keys.contains(BucketKey.of(bucket)) ? suspects : rest).add(bucket);
      }
      if (suspects.isEmpty()) {
        // Rejections of buckets this call did not hold: nothing to set aside, nothing to retry.
        throw new ResinkException("MongoDB refused the buckets: " + e.getMessage(), e);
      }
      final List<ClosedBucket> unchanged = new ArrayList<>();
      final List<ClosedBucket> rejected = new ArrayList<>();
      // Rewriting the rest is harmless: the writer replaces only older revisions.
      final List<List<ClosedBucket>> parts = new ArrayList<>();
      if (!rest.isEmpty()) {
        parts.add(rest);
      }
      if (suspects.size() == 1) {
        rejected.addAll(suspects);
      } else {
        suspects.forEach(suspect -> parts.add(List.of(suspect)));
      }
      for (final List<ClosedBucket> part : parts) {
        final Written written = write(part);
        unchanged.addAll(written.unchanged());
        rejected.addAll(written.rejected());
      }
      return new Written(unchanged, rejected);
    }
  }

  @Override
  public void close() {
    writer.close();
  }

  private <T> T retried(final String doing, final CheckedSupplier<T> step) {
    try {
      return Failsafe.with(untilAcknowledged).get(step);
    } catch (FailsafeException e) {
      throw new ResinkException(doing + ": " + e.getMessage(), e);
    } catch (BucketWriteException e) {
      if (e.isRetryable()) {
        throw new ResinkException(
            doing + ": MongoDB did not acknowledge for too long: " + e.getMessage(), e);
      }
      throw e;
    }
  }

  private void retriedStep(final String doing, final Runnable step) {
    retried(
        doing,
        () -> {
          step.run();
          return null;
        });
  }
}
