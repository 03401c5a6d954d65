package io.bucketer.topics;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;

/**
 * Reads a dead-letter topic back: the committed records, counted by their reason header. The demo
 * reports it, and tests that expect every reading in a bucket use it to tell a reading that was set
 * aside from one that was lost.
 */
public final class DeadLetterTopic {

  private DeadLetterTopic() {}

  public static Map<String, Long> countByReason(final String bootstrapServers, final String topic) {
    final Map<String, Long> counts = new TreeMap<>();
    for (final ConsumerRecord<byte[], byte[]> record : committedRecords(bootstrapServers, topic)) {
      final Header reason = record.headers().lastHeader(DeadLetterHeaders.REASON);
      counts.merge(
          reason == null ? "unknown" : new String(reason.value(), StandardCharsets.UTF_8),
          1L,
          Long::sum);
    }
    return counts;
  }

  /** Every committed record of the topic, read from the beginning to its last stable offsets. */
  public static List<ConsumerRecord<byte[], byte[]>> committedRecords(
      final String bootstrapServers, final String topic) {
    return committedRecords(
        Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers), topic);
  }

  /**
   * As {@link #committedRecords(String, String)}, for a consumer with {@code clientProperties}
   * (bootstrap servers included): a secured cluster's credentials, say.
   */
  public static List<ConsumerRecord<byte[], byte[]>> committedRecords(
      final Map<String, Object> clientProperties, final String topic) {
    final Map<String, Object> properties = new HashMap<>(clientProperties);
    properties.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    final TypedTopic<byte[], byte[]> deadLetters = BucketerTopics.deadLetters(topic);
    final List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
    try (KafkaConsumer<byte[], byte[]> consumer =
        new KafkaConsumer<>(
            properties, deadLetters.keyDeserializer(), deadLetters.valueDeserializer())) {
      final List<TopicPartition> partitions = WholeTopic.assignFromStart(consumer, topic);
      // read_committed end offsets: the last stable offsets, past which nothing is committed yet
      final Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
      while (partitions.stream().anyMatch(p -> consumer.position(p) < ends.get(p))) {
        consumer.poll(Duration.ofMillis(200)).forEach(records::add);
      }
    }
    return records;
  }
}
