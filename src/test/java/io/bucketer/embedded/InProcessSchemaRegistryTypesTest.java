package io.bucketer.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.DynamicMessage;
import io.bucketer.avro.Reading;
import io.bucketer.ingest.InputRecord;
import io.bucketer.ingest.InvalidReadingException;
import io.bucketer.ingest.InvalidReadingException.Reason;
import io.bucketer.ingest.ReadingMapping;
import io.bucketer.ingest.SchemaRegistryClient;
import io.bucketer.ingest.SchemaRegistryException;
import io.bucketer.ingest.SchemaText;
import io.bucketer.ingest.protobuf.ProtobufDecoder;
import io.bucketer.ingest.protobuf.ProtobufEncoder;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The in-process registry keeps PROTOBUF and JSON schemas with their references and serves them as
 * Confluent's does, so that the registry client, the Protobuf encoder and the decoder meet through
 * it as they would through a real one.
 */
class InProcessSchemaRegistryTypesTest {

  private static final SchemaText UNITS =
      SchemaText.of(
          SchemaText.PROTOBUF,
          "syntax = \"proto3\"; package units; message Celsius { double value = 1; }");
  private static final SchemaText READING =
      new SchemaText(
          SchemaText.PROTOBUF,
          """
          syntax = "proto3";
          package gw;
          import "units.proto";
          import "google/protobuf/timestamp.proto";
          message Other { string x = 1; }
          message Reading {
            string id = 1;
            google.protobuf.Timestamp at = 2;
            units.Celsius temperature = 3;
          }
          """,
          List.of(new SchemaText.Reference("units.proto", "units-value", 1)));

  private final InProcessSchemaRegistry registry = InProcessSchemaRegistry.start();
  private final SchemaRegistryClient client = new SchemaRegistryClient(registry.url());

  @AfterEach
  void stopRegistry() {
    registry.close();
  }

  @Test
  void shouldServeAProtobufSchemaWithItsReferencesByIdAndByVersion() throws Exception {
    assertThat(client.register("units-value", UNITS)).isEqualTo(1);
    final int id = client.register("readings-value", READING);

    final SchemaRegistryClient fresh = new SchemaRegistryClient(registry.url());
    assertThat(fresh.schemaTextById(id)).isEqualTo(READING);
    assertThat(fresh.schemaTextByVersion("units-value", 1)).isEqualTo(UNITS);
    assertThat(get("/subjects/readings-value/versions/1"))
        .contains("\"schemaType\":\"PROTOBUF\"")
        .contains("\"references\":[{\"name\":\"units.proto\"");
    assertThatThrownBy(() -> fresh.schemaTextByVersion("units-value", 2))
        .isInstanceOfSatisfying(
            InvalidReadingException.class,
            e -> assertThat(e.reason()).isEqualTo(Reason.INCOMPATIBLE_SCHEMA));
  }

  @Test
  void shouldCarryReadingsFromTheEncoderToTheDecoderThroughTheRegistry() throws Exception {
    client.register("units-value", UNITS);
    final ProtobufEncoder encoder =
        ProtobufEncoder.register(client, "readings-value", READING, "gw.Reading");
    final DynamicMessage.Builder celsius =
        DynamicMessage.newBuilder(encoder.type().findFieldByName("temperature").getMessageType());
    celsius.setField(celsius.getDescriptorForType().findFieldByName("value"), 21.5);
    final DynamicMessage message =
        DynamicMessage.newBuilder(encoder.type())
            .setField(encoder.type().findFieldByName("id"), "gw-1")
            .setField(
                encoder.type().findFieldByName("at"),
                com.google.protobuf.Timestamp.newBuilder().setSeconds(1_748_768_400L).build())
            .setField(encoder.type().findFieldByName("temperature"), celsius.build())
            .build();

    final byte[] framed = encoder.encode(message);

    assertThat(framed[5]).as("Reading is the file's second message: [1]").isEqualTo((byte) 2);
    final ProtobufDecoder decoder =
        new ProtobufDecoder(
            new SchemaRegistryClient(registry.url()),
            new ReadingMapping(
                io.bucketer.ingest.FieldPath.parse("id"),
                io.bucketer.ingest.FieldPath.parse("at"),
                java.util.Optional.empty(),
                java.util.Optional.empty(),
                List.of(io.bucketer.ingest.FieldPath.parse("temperature.value"))));
    assertThat(decoder.readings(InputRecord.ofValue(framed)))
        .containsExactly(
            new Reading("gw-1", Instant.parse("2025-06-01T09:00:00Z"), 21.5, "value", null));
  }

  @Test
  void shouldSayBeforeAnyRecordWhetherTheLatestSchemaHasTheMappedFields() {
    client.register("units-value", UNITS);
    client.register("readings-value", READING);
    final SchemaRegistryClient.RegisteredText latest =
        client.latestSchemaText("readings-value").orElseThrow();

    assertThat(latest.version()).isEqualTo(1);
    assertThat(
            ProtobufDecoder.mismatch(
                latest.id(),
                latest.schema(),
                client,
                new ReadingMapping(
                    io.bucketer.ingest.FieldPath.parse("id"),
                    io.bucketer.ingest.FieldPath.parse("at"),
                    java.util.Optional.empty(),
                    java.util.Optional.empty(),
                    List.of(io.bucketer.ingest.FieldPath.parse("temperature.value")))))
        .as("gw.Reading has them, though gw.Other, the first message, has not")
        .isEmpty();
    assertThat(
            ProtobufDecoder.mismatch(
                latest.id(),
                latest.schema(),
                client,
                new ReadingMapping(
                    io.bucketer.ingest.FieldPath.parse("id"),
                    io.bucketer.ingest.FieldPath.parse("ts"),
                    java.util.Optional.empty(),
                    java.util.Optional.empty(),
                    List.of(io.bucketer.ingest.FieldPath.parse("temperature.value")))))
        .hasValueSatisfying(problem -> assertThat(problem).contains("missing-field"));
    assertThat(client.latestSchemaText("nothing-value")).isEmpty();
  }

  @Test
  void shouldRefuseASchemaWhoseReferenceIsNotRegisteredOrThatDoesNotParse() {
    assertThatThrownBy(() -> client.register("readings-value", READING))
        .isInstanceOf(SchemaRegistryException.class)
        .hasMessageContaining("422");
    assertThatThrownBy(
            () ->
                client.register(
                    "broken-value", SchemaText.of(SchemaText.PROTOBUF, "message M { double v }")))
        .isInstanceOf(SchemaRegistryException.class);
    assertThatThrownBy(
            () -> client.register("json-value", SchemaText.of(SchemaText.JSON, "{\"type\":")))
        .isInstanceOf(SchemaRegistryException.class);
  }

  @Test
  void shouldKeepAJsonSchemaAndAnswerAvroAsBefore() throws Exception {
    final SchemaText json = SchemaText.of(SchemaText.JSON, "{\"type\": \"object\"}");
    final int id = client.register("json-value", json);

    assertThat(new SchemaRegistryClient(registry.url()).schemaTextById(id)).isEqualTo(json);
    final int avro =
        client.register(
            "avro-value", org.apache.avro.Schema.create(org.apache.avro.Schema.Type.LONG));
    assertThat(get("/schemas/ids/" + avro)).isEqualTo("{\"schema\":\"\\\"long\\\"\"}");
  }

  private String get(final String path) throws Exception {
    return HttpClient.newHttpClient()
        .send(
            HttpRequest.newBuilder(URI.create(registry.url() + path)).build(),
            HttpResponse.BodyHandlers.ofString())
        .body();
  }
}
