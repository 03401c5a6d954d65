package io.bucketer.sink;

import io.bucketer.topics.BucketerTopics;
import io.bucketer.topics.TypedTopic;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;

/**
 * The sink's Kafka clients: the consumer of the buckets topic and the producer of its dead letters,
 * each with the pass-through properties overridden by the settings the sink's guarantees depend on
 * (read committed, manual commits, a poll interval longer than a write and a backoff; acks from
 * every in-sync replica for the dead letters). Kept apart from the poll loop, like the writer's
 * MongoDB client settings are apart from the writes.
 */
final class SinkKafkaClients {

  /**
   * The most one fetch of the sink's consumer brings back, where Kafka's default is 50 MiB (and 1
   * MiB a partition). A response is one array that lives until the sink has written the last bucket
   * in it, and the sink waits for MongoDB between polls: with six partitions of the buckets topic a
   * response was 6 MB, lived for seconds and was promoted, the largest arrays the processor still
   * promoted once the stream threads' fetches were bounded (docs/benchmarks.md, "A fetch at most 1
   * MiB"). The cost: a fetch request per MiB of buckets read.
   */
  static final int FETCH_MAX_BYTES = 1024 * 1024;

  private SinkKafkaClients() {}

  /**
   * A consumer of the buckets topic's bytes, decoded by the sink with the topic's deserializer
   * ({@link SinkBatch}): a rejected bucket is dead-lettered as it was read.
   */
  static Consumer<byte[], byte[]> consumer(final SinkConfig config) {
    final TypedTopic<byte[], byte[]> buckets =
        BucketerTopics.closedBuckets(config.topic()).asBytes();
    return new KafkaConsumer<>(
        consumerProperties(config), buckets.keyDeserializer(), buckets.valueDeserializer());
  }

  /** A producer of the dead-letter topic, whose keys and values are bytes. */
  static Producer<byte[], byte[]> deadLetterProducer(final SinkConfig config) {
    final TypedTopic<byte[], byte[]> deadLetters =
        BucketerTopics.deadLetters(config.deadLetterTopic());
    return new KafkaProducer<>(
        RejectedBucketDeadLetters.producerProperties(config.kafkaProperties()),
        deadLetters.keySerializer(),
        deadLetters.valueSerializer());
  }

  /** The pass-through properties plus the settings the sink's guarantees depend on. */
  static Map<String, Object> consumerProperties(final SinkConfig config) {
    final Map<String, Object> properties = new HashMap<>(config.kafkaProperties());
    // A new group starts at the beginning: buckets closed before the sink first ran still count.
    properties.putIfAbsent(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    properties.putIfAbsent(ConsumerConfig.FETCH_MAX_BYTES_CONFIG, FETCH_MAX_BYTES);
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
