package io.bucketer.simulate;

import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.DynamicMessage;
import com.google.protobuf.Timestamp;
import io.bucketer.avro.Reading;
import io.bucketer.ingest.ConfluentWireFormat;
import io.bucketer.ingest.SchemaRegistryClient;
import io.bucketer.ingest.SchemaText;
import io.bucketer.ingest.protobuf.ProtobufEncoder;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;

/**
 * What a multi-value gateway sends: one message per device and round with its temperature, humidity
 * and battery voltage, in a schema of its own ({@code gateway-reading.avsc}: {@code deviceId},
 * {@code ts}, {@code temperature}, {@code humidity}, {@code battery}). The simulator derives one
 * from each generated reading, deterministically, so a test or the demo knows which readings
 * bucketer must find in it ({@link #readings}).
 */
public record GatewayMessage(
    String deviceId, long timestampMillis, double temperature, double humidity, float battery) {

  /** The gateway schema, as the simulator registers it. */
  public static final Schema SCHEMA = loadSchema();

  /**
   * The same message in Protobuf (schemas/gateway-reading.proto), as the simulator registers it.
   */
  public static final SchemaText PROTO_SCHEMA =
      SchemaText.of(SchemaText.PROTOBUF, loadText("gateway-reading.proto"));

  /** The full name of its message type. */
  public static final String PROTO_MESSAGE = "io.bucketer.gateway.GatewayReading";

  /** Its JSON schema (schemas/gateway-reading.schema.json), for input.format=json-schema. */
  public static final SchemaText JSON_SCHEMA =
      SchemaText.of(SchemaText.JSON, loadText("gateway-reading.schema.json"));

  /** Its fields, by role: what a reading mapping for it names. */
  public static final String DEVICE_ID_FIELD = "deviceId";

  public static final String TIME_FIELD = "ts";
  public static final List<String> VALUE_FIELDS = List.of("temperature", "humidity", "battery");

  /**
   * The message of the round {@code reading} belongs to: its value is the device's temperature or
   * humidity, as its metric says, and the other values follow from it.
   */
  public static GatewayMessage of(final Reading reading) {
    final boolean humidity = "humidity".equals(reading.getMetric());
    final double value = reading.getValue();
    final int device = Math.floorMod(reading.getSensorId().hashCode(), 10);
    return new GatewayMessage(
        reading.getSensorId(),
        reading.getTimestamp().toEpochMilli(),
        humidity ? hundredths(15 + value / 3) : value,
        humidity ? value : hundredths(60 - value),
        // Sixteenths: exact in a float, so its JSON text and its Avro float read back equal.
        3.5f + device / 16f);
  }

  /**
   * The readings bucketer reads from this message when mapped by field name: one per value, the
   * metric being the field's name, the battery's float widened to a double as Avro and JSON readers
   * do.
   */
  public List<Reading> readings() {
    return List.of(
        reading("temperature", temperature),
        reading("humidity", humidity),
        reading("battery", battery));
  }

  /** The message as an Avro record of {@link #SCHEMA}. */
  public GenericRecord toAvro() {
    final GenericRecord record = new GenericData.Record(SCHEMA);
    record.put(DEVICE_ID_FIELD, deviceId);
    record.put(TIME_FIELD, timestampMillis);
    record.put("temperature", temperature);
    record.put("humidity", humidity);
    record.put("battery", battery);
    return record;
  }

  /** The message as a Protobuf message of {@code type}, {@link #PROTO_MESSAGE}'s descriptor. */
  public DynamicMessage toProtobuf(final Descriptor type) {
    final Instant at = Instant.ofEpochMilli(timestampMillis);
    return DynamicMessage.newBuilder(type)
        .setField(type.findFieldByName(DEVICE_ID_FIELD), deviceId)
        .setField(
            type.findFieldByName(TIME_FIELD),
            Timestamp.newBuilder().setSeconds(at.getEpochSecond()).setNanos(at.getNano()).build())
        .setField(type.findFieldByName("temperature"), temperature)
        .setField(type.findFieldByName("humidity"), humidity)
        .setField(type.findFieldByName("battery"), battery)
        .build();
  }

  /**
   * Gateways that send Confluent-framed Protobuf of {@link #PROTO_SCHEMA}, registered under {@code
   * <topic>-value}, keyed by sensor id.
   */
  public static MessageEncoder protobufEncoder(
      final SchemaRegistryClient registry, final String topic) {
    final ProtobufEncoder encoder =
        ProtobufEncoder.register(registry, topic + "-value", PROTO_SCHEMA, PROTO_MESSAGE);
    return MessageEncoder.keyedBySensor(
        reading -> encoder.encode(of(reading).toProtobuf(encoder.type())));
  }

  /**
   * Gateways that send Confluent-framed JSON (input.format=json-schema) of {@link #JSON_SCHEMA},
   * registered under {@code <topic>-value}, keyed by sensor id: the body is what input.format=json
   * gateways send.
   */
  public static MessageEncoder jsonSchemaEncoder(
      final SchemaRegistryClient registry, final String topic) {
    final int id = registry.register(topic + "-value", JSON_SCHEMA);
    return MessageEncoder.keyedBySensor(
        reading -> ConfluentWireFormat.frame(id, GatewayFleet.gatewayJson(reading)));
  }

  private Reading reading(final String metric, final double value) {
    return Reading.newBuilder()
        .setSensorId(deviceId)
        .setMetric(metric)
        .setTimestamp(Instant.ofEpochMilli(timestampMillis))
        .setValue(value)
        .build();
  }

  private static double hundredths(final double value) {
    return Math.round(value * 100) / 100.0;
  }

  private static String loadText(final String resource) {
    try (InputStream in = GatewayMessage.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException(resource + " is missing from the class path");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Schema loadSchema() {
    try (InputStream in = GatewayMessage.class.getResourceAsStream("gateway-reading.avsc")) {
      if (in == null) {
        throw new IllegalStateException("gateway-reading.avsc is missing from the class path");
      }
      return new Schema.Parser().parse(in);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
