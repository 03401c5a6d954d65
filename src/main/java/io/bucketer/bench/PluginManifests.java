package io.bucketer.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * ServiceLoader manifests for the two plugins that ship without one, MongoDB's sink connector and
 * bucketer's converter, in a directory that goes on the connector JVM's class path. With them the
 * worker can use {@code plugin.discovery=service_load} instead of also scanning every class of some
 * 70 jars by reflection, which took about 5 s of the worker's start on two cores. It is what
 * Kafka's own {@code connect-plugin-path sync-manifests} tool does to a plugin's jar.
 */
final class PluginManifests {

  private static final Map<String, String> PLUGINS =
      Map.of(
          "org.apache.kafka.connect.sink.SinkConnector",
          ConnectorProperties.CONNECTOR_CLASS,
          "org.apache.kafka.connect.storage.Converter",
          ConnectorProperties.CONVERTER_CLASS);

  private PluginManifests() {}

  /** Writes the manifests under {@code directory} and returns it, for the class path. */
  static Path writeTo(final Path directory) throws IOException {
    final Path services = Files.createDirectories(directory.resolve("META-INF/services"));
    for (Map.Entry<String, String> plugin : PLUGINS.entrySet()) {
      Files.writeString(
          services.resolve(plugin.getKey()), plugin.getValue() + "\n", StandardCharsets.UTF_8);
    }
    return directory;
  }
}
