package io.bucketer.pipeline;

import static java.nio.charset.StandardCharsets.UTF_8;

import io.bucketer.ingest.ConfluentWireFormat;
import io.bucketer.ingest.InvalidReadingException.Reason;
import io.bucketer.pipeline.FormatCase.BadRecord;
import io.bucketer.pipeline.FormatCase.OutgoingRecord;
import io.bucketer.pipeline.FormatCase.Registry;
import io.bucketer.topology.ReadingChecks;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;

/** The input formats the pipeline contract runs with, each with its ways of being wrong. */
final class FormatCases {

  /** A message like the generated ones, to spoil. */
  private static final GatewayMessages.Message SAMPLE =
      new GatewayMessages.Message(
          "gw-01", java.time.Instant.parse("2025-06-01T09:03:00Z"), 20.0, 40f, 90);

  private FormatCases() {}

  static Stream<FormatCase> all() {
    return Stream.of(new Avro(), new Json(), new JsonKeyedEveryNumber());
  }

  /** A gateway's own Avro schema, registry-framed. */
  static final class Avro implements FormatCase {
    private static final Schema NO_DEVICE =
        SchemaBuilder.record("Anonymous").fields().requiredLong("ts").endRecord();

    @Override
    public Map<String, String> settings() {
      return with(GatewayMessages.MAPPING, "input.format", "avro");
    }

    @Override
    public OutgoingRecord record(final GatewayMessages.Message message, final Registry registry) {
      return OutgoingRecord.value(registry.avro().encode(message.avro(), GatewayMessages.SCHEMA));
    }

    @Override
    public List<BadRecord> badRecords(final Registry registry) {
      final byte[] good = registry.avro().encode(SAMPLE.avro(), GatewayMessages.SCHEMA);
      final GenericRecord noDevice = new GenericData.Record(NO_DEVICE);
      noDevice.put("ts", 0L);
      final GatewayMessages.Message nan =
          new GatewayMessages.Message(SAMPLE.device(), SAMPLE.time(), Double.NaN, 40f, 90);
      return List.of(
          bad("no registry framing".getBytes(UTF_8), Reason.NOT_WIRE_FORMAT),
          bad(ConfluentWireFormat.frame(987_654, new byte[] {2}), Reason.UNKNOWN_SCHEMA_ID),
          bad(Arrays.copyOf(good, good.length - 3), Reason.MALFORMED_AVRO),
          bad(registry.avro().encode(noDevice, NO_DEVICE), Reason.MISSING_FIELD),
          new BadRecord(
              OutgoingRecord.value(registry.avro().encode(nan.avro(), GatewayMessages.SCHEMA)),
              ReadingChecks.INVALID_VALUE));
    }

    @Override
    public String toString() {
      return "avro";
    }
  }

  /** The same messages as JSON objects, no registry. */
  static final class Json implements FormatCase {
    @Override
    public Map<String, String> settings() {
      return with(GatewayMessages.MAPPING, "input.format", "json");
    }

    @Override
    public OutgoingRecord record(final GatewayMessages.Message message, final Registry registry) {
      return OutgoingRecord.value(message.json().getBytes(UTF_8));
    }

    @Override
    public List<BadRecord> badRecords(final Registry registry) {
      return List.of(
          bad("temperature=21.5", Reason.MALFORMED_JSON),
          bad("{\"ts\": 1748768400000, \"temperature\": 20}", Reason.MISSING_FIELD),
          bad(
              "{\"deviceId\": \"gw-01\", \"ts\": \"noon\", \"temperature\": 20}",
              Reason.NOT_A_TIME),
          bad(
              "{\"deviceId\": \"gw-01\", \"ts\": 1748768400000, \"temperature\": \"warm\"}",
              Reason.NOT_A_NUMBER),
          bad("{\"deviceId\": \"gw-01\", \"ts\": 1748768400000}", Reason.NO_VALUES));
    }

    @Override
    public String toString() {
      return "json";
    }
  }

  /**
   * A bridge that keys each record by the device's topic ({@code site-a/gw-07}) and leaves it out
   * of the payload: input.sensor.id.from=key with a prefix, and every number a value.
   */
  static final class JsonKeyedEveryNumber implements FormatCase {
    @Override
    public Map<String, String> settings() {
      final Map<String, String> settings = new HashMap<>(GatewayMessages.MAPPING);
      settings.put("input.format", "json");
      settings.put("input.sensor.id.from", "key");
      settings.put("input.sensor.id.prefix", "site-a/");
      settings.put("input.value.fields", "*");
      return settings;
    }

    @Override
    public OutgoingRecord record(final GatewayMessages.Message message, final Registry registry) {
      final String payload = message.json().replaceFirst("\"deviceId\": \"[^\"]*\", ", "");
      return new OutgoingRecord(
          ("site-a/" + message.device()).getBytes(UTF_8), payload.getBytes(UTF_8), Map.of());
    }

    @Override
    public List<BadRecord> badRecords(final Registry registry) {
      final byte[] payload = "{\"ts\": 1748768400000, \"temperature\": 20}".getBytes(UTF_8);
      return List.of(
          new BadRecord(OutgoingRecord.value(payload), Reason.NO_SENSOR_ID.label()),
          new BadRecord(
              new OutgoingRecord("site-b/gw-01".getBytes(UTF_8), payload, Map.of()),
              Reason.NO_SENSOR_ID.label()),
          new BadRecord(
              new OutgoingRecord(
                  "site-a/gw-01".getBytes(UTF_8),
                  "{\"ts\": 1748768400000, \"online\": true}".getBytes(UTF_8),
                  Map.of()),
              Reason.NO_VALUES.label()));
    }

    @Override
    public String toString() {
      return "json, sensor id from the key, every number a value";
    }
  }

  private static BadRecord bad(final byte[] value, final Reason reason) {
    return new BadRecord(OutgoingRecord.value(value), reason.label());
  }

  private static BadRecord bad(final String json, final Reason reason) {
    return bad(json.getBytes(UTF_8), reason);
  }

  private static Map<String, String> with(
      final Map<String, String> settings, final String name, final String value) {
    final Map<String, String> all = new HashMap<>(settings);
    all.put(name, value);
    return all;
  }
}
