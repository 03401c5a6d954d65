package io.bucketer.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.bucketer.bench.connect.WireFormatAvroConverter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConnectorPropertiesTest {

  private static final SinkConnectorSettings SETTINGS =
      SinkConnectorSettings.of(
              "127.0.0.1:9092",
              "iot.readings",
              "http://127.0.0.1:8081",
              "mongodb://127.0.0.1:27017",
              "bench",
              "readings")
          .withTasksMax(2);

  @TempDir Path dir;

  @Test
  void shouldDecodeValuesWithBucketersConverterAndItsRegistry() {
    final Map<String, String> worker =
        ConnectorProperties.worker(SETTINGS, dir.resolve("connect.offsets"));

    assertThat(worker)
        .containsEntry("bootstrap.servers", "127.0.0.1:9092")
        .containsEntry("value.converter", WireFormatAvroConverter.class.getName())
        .containsEntry("value.converter.schema.registry.url", "http://127.0.0.1:8081")
        .containsEntry("offset.storage.file.filename", dir.resolve("connect.offsets").toString())
        .containsEntry("plugin.discovery", "service_load");
  }

  /** The benchmark measures the connector as its users get it: no tuning of how it writes. */
  @Test
  void shouldLeaveHowTheConnectorWritesAtItsDefaults() {
    final Map<String, String> connector = ConnectorProperties.connector(SETTINGS, "sink-1");

    assertThat(connector)
        .containsOnlyKeys(
            "name",
            "connector.class",
            "tasks.max",
            "topics",
            "connection.uri",
            "database",
            "collection")
        .containsEntry("connector.class", "com.mongodb.kafka.connect.MongoSinkConnector")
        .containsEntry("tasks.max", "2")
        .containsEntry("topics", "iot.readings");
  }

  @Test
  void shouldDeclareTheConnectorAndTheConverterAsServices() throws Exception {
    final Path services =
        PluginManifests.writeTo(dir.resolve("manifests")).resolve("META-INF/services");

    assertThat(services.resolve("org.apache.kafka.connect.sink.SinkConnector"))
        .hasContent("com.mongodb.kafka.connect.MongoSinkConnector");
    assertThat(services.resolve("org.apache.kafka.connect.storage.Converter"))
        .hasContent(WireFormatAvroConverter.class.getName());
    try (Stream<Path> files = Files.list(services)) {
      assertThat(files).hasSize(2);
    }
  }

  /** The names are spelled out so that bucketer's JVM need not load connect-api. */
  @Test
  void shouldNameTheConverterAndItsSettingAsTheConverterDoes() {
    assertThat(ConnectorProperties.CONVERTER_CLASS)
        .isEqualTo(WireFormatAvroConverter.class.getName());
    assertThat(ConnectorProperties.CONVERTER_REGISTRY_URL)
        .isEqualTo("value.converter." + WireFormatAvroConverter.SCHEMA_REGISTRY_URL);
  }
}
