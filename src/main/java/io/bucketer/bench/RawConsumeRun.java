package io.bucketer.bench;

import io.bucketer.ingest.InvalidReadingException;
import io.bucketer.ingest.ReadingDecoder;
import io.bucketer.ingest.SchemaRegistryClient;
import io.bucketer.topics.BucketerTopics;
import io.bucketer.topics.TypedTopic;
import io.bucketer.topics.WholeTopic;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongConsumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;

/**
 * The limit of any processor bound to the input topic: one plain consumer that reads every record
 * from the beginning and decodes it into a reading, and does nothing else. No group, no commits.
 */
final class RawConsumeRun {

  private RawConsumeRun() {}

  /** Reads and decodes {@code expected} readings; returns how long it took. */
  static PhaseClock.Measured run(
      final PhaseClock clock,
      final String bootstrapServers,
      final SchemaRegistryClient registry,
      final String topic,
      final long expected,
      final Duration timeout,
      final LongConsumer progress) {
    final ReadingDecoder decoder = new ReadingDecoder(registry);
    try (KafkaConsumer<byte[], byte[]> consumer = consumer(bootstrapServers, topic)) {
      final List<TopicPartition> partitions = WholeTopic.assignFromStart(consumer, topic);
      clock.start();
      final long deadline = System.nanoTime() + timeout.toNanos();
      long decoded = 0;
      long reported = 0;
      double checksum = 0; // keeps the decoded values alive, so the JIT cannot drop the decoding
      while (decoded < expected) {
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException(
              "the raw consumer read " + decoded + " of " + expected + " readings in " + timeout);
        }
        final ConsumerRecords<byte[], byte[]> records = consumer.poll(Duration.ofMillis(100));
        for (final ConsumerRecord<byte[], byte[]> record : records) {
          checksum += decoder.decode(record.value()).getValue();
          decoded++;
        }
        if (decoded - reported >= 100_000) {
          reported = decoded;
          progress.accept(decoded);
        }
      }
      if (Double.isNaN(checksum)) {
        throw new IllegalStateException("a decoded value was NaN");
      }
      return clock.stop();
    } catch (InvalidReadingException e) {
      throw new IllegalStateException("the benchmark's own readings do not decode", e);
    }
  }

  private static KafkaConsumer<byte[], byte[]> consumer(
      final String bootstrapServers, final String topic) {
    final Map<String, Object> properties = new HashMap<>();
    properties.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    properties.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    final TypedTopic<byte[], byte[]> input = BucketerTopics.input(topic);
    return new KafkaConsumer<>(properties, input.keyDeserializer(), input.valueDeserializer());
  }
}
