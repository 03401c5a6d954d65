package io.bucketer.testing;

import java.util.HashMap;
import java.util.Map;

/**
 * Where a processor finds Kafka, the Schema Registry and MongoDB: {@link LocalInfrastructure} or
 * containers, whichever a test runs against. {@code kafkaClient} holds what the test's own Kafka
 * clients (its admin, its producer of readings) need besides the bootstrap servers: the admin's
 * credentials on a secured broker, nothing on a PLAINTEXT one.
 */
public record Endpoints(
    String bootstrapServers,
    String schemaRegistryUrl,
    String mongoUri,
    Map<String, Object> kafkaClient) {

  public Endpoints {
    kafkaClient = Map.copyOf(kafkaClient);
  }

  /** Endpoints with a PLAINTEXT broker that asks its clients for nothing. */
  public Endpoints(
      final String bootstrapServers, final String schemaRegistryUrl, final String mongoUri) {
    this(bootstrapServers, schemaRegistryUrl, mongoUri, Map.of());
  }

  /** Properties for a Kafka client of the test: the bootstrap servers and {@link #kafkaClient}. */
  public Map<String, Object> testClientProperties() {
    final Map<String, Object> properties = new HashMap<>(kafkaClient);
    properties.put("bootstrap.servers", bootstrapServers);
    return properties;
  }
}
