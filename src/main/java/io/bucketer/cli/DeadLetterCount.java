package io.bucketer.cli;

import io.bucketer.topology.DeadLetterHeaders;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/** Counts the committed records of a dead-letter topic by their reason header. */
final class DeadLetterCount {

  private DeadLetterCount() {}

  static Map<String, Long> byReason(final String bootstrapServers, final String topic) {
    final Map<String, Object> properties =
        Map.of(
            ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
            bootstrapServers,
            ConsumerConfig.GROUP_ID_CONFIG,
            "dead-letter-count-" + UUID.randomUUID(),
            ConsumerConfig.ISOLATION_LEVEL_CONFIG,
            "read_committed");
    final Map<String, Long> counts = new TreeMap<>();
    try (KafkaConsumer<byte[], byte[]> consumer =
        new KafkaConsumer<>(properties, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
      final List<TopicPartition> partitions =
          consumer.partitionsFor(topic).stream()
              .map(info -> new TopicPartition(topic, info.partition()))
              .toList();
      consumer.assign(partitions);
      consumer.seekToBeginning(partitions);
      final Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
      while (partitions.stream().anyMatch(p -> consumer.position(p) < ends.get(p))) {
        for (final ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
          final Header reason = record.headers().lastHeader(DeadLetterHeaders.REASON);
          final String label =
              reason == null ? "unknown" : new String(reason.value(), StandardCharsets.UTF_8);
          counts.merge(label, 1L, Long::sum);
        }
      }
    }
    return counts;
  }
}
