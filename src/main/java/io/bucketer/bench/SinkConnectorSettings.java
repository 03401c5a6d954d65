package io.bucketer.bench;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * What the sink connector reads, where it writes, and how big its JVM is.
 *
 * @param topic the input topic, the same one bucketer reads
 * @param database the MongoDB database; {@code collection} receives one document per reading
 * @param tasksMax Connect's {@code tasks.max}: consumers in the connector's group, each writing its
 *     own partitions; more than the topic's partitions leaves the rest idle
 * @param maxHeap the connector JVM's {@code -Xmx} value, e.g. {@code 512m}
 */
public record SinkConnectorSettings(
    String bootstrapServers,
    String topic,
    String schemaRegistryUrl,
    String mongoUri,
    String database,
    String collection,
    int tasksMax,
    String maxHeap) {

  private static final Pattern HEAP_SIZE = Pattern.compile("[1-9][0-9]*[kKmMgG]?");

  public SinkConnectorSettings {
    Objects.requireNonNull(bootstrapServers, "bootstrapServers");
    Objects.requireNonNull(topic, "topic");
    Objects.requireNonNull(schemaRegistryUrl, "schemaRegistryUrl");
    Objects.requireNonNull(mongoUri, "mongoUri");
    Objects.requireNonNull(database, "database");
    Objects.requireNonNull(collection, "collection");
    if (tasksMax < 1) {
      throw new IllegalArgumentException("tasksMax must be at least 1: " + tasksMax);
    }
    if (!HEAP_SIZE.matcher(maxHeap).matches()) {
      throw new IllegalArgumentException("not an -Xmx size: " + maxHeap);
    }
  }

  /**
   * One task and a 512 MiB heap: a single consumer, as a single bucketer instance, with room for
   * Connect's REST server and a few polled batches of 500 records.
   */
  public static SinkConnectorSettings of(
      final String bootstrapServers,
      final String topic,
      final String schemaRegistryUrl,
      final String mongoUri,
      final String database,
      final String collection) {
    return new SinkConnectorSettings(
        bootstrapServers, topic, schemaRegistryUrl, mongoUri, database, collection, 1, "512m");
  }

  public SinkConnectorSettings withTasksMax(final int tasks) {
    return new SinkConnectorSettings(
        bootstrapServers, topic, schemaRegistryUrl, mongoUri, database, collection, tasks, maxHeap);
  }

  public SinkConnectorSettings withMaxHeap(final String heap) {
    return new SinkConnectorSettings(
        bootstrapServers, topic, schemaRegistryUrl, mongoUri, database, collection, tasksMax, heap);
  }
}
