package io.bucketer.sink;

import java.time.Duration;
import java.util.Collection;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Pauses the sink consumer's partitions while a batch is retried, those assigned in the middle of a
 * retry included, and polls during each backoff: the consumer stays in its group without fetching
 * more, so memory holds one poll however long MongoDB is away, and no record is fetched past the
 * batch in hand. Used on the poll thread only (the rebalance callbacks run within a poll).
 */
final class PausedPartitions implements ConsumerRebalanceListener {

  // Logged as the sink, as before this was taken out of it: log filters keep working.
  private static final Logger LOG = LoggerFactory.getLogger(BucketSink.class);

  private final Consumer<byte[], byte[]> consumer;
  private boolean paused;

  PausedPartitions(final Consumer<byte[], byte[]> consumer) {
    this.consumer = consumer;
  }

  /** Pauses every assigned partition, and those assigned later until {@link #resume()}. */
  void pause() {
    if (!paused) {
      consumer.pause(consumer.assignment());
      paused = true;
    }
  }

  /** Resumes the paused partitions, once the batch in hand was written. */
  void resume() {
    if (paused) {
      consumer.resume(consumer.paused());
      paused = false;
    }
  }

  /** Keeps the group membership alive during a backoff; throws WakeupException on close. */
  void pollDuring(final Duration backoff) {
    final ConsumerRecords<byte[], byte[]> unexpected = consumer.poll(backoff);
    // New partitions are paused on assignment; should records arrive anyway, rewind so they are
    // fetched again after the batch in hand is acknowledged instead of being skipped by its commit.
    for (final TopicPartition partition : unexpected.partitions()) {
      consumer.seek(partition, unexpected.records(partition).get(0).offset());
    }
  }

  @Override
  public void onPartitionsAssigned(final Collection<TopicPartition> partitions) {
    if (paused) {
      consumer.pause(partitions);
    }
  }

  @Override
  public void onPartitionsRevoked(final Collection<TopicPartition> partitions) {
    // Nothing to flush: only acknowledged batches are committed, the rest is redelivered.
    LOG.info("partitions revoked {}; uncommitted buckets go to their next owner", partitions);
  }
}
