package io.bucketer.bench;

import io.bucketer.topics.BucketerTopics;
import io.bucketer.topics.TypedTopic;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;

/**
 * The benchmarks' producer of readings to an input topic: large batches and a short linger, to fill
 * topics fast.
 */
final class FleetProducer {

  private FleetProducer() {}

  static KafkaProducer<byte[], byte[]> to(final String bootstrapServers, final String topic) {
    final Map<String, Object> properties = new HashMap<>();
    properties.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    properties.put(ProducerConfig.LINGER_MS_CONFIG, 20);
    properties.put(ProducerConfig.BATCH_SIZE_CONFIG, 256 * 1024);
    final TypedTopic<byte[], byte[]> input = BucketerTopics.input(topic);
    return new KafkaProducer<>(properties, input.keySerializer(), input.valueSerializer());
  }
}
