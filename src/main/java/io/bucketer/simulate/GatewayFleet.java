package io.bucketer.simulate;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.bucketer.avro.Reading;
import io.bucketer.config.InputSettings;
import io.bucketer.ingest.InputFormat;
import io.bucketer.ingest.ReadingEncoder;
import io.bucketer.ingest.SchemaRegistryClient;
import io.bucketer.ingest.senml.SenmlEncoding;
import io.bucketer.ingest.senml.SenmlPacks;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The records a fleet of gateways sends, in one of the shapes bucketer reads: its own {@code
 * Reading} or a multi-value gateway message ({@link GatewayMessage}), either as Avro framed for the
 * Schema Registry or as a JSON object.
 */
public final class GatewayFleet {

  /** What one record holds. */
  public enum Shape {
    /** bucketer's own {@code Reading}: one value, with its sensor id, time and metric. */
    READING,
    /** A gateway's own schema: one message per device and round, several values. */
    GATEWAY
  }

  /** How a record is written. */
  public enum Format {
    /** Avro binary after the Schema Registry's 5-byte header, as Confluent's serializer does. */
    AVRO("avro"),
    /** A UTF-8 JSON object, with ISO-8601 times, as MQTT bridges often publish. */
    JSON("json"),
    /** A SenML pack (RFC 8428) in JSON: the device as base name, each value's metric its unit. */
    SENML("senml"),
    /** The same SenML pack in CBOR, with the RFC's integer labels. */
    SENML_CBOR("senml-cbor"),
    /**
     * Confluent-framed Protobuf of the gateway's own .proto ({@code gateway-reading.proto}),
     * registered with the registry as Confluent's serializer does; gateway messages only.
     */
    PROTOBUF("protobuf"),
    /** Confluent-framed JSON of a registered JSON schema; gateway messages only. */
    JSON_SCHEMA("json-schema"),
    /**
     * Sparkplug B, as edge nodes publish it through an MQTT bridge: births first, then a DDATA per
     * message, keyed by its MQTT topic ({@link SparkplugFleet}); sensor ids {@code
     * group/edge/device}.
     */
    SPARKPLUG_B("sparkplug-b");

    private final String label;

    Format(final String label) {
      this.label = label;
    }

    /** Its name on the command line. */
    public String label() {
      return label;
    }

    /**
     * @throws IllegalArgumentException for a name that is no format
     */
    public static Format of(final String label) {
      for (final Format format : values()) {
        if (format.label.equals(label)) {
          return format;
        }
      }
      throw new IllegalArgumentException(
          "no format "
              + label
              + "; one of "
              + Arrays.stream(values()).map(Format::label).collect(Collectors.joining(", ")));
    }
  }

  private static final ObjectMapper JSON = new ObjectMapper();

  /** Edge nodes a simulated Sparkplug fleet's devices are spread over. */
  private static final int SPARKPLUG_EDGE_NODES = 100;

  private GatewayFleet() {}

  /** Whether records of {@code shape} can be written in {@code format}. */
  public static boolean writes(final Shape shape, final Format format) {
    return shape == Shape.GATEWAY || !(format == Format.PROTOBUF || format == Format.JSON_SCHEMA);
  }

  /** Whether {@code format} registers its writer schema with a schema registry. */
  public static boolean needsRegistry(final Format format) {
    return format == Format.AVRO || format == Format.PROTOBUF || format == Format.JSON_SCHEMA;
  }

  /**
   * The encoder of records of {@code shape} in {@code format}, keyed by sensor id; formats that
   * need a registry register their writer schema under {@code topic}'s subject.
   *
   * @param registry the schema registry; may be null for a format that needs none
   * @throws IllegalArgumentException for a shape the format cannot write ({@link #writes})
   */
  public static MessageEncoder encoder(
      final Shape shape,
      final Format format,
      final SchemaRegistryClient registry,
      final String topic) {
    if (!writes(shape, format)) {
      throw new IllegalArgumentException(
          format.label() + " writes a gateway's own message only, not bucketer's Reading");
    }
    if (needsRegistry(format) && registry == null) {
      throw new IllegalArgumentException(format.label() + " needs a schema registry");
    }
    return switch (format) {
      case SPARKPLUG_B -> new SparkplugFleet(SPARKPLUG_EDGE_NODES, shape == Shape.GATEWAY);
      case PROTOBUF -> GatewayMessage.protobufEncoder(registry, topic);
      case JSON_SCHEMA -> GatewayMessage.jsonSchemaEncoder(registry, topic);
      default ->
          MessageEncoder.keyedBySensor(
              valueEncoder(
                  shape, format, registry == null ? null : new ReadingEncoder(registry, topic)));
    };
  }

  private static Function<Reading, byte[]> valueEncoder(
      final Shape shape, final Format format, final ReadingEncoder avro) {
    final Function<Reading, List<Reading>> inRecord =
        shape == Shape.READING ? List::of : reading -> GatewayMessage.of(reading).readings();
    return switch (format) {
      case AVRO ->
          shape == Shape.READING
              ? avro::encode
              : reading -> avro.encode(GatewayMessage.of(reading).toAvro(), GatewayMessage.SCHEMA);
      case JSON ->
          shape == Shape.READING
              ? reading -> json(readingAsJson(reading))
              : reading -> json(gatewayAsJson(GatewayMessage.of(reading)));
      case SENML -> reading -> SenmlPacks.pack(inRecord.apply(reading), SenmlEncoding.JSON);
      case SENML_CBOR -> reading -> SenmlPacks.pack(inRecord.apply(reading), SenmlEncoding.CBOR);
      case PROTOBUF, JSON_SCHEMA, SPARKPLUG_B ->
          throw new IllegalStateException(format + " has an encoder of its own");
    };
  }

  /** The body of a gateway message as JSON: what json and json-schema gateways send. */
  static byte[] gatewayJson(final Reading reading) {
    return json(gatewayAsJson(GatewayMessage.of(reading)));
  }

  /**
   * The input settings that read records of {@code shape} in {@code format}, as a user would set
   * them for gateways of that kind: the format, and for a gateway's own schema the mapping of its
   * fields. Empty for bucketer's own Avro {@code Reading}: the defaults read it.
   */
  public static Map<String, String> inputSettings(final Shape shape, final Format format) {
    final Map<String, String> settings = new LinkedHashMap<>();
    switch (format) {
      case AVRO -> {} // the default
      case JSON -> settings.put(InputSettings.FORMAT, InputFormat.JSON.label());
      case PROTOBUF -> settings.put(InputSettings.FORMAT, InputFormat.PROTOBUF.label());
      case JSON_SCHEMA -> settings.put(InputSettings.FORMAT, InputFormat.JSON_SCHEMA.label());
      case SPARKPLUG_B -> {
        // Births name the metrics; the topic names the device: no field mapping.
        settings.putAll(SparkplugFleet.inputSettings());
        return settings;
      }
      case SENML, SENML_CBOR -> {
        // A pack names its sensor and metrics itself: no field mapping.
        settings.put(InputSettings.FORMAT, InputFormat.SENML.label());
        settings.put(
            InputSettings.SENML_ENCODING,
            (format == Format.SENML ? SenmlEncoding.JSON : SenmlEncoding.CBOR).label());
        return settings;
      }
    }
    if (shape == Shape.GATEWAY) {
      settings.put(InputSettings.SENSOR_ID_FIELD, GatewayMessage.DEVICE_ID_FIELD);
      settings.put(InputSettings.TIME_FIELD, GatewayMessage.TIME_FIELD);
      settings.put(InputSettings.METRIC_FIELD, "");
      settings.put(InputSettings.UTC_OFFSET_FIELD, "");
      settings.put(InputSettings.VALUE_FIELDS, String.join(",", GatewayMessage.VALUE_FIELDS));
    }
    return settings;
  }

  /** The readings bucketer must find in the record sent for {@code reading}. */
  public static List<Reading> readingsIn(final Shape shape, final Reading reading) {
    return shape == Shape.READING ? List.of(reading) : GatewayMessage.of(reading).readings();
  }

  private static ObjectNode readingAsJson(final Reading reading) {
    final ObjectNode node = JSON.createObjectNode();
    node.put("sensor_id", reading.getSensorId());
    node.put("timestamp", reading.getTimestamp().toString());
    node.put("value", reading.getValue());
    if (reading.getMetric() != null) {
      node.put("metric", reading.getMetric());
    }
    if (reading.getUtcOffsetMinutes() != null) {
      node.put("utc_offset_minutes", reading.getUtcOffsetMinutes());
    }
    return node;
  }

  private static ObjectNode gatewayAsJson(final GatewayMessage message) {
    final ObjectNode node = JSON.createObjectNode();
    node.put(GatewayMessage.DEVICE_ID_FIELD, message.deviceId());
    node.put(
        GatewayMessage.TIME_FIELD,
        java.time.Instant.ofEpochMilli(message.timestampMillis()).toString());
    node.put("temperature", message.temperature());
    node.put("humidity", message.humidity());
    node.put("battery", message.battery());
    return node;
  }

  private static byte[] json(final ObjectNode node) {
    try {
      return JSON.writeValueAsBytes(node);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new UncheckedIOException("cannot happen writing a tree of plain values", e);
    }
  }
}
