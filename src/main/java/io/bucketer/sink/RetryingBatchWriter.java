package io.bucketer.sink;

import io.bucketer.buckets.ClosedBucket;
import io.bucketer.metrics.SinkMeters;
import io.bucketer.metrics.SinkMeters.WriteOutcome;
import io.micrometer.core.instrument.Timer;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes one polled batch until MongoDB acknowledged every bucket of it that it does not reject. An
 * infrastructure failure (MongoDB unreachable or slow) is retried after a {@link Backoff}, the
 * consumer's partitions paused meanwhile ({@link PausedPartitions}); the buckets MongoDB rejects
 * are set aside to the dead letters ({@link RejectedBucketDeadLetters}). Each attempt writes only
 * what MongoDB has not acknowledged yet: a MongoDB too slow to take a whole batch within the write
 * timeout still takes part of it at each attempt, where sending the whole batch again would time
 * out every time. Every write is timed and counted ({@link SinkMeters}). Kept out of {@link
 * BucketSink} so that its loop reads as poll, write, commit.
 */
final class RetryingBatchWriter {

  // Logged as the sink, as before this was taken out of it: log filters keep working.
  private static final Logger LOG = LoggerFactory.getLogger(BucketSink.class);

  private final MongoBucketWriter writer;
  private final SinkConfig config;
  private final PausedPartitions pause;
  private final RejectedBucketDeadLetters deadLetters;
  private final SinkMeters meters;

  /** MongoDB away: one line a minute while it lasts, and one when it is back. */
  private final RepeatedWarning warnings = new RepeatedWarning(LOG, Clock.systemUTC());

  RetryingBatchWriter(
      final MongoBucketWriter writer,
      final SinkConfig config,
      final PausedPartitions pause,
      final RejectedBucketDeadLetters deadLetters,
      final SinkMeters meters) {
    this.writer = writer;
    this.config = config;
    this.pause = pause;
    this.deadLetters = deadLetters;
    this.meters = meters;
  }

  /**
   * Returns once MongoDB acknowledged the batch, less its rejected buckets, whose dead letters were
   * sent (not necessarily acknowledged yet); the partitions are then resumed.
   *
   * @throws org.apache.kafka.common.errors.WakeupException when the sink is closed during a backoff
   * @throws BucketSinkException when MongoDB rejects buckets that are not in the batch
   */
  void writeUntilAcknowledged(final SinkBatch batch) {
    final Backoff backoff = new Backoff(config.initialBackoff(), config.maxBackoff());
    while (true) {
      try {
        timedWrite(batch.buckets());
        pause.resume();
        warnings.cleared("MongoDB acknowledges bucket writes again");
        return;
      } catch (BucketWriteException e) {
        final int attempted = batch.size();
        countWritten(batch.written(e.acknowledgedBucketKeys()));
        if (!e.isRetryable()) {
          // Rewriting the rest is harmless: the writer replaces only older revisions.
          deadLetters.setAside(batch, e);
          continue;
        }
        meters.retried();
        final Duration delay = backoff.next();
        warnings.failed(
            "writing "
                + attempted
                + " buckets failed, retrying the "
                + batch.size()
                + " not acknowledged (their partitions paused): "
                + e.getMessage());
        pause.pause();
        pause.pollDuring(delay);
      }
    }
  }

  private void timedWrite(final List<ClosedBucket> batch) {
    final Timer.Sample sample = meters.writeStarted();
    WriteOutcome outcome = WriteOutcome.ERROR;
    try {
      writer.write(batch, config.writeTimeout());
      outcome = WriteOutcome.SUCCESS;
    } catch (BucketWriteException e) {
      outcome = e.isRetryable() ? WriteOutcome.RETRYABLE : WriteOutcome.REJECTED;
      throw e;
    } finally {
      meters.writeEnded(sample, outcome);
    }
    countWritten(batch);
  }

  private void countWritten(final List<ClosedBucket> written) {
    final Map<String, Integer> perGranularity = new HashMap<>();
    written.forEach(b -> perGranularity.merge(b.granularity().label(), 1, Integer::sum));
    perGranularity.forEach(meters::written);
  }
}
