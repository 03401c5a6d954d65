package io.bucketer.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bucketer.ingest.InputFormat;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * input.format=protobuf and json-schema: when a registry is needed, and a descriptor set that
 * cannot serve the mapping stops the start, naming the setting.
 */
class InputFormatSettingsTest {

  @TempDir Path folder;

  private static Map<String, Object> required(final String format) {
    final Map<String, Object> settings = new HashMap<>();
    settings.put("bootstrap.servers", "broker:9092");
    settings.put("mongodb.uri", "mongodb://mongo:27017");
    settings.put(InputSettings.FORMAT, format);
    settings.put(InputSettings.SENSOR_ID_FIELD, "device_id");
    settings.put(InputSettings.TIME_FIELD, "time");
    settings.put(InputSettings.METRIC_FIELD, "");
    settings.put(InputSettings.VALUE_FIELDS, "temperature,humidity");
    return settings;
  }

  private static InputSettings input(final Map<String, Object> settings) {
    return new BucketerConfig(settings).input();
  }

  @Test
  void shouldNeedARegistryForFramedProtobufAndValidatedJsonSchemaOnly() {
    assertThatThrownBy(() -> input(required("protobuf")))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("schema.registry.url")
        .hasMessageContaining("unless input.protobuf.descriptor.file is set");
    assertThat(input(required("json-schema")).needsSchemaRegistry()).isFalse();
    final Map<String, Object> validated = required("json-schema");
    validated.put(InputSettings.JSON_SCHEMA_VALIDATE, true);
    assertThatThrownBy(() -> input(validated)).hasMessageContaining("schema.registry.url");
    validated.put(InputSettings.SCHEMA_REGISTRY_URL, "http://registry:8081");
    assertThat(input(validated).needsSchemaRegistry()).isTrue();
    assertThat(input(validated).formatOptions().validateJsonSchema()).isTrue();
  }

  @Test
  void shouldReadTheMessageOfADescriptorSetWithoutARegistry() throws Exception {
    final Map<String, Object> settings = required("protobuf");
    settings.put(InputSettings.PROTOBUF_DESCRIPTOR_FILE, descriptorSet().toString());
    settings.put(InputSettings.PROTOBUF_MESSAGE, "test.gateway.GatewayReading");

    final InputSettings input = input(settings);

    assertThat(input.format()).isEqualTo(InputFormat.PROTOBUF);
    assertThat(input.needsSchemaRegistry()).isFalse();
    assertThat(input.formatOptions().protobufMessage())
        .hasValueSatisfying(
            type -> assertThat(type.getFullName()).isEqualTo("test.gateway.GatewayReading"));
  }

  @Test
  void shouldStopTheStartForADescriptorSetThatCannotServeTheMapping() throws Exception {
    final Map<String, Object> settings = required("protobuf");
    settings.put(InputSettings.PROTOBUF_DESCRIPTOR_FILE, descriptorSet().toString());
    settings.put(InputSettings.PROTOBUF_MESSAGE, "test.gateway.Nothing");
    assertThatThrownBy(() -> input(settings))
        .hasMessageContaining("input.protobuf.descriptor.file")
        .hasMessageContaining("has no message test.gateway.Nothing")
        .hasMessageContaining("test.gateway.Batch.Sample");

    settings.put(InputSettings.PROTOBUF_MESSAGE, "test.gateway.Batch");
    assertThatThrownBy(() -> input(settings)).hasMessageContaining("no sensor id field device_id");

    settings.remove(InputSettings.PROTOBUF_MESSAGE);
    assertThatThrownBy(() -> input(settings)).hasMessageContaining("input.protobuf.message");

    final Path notASet = Files.writeString(folder.resolve("gateway.proto"), "syntax = \"proto3\";");
    settings.put(InputSettings.PROTOBUF_DESCRIPTOR_FILE, notASet.toString());
    settings.put(InputSettings.PROTOBUF_MESSAGE, "test.gateway.GatewayReading");
    assertThatThrownBy(() -> input(settings)).hasMessageContaining("is not a FileDescriptorSet");
  }

  @Test
  void shouldRefuseFormatSettingsOfAnotherFormat() throws Exception {
    final Map<String, Object> json = required("json");
    json.put(InputSettings.JSON_SCHEMA_VALIDATE, true);
    assertThatThrownBy(() -> input(json)).hasMessageContaining("only to input.format=json-schema");

    final Map<String, Object> framed = required("protobuf");
    framed.put(InputSettings.SCHEMA_REGISTRY_URL, "http://registry:8081");
    framed.put(InputSettings.PROTOBUF_MESSAGE, "test.gateway.GatewayReading");
    assertThatThrownBy(() -> input(framed))
        .hasMessageContaining("only with input.protobuf.descriptor.file");
  }

  private static Path descriptorSet() throws URISyntaxException {
    return Path.of(
        InputFormatSettingsTest.class
            .getResource("/io/bucketer/ingest/protobuf/gateway.desc")
            .toURI());
  }
}
