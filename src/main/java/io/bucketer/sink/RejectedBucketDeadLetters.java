package io.bucketer.sink;

import io.bucketer.metrics.BucketerMetrics;
import io.bucketer.topics.DeadLetterHeaders;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends the bucket records whose documents MongoDB rejected to the dead-letter topic, with their
 * original key, value bytes and timestamp and the reason, and tells the sink when Kafka has
 * acknowledged them all. The sink commits a batch only after that, so a rejected bucket is never in
 * neither place; a crash before the commit sends it again (at least once, like the writes).
 */
final class RejectedBucketDeadLetters implements AutoCloseable {

  /** The dead-letter reason of a bucket whose document MongoDB rejected. */
  static final String REASON = DeadLetterHeaders.MONGODB_REJECTED;

  // Logged as the sink, as before this was taken out of it: log filters keep working.
  private static final Logger LOG = LoggerFactory.getLogger(BucketSink.class);
  private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(5);

  private final Producer<byte[], byte[]> producer;
  private final String topic;
  private final BucketerMetrics metrics;
  private final List<Future<RecordMetadata>> unacknowledged = new ArrayList<>();

  RejectedBucketDeadLetters(
      final Producer<byte[], byte[]> producer, final String topic, final BucketerMetrics metrics) {
    this.producer = producer;
    this.topic = topic;
    this.metrics = metrics;
    // One rejected bucket is worth an alert: exported at zero, so that Prometheus sees the first.
    metrics.countDeadLettersFromZero(REASON);
  }

  /** The pass-through properties plus the settings a dead letter's safety depends on. */
  static Map<String, Object> producerProperties(final Map<String, Object> kafkaProperties) {
    final Map<String, Object> properties = new HashMap<>(kafkaProperties);
    // Once its offset is committed, the dead letter is the only copy of a rejected bucket: it
    // must be on every in-sync replica, and a retried send must not write it twice.
    properties.put(ProducerConfig.ACKS_CONFIG, "all");
    properties.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
    return properties;
  }

  /**
   * Takes the buckets MongoDB rejected out of {@code batch} and sends their records, with MongoDB's
   * reason; returns at once.
   *
   * @throws BucketSinkException when none of them is in the batch: writing the same batch again
   *     would loop for ever
   */
  void setAside(final SinkBatch batch, final BucketWriteException rejection) {
    final List<SinkBatch.Polled> rejected = batch.reject(rejection.rejectedBucketKeys());
    if (rejected.isEmpty()) {
      throw new BucketSinkException(
          "MongoDB rejected buckets that are not in the batch: " + rejection.rejectedBucketKeys(),
          rejection);
    }
    for (final SinkBatch.Polled polled : rejected) {
      final String reason = rejection.rejectionReason(polled.key());
      LOG.warn(
          "MongoDB rejected bucket {} ({}-{} offset {}), sent to {}: {}",
          polled.key(),
          polled.record().topic(),
          polled.record().partition(),
          polled.record().offset(),
          topic,
          reason);
      send(polled.record(), "MongoDB rejected the bucket document: " + reason);
    }
  }

  /**
   * Sends {@code source} as it was read, with the dead-letter headers; returns at once. The letter
   * is stamped by the producer's clock, the bucket record's own time (its window's) going in a
   * header: the topic's retention then counts from when it was set aside ({@link
   * DeadLetterHeaders}).
   */
  void send(final ConsumerRecord<byte[], byte[]> source, final String message) {
    final ProducerRecord<byte[], byte[]> letter =
        new ProducerRecord<>(topic, null, null, source.key(), source.value());
    DeadLetterHeaders.add(
        letter.headers(),
        REASON,
        message,
        source.topic(),
        source.partition(),
        source.offset(),
        source.timestamp());
    unacknowledged.add(producer.send(letter));
  }

  /**
   * Returns once Kafka acknowledged every dead letter sent so far, counting them.
   *
   * @throws BucketSinkException when Kafka refused one, or did not take it within the producer's
   *     delivery timeout (it retries by itself until then)
   */
  void awaitAcknowledged() {
    if (unacknowledged.isEmpty()) {
      return;
    }
    producer.flush();
    try {
      for (final Future<RecordMetadata> acknowledgement : unacknowledged) {
        acknowledgement.get();
        metrics.deadLetter(REASON);
      }
    } catch (ExecutionException e) {
      throw new BucketSinkException(
          "a rejected bucket could not be written to dead-letter topic " + topic, e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new BucketSinkException("interrupted while waiting for dead letters", e);
    } finally {
      unacknowledged.clear();
    }
  }

  @Override
  public void close() {
    // Unacknowledged letters belong to an uncommitted batch, which is redelivered: no need to wait.
    producer.close(CLOSE_TIMEOUT);
  }
}
