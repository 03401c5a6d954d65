package io.bucketer.bench;

import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/** The benchmarks' producer of readings: large batches and a short linger, to fill topics fast. */
final class FleetProducer {

  private FleetProducer() {}

  static KafkaProducer<byte[], byte[]> to(final String bootstrapServers) {
    final Map<String, Object> properties = new HashMap<>();
    properties.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    properties.put(ProducerConfig.LINGER_MS_CONFIG, 20);
    properties.put(ProducerConfig.BATCH_SIZE_CONFIG, 256 * 1024);
    return new KafkaProducer<>(properties, new ByteArraySerializer(), new ByteArraySerializer());
  }
}
