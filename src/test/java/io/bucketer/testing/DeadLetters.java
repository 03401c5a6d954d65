package io.bucketer.testing;

import io.bucketer.topology.DeadLetterHeaders;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * The committed records of a dead-letter topic, counted by reason. A reading that went there (too
 * late, say) is accounted for but missing from MongoDB, so a test that expects every reading in a
 * bucket shows this count to tell such a reading from a lost one.
 */
public final class DeadLetters {

  private DeadLetters() {}

  public static Map<String, Long> byReason(final String bootstrapServers, final String topic) {
    final Map<String, Object> properties =
        Map.of(
            ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
            bootstrapServers,
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
      // read_committed end offsets: the last stable offsets, past which nothing is committed yet
      final Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
      while (partitions.stream().anyMatch(p -> consumer.position(p) < ends.get(p))) {
        for (final ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
          final Header reason = record.headers().lastHeader(DeadLetterHeaders.REASON);
          counts.merge(
              reason == null ? "unknown" : new String(reason.value(), StandardCharsets.UTF_8),
              1L,
              Long::sum);
        }
      }
    }
    return counts;
  }
}
