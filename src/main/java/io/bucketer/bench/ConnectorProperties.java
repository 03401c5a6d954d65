package io.bucketer.bench;

import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;

/**
 * The two files Kafka Connect standalone reads: the worker's settings and the MongoDB sink's. Every
 * connector setting that is not here is at the connector's default, so the benchmark measures the
 * connector as its users get it; each choice that is here says why.
 */
final class ConnectorProperties {

  static final String CONNECTOR_CLASS = "com.mongodb.kafka.connect.MongoSinkConnector";
  // By name, not WireFormatAvroConverter.class: loading that class needs connect-api, which is on
  // the connector's class path but not on bucketer's, where this runs.
  static final String CONVERTER_CLASS = "io.bucketer.bench.connect.WireFormatAvroConverter";
  static final String CONVERTER_REGISTRY_URL = "value.converter.schema.registry.url";

  private ConnectorProperties() {}

  static Map<String, String> worker(final SinkConnectorSettings settings, final Path offsetsFile) {
    final Map<String, String> worker = new TreeMap<>();
    worker.put("bootstrap.servers", settings.bootstrapServers());
    // The sink ignores keys with its default id strategy: the cheapest converter, no decoding.
    worker.put("key.converter", "org.apache.kafka.connect.converters.ByteArrayConverter");
    worker.put("value.converter", CONVERTER_CLASS);
    worker.put(CONVERTER_REGISTRY_URL, settings.schemaRegistryUrl());
    // Required by standalone mode but unused by a sink, whose offsets its consumer group commits.
    worker.put("offset.storage.file.filename", offsetsFile.toString());
    // Nobody calls the REST API; port 0 keeps it off 8083 and apart from any other connector.
    worker.put("listeners", "http://127.0.0.1:0");
    // Everything is on the class path (target/connect-lib and bucketer's classes): no plugin.path.
    // Plugins are found by their ServiceLoader manifests (see PluginManifests), not by scanning.
    worker.put("plugin.discovery", "service_load");
    return worker;
  }

  /**
   * At the connector's defaults: {@code document.id.strategy} BsonOidStrategy (a new ObjectId per
   * record) and {@code writemodel.strategy} DefaultWriteModelStrategy (a replace-one upsert on that
   * id) give one document per reading; {@code max.batch.size} 0 writes each poll (at most the
   * consumer's 500 records) as one ordered bulk write; {@code errors.tolerance} none stops the task
   * at the first bad record rather than counting it silently. The consumer starts at the earliest
   * offset, Connect's default for a sink's new group.
   */
  static Map<String, String> connector(final SinkConnectorSettings settings, final String name) {
    final Map<String, String> connector = new TreeMap<>();
    // A fresh name per run is a fresh consumer group (connect-<name>): every run reads the topic
    // from its start, never from where an earlier run left off.
    connector.put("name", name);
    connector.put("connector.class", CONNECTOR_CLASS);
    connector.put("tasks.max", Integer.toString(settings.tasksMax()));
    connector.put("topics", settings.topic());
    connector.put("connection.uri", settings.mongoUri());
    connector.put("database", settings.database());
    connector.put("collection", settings.collection());
    return connector;
  }
}
