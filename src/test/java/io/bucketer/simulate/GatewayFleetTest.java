package io.bucketer.simulate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.bucketer.avro.Reading;
import io.bucketer.config.BucketerConfig;
import io.bucketer.embedded.InProcessSchemaRegistry;
import io.bucketer.ingest.InputDecoder;
import io.bucketer.ingest.SchemaRegistryClient;
import io.bucketer.ingest.formats.InputDecoders;
import java.io.ByteArrayOutputStream;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class GatewayFleetTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Instant TIME = Instant.parse("2025-06-01T09:00:00.250Z");

  private static Reading reading(final String sensor, final String metric, final double value) {
    return Reading.newBuilder()
        .setSensorId(sensor)
        .setMetric(metric)
        .setTimestamp(TIME)
        .setValue(value)
        .setUtcOffsetMinutes(60)
        .build();
  }

  @Test
  void shouldCarryThreeReadingsInAGatewayMessageTheGeneratedValueAmongThem() {
    final List<Reading> temperature =
        GatewayFleet.readingsIn(
            GatewayFleet.Shape.GATEWAY, reading("sensor-0001", "temperature", 21.5));
    final List<Reading> humidity =
        GatewayFleet.readingsIn(
            GatewayFleet.Shape.GATEWAY, reading("sensor-0002", "humidity", 48.25));

    assertThat(temperature)
        .extracting(Reading::getMetric)
        .containsExactly("temperature", "humidity", "battery");
    assertThat(temperature).allSatisfy(r -> assertThat(r.getSensorId()).isEqualTo("sensor-0001"));
    assertThat(temperature).allSatisfy(r -> assertThat(r.getTimestamp()).isEqualTo(TIME));
    assertThat(temperature.get(0).getValue()).isEqualTo(21.5);
    assertThat(humidity.get(1).getValue()).isEqualTo(48.25);
    // a battery voltage a float holds exactly, so that Avro's float and JSON's text agree
    final double battery = temperature.get(2).getValue();
    assertThat((double) (float) battery).isEqualTo(battery);
    assertThat(battery).isBetween(3.5, 4.1);
    assertThat(GatewayFleet.readingsIn(GatewayFleet.Shape.READING, reading("s", null, 1.0)))
        .hasSize(1);
  }

  /**
   * What the simulator sends in each format, bucketer reads back, with the settings that {@link
   * GatewayFleet#inputSettings} says a user would set for it and the registry the simulator
   * registered its schemas with, as exactly the readings {@link GatewayFleet#readingsIn} says are
   * in it.
   */
  @ParameterizedTest
  // Sparkplug B needs its births' state, which only the topology keeps: SparkplugFleetTest and the
  // pipeline contract read it back.
  @EnumSource(
      value = GatewayFleet.Format.class,
      mode = EnumSource.Mode.EXCLUDE,
      names = "SPARKPLUG_B")
  void shouldBeReadBackByTheSettingsItNamesAsTheReadingsItCarries(final GatewayFleet.Format format)
      throws Exception {
    final Reading reading = reading("sensor-0005", "humidity", 44.5);
    try (InProcessSchemaRegistry registry = InProcessSchemaRegistry.start()) {
      final SchemaRegistryClient client = new SchemaRegistryClient(registry.url());
      for (final GatewayFleet.Shape shape : GatewayFleet.Shape.values()) {
        if (!GatewayFleet.writes(shape, format)) {
          continue;
        }
        final Map<String, Object> settings =
            new HashMap<>(
                Map.of(
                    "bootstrap.servers",
                    "localhost:9092",
                    "mongodb.uri",
                    "mongodb://localhost",
                    "schema.registry.url",
                    registry.url()));
        settings.putAll(GatewayFleet.inputSettings(shape, format));
        final BucketerConfig config = new BucketerConfig(settings);
        final InputDecoder decoder =
            InputDecoders.of(
                config.inputFormat(),
                config.readingMapping(),
                client,
                client,
                config.input().formatOptions());

        final List<Reading> read =
            decoder.readings(
                GatewayFleet.encoder(shape, format, client, "readings-" + shape).encode(reading));

        // SenML carries no UTC offset.
        assertThat(read)
            .as("%s in %s", shape, format)
            .usingRecursiveFieldByFieldElementComparatorIgnoringFields("utc_offset_minutes")
            .containsExactlyElementsOf(GatewayFleet.readingsIn(shape, reading));
      }
    }
  }

  @Test
  void shouldWriteAGatewayMessageInItsOwnAvroSchema() throws Exception {
    final GatewayMessage message = GatewayMessage.of(reading("sensor-0003", "temperature", 19.0));
    final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    final BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(bytes, null);
    new GenericDatumWriter<GenericRecord>(GatewayMessage.SCHEMA).write(message.toAvro(), encoder);
    encoder.flush();

    final GenericRecord read =
        new GenericDatumReader<GenericRecord>(GatewayMessage.SCHEMA)
            .read(null, DecoderFactory.get().binaryDecoder(bytes.toByteArray(), null));

    assertThat(read.get("deviceId").toString()).isEqualTo("sensor-0003");
    assertThat(read.get("ts")).isEqualTo(TIME.toEpochMilli());
    assertThat(read.get("temperature")).isEqualTo(19.0);
    assertThat(read.get("humidity")).isEqualTo(message.humidity());
    assertThat(read.get("battery")).isEqualTo(message.battery());
    assertThat(GatewayMessage.SCHEMA.getField("ts").schema().getLogicalType().getName())
        .isEqualTo("timestamp-millis");
  }

  @Test
  void shouldWriteJsonWithIsoTimesInEitherShape() throws Exception {
    final Reading reading = reading("sensor-0004", "temperature", 22.75);

    final JsonNode own =
        JSON.readTree(
            GatewayFleet.encoder(GatewayFleet.Shape.READING, GatewayFleet.Format.JSON, null, null)
                .encode(reading));
    final JsonNode gateway =
        JSON.readTree(
            GatewayFleet.encoder(GatewayFleet.Shape.GATEWAY, GatewayFleet.Format.JSON, null, null)
                .encode(reading));

    assertThat(own.get("sensor_id").asText()).isEqualTo("sensor-0004");
    assertThat(Instant.parse(own.get("timestamp").asText())).isEqualTo(TIME);
    assertThat(own.get("value").asDouble()).isEqualTo(22.75);
    assertThat(own.get("metric").asText()).isEqualTo("temperature");
    assertThat(own.get("utc_offset_minutes").asInt()).isEqualTo(60);
    assertThat(gateway.get("deviceId").asText()).isEqualTo("sensor-0004");
    assertThat(Instant.parse(gateway.get("ts").asText())).isEqualTo(TIME);
    final List<Reading> expected = GatewayFleet.readingsIn(GatewayFleet.Shape.GATEWAY, reading);
    assertThat(List.of("temperature", "humidity", "battery"))
        .allSatisfy(
            field ->
                assertThat(gateway.get(field).asDouble())
                    .isEqualTo(
                        expected.stream()
                            .filter(r -> r.getMetric().equals(field))
                            .findFirst()
                            .orElseThrow()
                            .getValue()));
  }
}
