package io.bucketer.pipeline;

import static java.nio.charset.StandardCharsets.UTF_8;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.cbor.CBORFactory;
import com.fasterxml.jackson.dataformat.cbor.CBORGenerator;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.DynamicMessage;
import com.google.protobuf.Timestamp;
import io.bucketer.avro.Reading;
import io.bucketer.ingest.ConfluentWireFormat;
import io.bucketer.ingest.InvalidReadingException.Reason;
import io.bucketer.ingest.SchemaText;
import io.bucketer.ingest.protobuf.ProtobufEncoder;
import io.bucketer.ingest.senml.SenmlEncoding;
import io.bucketer.ingest.senml.SenmlPacks;
import io.bucketer.ingest.sparkplug.SparkplugDataType;
import io.bucketer.ingest.sparkplug.SparkplugMessages;
import io.bucketer.pipeline.FormatCase.BadRecord;
import io.bucketer.pipeline.FormatCase.OutgoingRecord;
import io.bucketer.pipeline.FormatCase.Registry;
import io.bucketer.simulate.GatewayMessage;
import io.bucketer.topology.ReadingChecks;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
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
    return Stream.of(
        new Avro(),
        new Json(),
        new JsonKeyedEveryNumber(),
        new Senml(SenmlEncoding.JSON),
        new Senml(SenmlEncoding.CBOR),
        new Protobuf(),
        new JsonSchema(),
        new Sparkplug());
  }

  /** The gateway's .proto (schemas/gateway-reading.proto), registry-framed. */
  static final class Protobuf implements FormatCase {
    @Override
    public Map<String, String> settings() {
      return with(GatewayMessages.MAPPING, "input.format", "protobuf");
    }

    @Override
    public OutgoingRecord record(final GatewayMessages.Message message, final Registry registry) {
      final ProtobufEncoder encoder = encoder(registry);
      final Descriptor type = encoder.type();
      final DynamicMessage.Builder built =
          DynamicMessage.newBuilder(type)
              .setField(type.findFieldByName("deviceId"), message.device())
              .setField(
                  type.findFieldByName("ts"),
                  Timestamp.newBuilder()
                      .setSeconds(message.time().getEpochSecond())
                      .setNanos(message.time().getNano())
                      .build())
              .setField(type.findFieldByName("temperature"), message.temperature());
      if (message.humidity() != null) {
        built.setField(type.findFieldByName("humidity"), (double) message.humidity());
      }
      if (message.battery() != null) {
        built.setField(type.findFieldByName("battery"), (float) (int) message.battery());
      }
      return OutgoingRecord.value(encoder.encode(built.build()));
    }

    @Override
    public List<BadRecord> badRecords(final Registry registry) {
      final ProtobufEncoder encoder = encoder(registry);
      final byte[] good = record(SAMPLE, registry).value();
      final Descriptor type = encoder.type();
      final byte[] noDevice =
          encoder.encode(
              DynamicMessage.newBuilder(type)
                  .setField(
                      type.findFieldByName("ts"), Timestamp.newBuilder().setSeconds(1).build())
                  .setField(type.findFieldByName("temperature"), 20.0)
                  .build());
      // Message indexes [5]: a count of 1 and index 5, zigzag varints, where [0] is one 0 byte.
      final byte[] indexFive = new byte[good.length + 1];
      System.arraycopy(good, 0, indexFive, 0, 5);
      indexFive[5] = 2;
      indexFive[6] = 10;
      System.arraycopy(good, 6, indexFive, 7, good.length - 6);
      return List.of(
          bad("not framed".getBytes(UTF_8), Reason.NOT_WIRE_FORMAT),
          bad(ConfluentWireFormat.frame(987_655, new byte[] {0, 8}), Reason.UNKNOWN_SCHEMA_ID),
          bad(Arrays.copyOf(good, good.length - 4), Reason.MALFORMED_PROTOBUF),
          bad(indexFive, Reason.UNKNOWN_MESSAGE_INDEX),
          bad(noDevice, Reason.MISSING_FIELD));
    }

    private final Map<Registry, ProtobufEncoder> encoders = new HashMap<>();

    /** Registered once per run: the registry answers with the same id anyway. */
    private ProtobufEncoder encoder(final Registry registry) {
      return encoders.computeIfAbsent(
          registry,
          r ->
              ProtobufEncoder.register(
                  r.client(),
                  r.subject(),
                  GatewayMessage.PROTO_SCHEMA,
                  GatewayMessage.PROTO_MESSAGE));
    }

    @Override
    public String toString() {
      return "protobuf";
    }
  }

  /**
   * The JSON messages, registry-framed under a JSON schema they follow, validated against it
   * (input.json.schema.validate=true).
   */
  static final class JsonSchema implements FormatCase {
    private static final SchemaText SCHEMA =
        SchemaText.of(
            SchemaText.JSON,
            """
            {"type": "object", "required": ["deviceId", "ts"], "properties": {
              "deviceId": {"type": "string"}, "ts": {"type": ["string", "integer"]},
              "temperature": {"type": "number"}, "humidity": {"type": "number"},
              "battery": {"type": ["number", "null"]}}}""");

    @Override
    public Map<String, String> settings() {
      final Map<String, String> settings =
          with(GatewayMessages.MAPPING, "input.format", "json-schema");
      settings.put("input.json.schema.validate", "true");
      return settings;
    }

    @Override
    public OutgoingRecord record(final GatewayMessages.Message message, final Registry registry) {
      return OutgoingRecord.value(framed(registry, message.json()));
    }

    @Override
    public List<BadRecord> badRecords(final Registry registry) {
      return List.of(
          bad(SAMPLE.json().getBytes(UTF_8), Reason.NOT_WIRE_FORMAT),
          bad(ConfluentWireFormat.frame(987_656, "{}".getBytes(UTF_8)), Reason.UNKNOWN_SCHEMA_ID),
          bad(framed(registry, "{\"deviceId\": "), Reason.MALFORMED_JSON),
          bad(
              framed(registry, "{\"deviceId\": 7, \"ts\": 1748768400000, \"temperature\": 1}"),
              Reason.SCHEMA_VIOLATION));
    }

    private final Map<Registry, Integer> ids = new HashMap<>();

    private byte[] framed(final Registry registry, final String json) {
      final int id = ids.computeIfAbsent(registry, r -> r.client().register(r.subject(), SCHEMA));
      return ConfluentWireFormat.frame(id, json.getBytes(UTF_8));
    }

    @Override
    public String toString() {
      return "json-schema, validated";
    }
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

  /**
   * Each message as one SenML pack, as {@link SenmlPacks} writes them for the simulator: the device
   * as base name, each value's field name as its unit, read with input.senml.metric=unit so that
   * the series are the same as the mapped formats'.
   */
  static final class Senml implements FormatCase {
    private final SenmlEncoding encoding;

    Senml(final SenmlEncoding encoding) {
      this.encoding = encoding;
    }

    @Override
    public Map<String, String> settings() {
      return Map.of(
          "input.format", "senml",
          "input.senml.encoding", encoding.label(),
          "input.senml.metric", "unit");
    }

    @Override
    public OutgoingRecord record(final GatewayMessages.Message message, final Registry registry) {
      return OutgoingRecord.value(SenmlPacks.pack(message.readings(), encoding));
    }

    @Override
    public List<BadRecord> badRecords(final Registry registry) {
      final String bt = "\"bt\":1748768400";
      return List.of(
          // {} in JSON; in CBOR, a text string whose length never comes.
          new BadRecord(OutgoingRecord.value("{}".getBytes(UTF_8)), Reason.MALFORMED_SENML.label()),
          senml(
              "[{\"bn\":\"gw-01\"," + bt + ",\"u\":\"temperature\",\"v\":\"20\"}]",
              Reason.MALFORMED_SENML),
          senml(
              "[{\"bn\":\"gw-01\",\"bver\":11," + bt + ",\"u\":\"temperature\",\"v\":20}]",
              Reason.UNSUPPORTED_SENML_VERSION),
          senml("[{" + bt + ",\"u\":\"temperature\",\"v\":20}]", Reason.SENML_NO_NAME),
          senml(
              "[{\"bn\":\"gw 01\"," + bt + ",\"u\":\"temperature\",\"v\":20}]",
              Reason.SENML_INVALID_NAME),
          senml(
              "[{\"bn\":\"gw-01\"," + bt + ",\"u\":\"temperature\",\"v\":20,\"calib_\":2}]",
              Reason.SENML_MUST_UNDERSTAND),
          senml("[{\"bn\":\"gw-01\"," + bt + ",\"u\":\"temperature\"}]", Reason.NO_VALUES));
    }

    private BadRecord senml(final String jsonPack, final Reason reason) {
      final byte[] pack =
          encoding == SenmlEncoding.CBOR ? cbor(jsonPack) : jsonPack.getBytes(UTF_8);
      return new BadRecord(OutgoingRecord.value(pack), reason.label());
    }

    /** The pack in CBOR with the RFC's integer labels, through a JSON tree. */
    private static byte[] cbor(final String jsonPack) {
      try {
        final JsonNode tree = new ObjectMapper().readTree(jsonPack);
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (CBORGenerator cbor = new CBORFactory().createGenerator(bytes)) {
          cbor.writeStartArray();
          for (final JsonNode record : tree) {
            cbor.writeStartObject();
            for (final Map.Entry<String, JsonNode> field : record.properties()) {
              final Integer label = CBOR_LABELS.get(field.getKey());
              if (label == null) {
                cbor.writeFieldName(field.getKey());
              } else {
                cbor.writeFieldId(label);
              }
              final JsonNode value = field.getValue();
              if (value.isTextual()) {
                cbor.writeString(value.textValue());
              } else if (value.isIntegralNumber()) {
                cbor.writeNumber(value.longValue());
              } else {
                cbor.writeNumber(value.doubleValue());
              }
            }
            cbor.writeEndObject();
          }
          cbor.writeEndArray();
        }
        return bytes.toByteArray();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    private static final Map<String, Integer> CBOR_LABELS =
        Map.of("bver", -1, "bn", -2, "bt", -3, "n", 0, "u", 1, "v", 2);

    @Override
    public String toString() {
      return "senml, " + encoding.label();
    }
  }

  /**
   * The gateways as the devices of one Sparkplug B edge node, {@code plant/edge}, each message a
   * DDATA of its values by alias after the node's and the devices' births. The bridge keys every
   * record by the edge node, so that births and data keep their order on one partition, and puts
   * the MQTT topic in a header.
   */
  static final class Sparkplug implements FormatCase {
    private static final String HEADER = "mqtt_topic";
    private static final byte[] KEY = "plant/edge".getBytes(UTF_8);
    private static final int DEVICES = 4;

    private final SparkplugMessages.EdgeNode node =
        new SparkplugMessages.EdgeNode(
            "plant",
            "edge",
            List.of(
                new SparkplugMessages.Metric("temperature", SparkplugDataType.DOUBLE),
                new SparkplugMessages.Metric("humidity", SparkplugDataType.FLOAT),
                new SparkplugMessages.Metric("battery", SparkplugDataType.INT32)));
    private final List<OutgoingRecord> births = new ArrayList<>();

    Sparkplug() {
      final long born = SAMPLE.time().minusSeconds(3600).toEpochMilli();
      births.add(record(node.nbirth(born, 0, 0, 0)));
      for (int device = 0; device < DEVICES; device++) {
        births.add(record(node.dbirth(String.format("gw-%02d", device), born, 0, 0, 0)));
      }
    }

    @Override
    public Map<String, String> settings() {
      return Map.of(
          "input.format", "sparkplug-b", "input.sparkplug.topic.from", "header:" + HEADER);
    }

    @Override
    public List<OutgoingRecord> preamble(final Registry registry) {
      return births;
    }

    @Override
    public OutgoingRecord record(final GatewayMessages.Message message, final Registry registry) {
      final Map<String, Double> values = new LinkedHashMap<>();
      values.put("temperature", message.temperature());
      if (message.humidity() != null) {
        values.put("humidity", (double) message.humidity());
      }
      if (message.battery() != null) {
        values.put("battery", (double) message.battery());
      }
      return record(node.ddata(message.device(), message.time().toEpochMilli(), values));
    }

    @Override
    public Reading asRead(final Reading reading) {
      return new Reading(
          "plant/edge/" + reading.getSensorId(),
          reading.getTimestamp(),
          reading.getValue(),
          reading.getMetric(),
          reading.getUtcOffsetMinutes());
    }

    @Override
    public List<BadRecord> badRecords(final Registry registry) {
      final String device = SAMPLE.device();
      final long time = SAMPLE.time().toEpochMilli();
      final byte[] data = node.ddata(device, time, Map.of("temperature", 20.0)).payload();
      final String topic = "spBv1.0/plant/DDATA/edge/" + device;
      return List.of(
          new BadRecord(new OutgoingRecord(KEY, data, Map.of()), Reason.SPARKPLUG_NO_TOPIC.label()),
          sparkplug("spBv1.0/plant/DDATA/edge", data, Reason.SPARKPLUG_BAD_TOPIC),
          sparkplug(
              "spBv1.0/plant/DRECORD/edge/" + device, data, Reason.SPARKPLUG_UNKNOWN_MESSAGE_TYPE),
          sparkplug(topic, new byte[] {(byte) 0xff, 0x01}, Reason.SPARKPLUG_MALFORMED_PAYLOAD),
          sparkplug(
              topic,
              SparkplugMessages.payload()
                  .timestamp(time)
                  .metric(m -> m.alias(999).doubleValue(20))
                  .toByteArray(),
              Reason.UNKNOWN_ALIAS),
          sparkplug(
              topic,
              SparkplugMessages.payload()
                  .timestamp(time)
                  .metric(m -> m.alias(node.aliasOf(device, "temperature")).stringValue("warm"))
                  .toByteArray(),
              Reason.SPARKPLUG_VALUE_TYPE_MISMATCH),
          new BadRecord(
              record(node.ddata(device, time, Map.of("temperature", Double.NaN))),
              ReadingChecks.INVALID_VALUE));
    }

    private static OutgoingRecord record(final SparkplugMessages.Message message) {
      return new OutgoingRecord(
          KEY, message.payload(), Map.of(HEADER, message.topic().getBytes(UTF_8)));
    }

    private static BadRecord sparkplug(
        final String topic, final byte[] payload, final Reason reason) {
      return new BadRecord(
          new OutgoingRecord(KEY, payload, Map.of(HEADER, topic.getBytes(UTF_8))), reason.label());
    }

    @Override
    public String toString() {
      return "sparkplug-b";
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
