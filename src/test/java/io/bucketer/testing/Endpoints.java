package io.bucketer.testing;

/**
 * Where a processor finds Kafka, the Schema Registry and MongoDB: {@link LocalInfrastructure} or
 * containers, whichever a test runs against.
 */
public record Endpoints(String bootstrapServers, String schemaRegistryUrl, String mongoUri) {}
