package io.bucketer.sink;

import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * The sink's Kafka clients: the consumer of the buckets topic and the producer of its dead letters,
 * each with the pass-through properties overridden by the settings the sink's guarantees depend on
 * (read committed, manual commits, a poll interval longer than a write and a backoff; acks from
 * every in-sync replica for the dead letters). Kept apart from the poll loop, like the writer's
 * MongoDB client settings are apart from the writes.
 */
final class SinkKafkaClients {

  private SinkKafkaClients() {}

  /**
   * A consumer of bytes, decoded by the sink: a rejected bucket is dead-lettered as it was read.
   */
  static Consumer<byte[], byte[]> consumer(final SinkConfig config) {
    return new KafkaConsumer<>(
        consumerProperties(config), new ByteArrayDeserializer(), new ByteArrayDeserializer());
  }

  /** A producer of the dead letters' bytes. */
  static Producer<byte[], byte[]> deadLetterProducer(final SinkConfig config) {
    return new KafkaProducer<>(
        RejectedBucketDeadLetters.producerProperties(config.kafkaProperties()),
        new ByteArraySerializer(),
        new ByteArraySerializer());
  }

  /** The pass-through properties plus the settings the sink's guarantees depend on. */
  static Map<String, Object> consumerProperties(final SinkConfig config) {
    final Map<String, Object> properties = new HashMap<>(config.kafkaProperties());
    // A new group starts at the beginning: buckets closed before the sink first ran still count.
    properties.putIfAbsent(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    properties.put(ConsumerConfig.GROUP_ID_CONFIG, config.groupId());
    // Buckets of aborted topology transactions must never reach MongoDB.
    properties.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    properties.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    final long maxPollInterval =
        Long.parseLong(
            String.valueOf(
                properties.getOrDefault(ConsumerConfig.MAX_POLL_INTERVAL_MS_CONFIG, 300_000)));
    // One write plus one backoff poll happen between polls that fetch records.
    if (config.writeTimeout().plus(config.maxBackoff()).toMillis() >= maxPollInterval) {
      throw new IllegalArgumentException(
          "writeTimeout + maxBackoff must stay below max.poll.interval.ms ("
              + maxPollInterval
              + ")");
    }
    return properties;
  }
}
