package io.bucketer.ingest;

import com.google.protobuf.Descriptors.Descriptor;
import io.bucketer.avro.Reading;
import io.bucketer.ingest.protobuf.ProtoSchemaCompiler;
import io.bucketer.ingest.protobuf.ProtobufEncoder;
import io.bucketer.ingest.senml.SenmlEncoding;
import io.bucketer.ingest.senml.SenmlPacks;
import io.bucketer.simulate.GatewayFleet;
import io.bucketer.simulate.GatewayFleet.Format;
import io.bucketer.simulate.GatewayFleet.Shape;
import io.bucketer.simulate.GatewayMessage;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The records the decoder benchmarks read: what the simulator and the demo send for one reading
 * (sensor-0042's temperature, its UTC offset set, as three of four simulated sensors have it), made
 * by the simulator's own encoders, and the mapping the demo configures for its gateway messages.
 * Benchmarking the product's real inputs, rather than hand-written ones, keeps the field order, the
 * number formatting and the time format what a deployment sees from these sources.
 */
final class SimulatorRecords {

  /** As {@code DemoCommand} sets it for --schema gateway: no metric field, three value fields. */
  static final ReadingMapping GATEWAY_MAPPING =
      new ReadingMapping(
          FieldPath.parse(GatewayMessage.DEVICE_ID_FIELD),
          FieldPath.parse(GatewayMessage.TIME_FIELD),
          Optional.empty(),
          Optional.empty(),
          GatewayMessage.VALUE_FIELDS.stream().map(FieldPath::parse).toList());

  static final Reading READING =
      new Reading("sensor-0042", Instant.parse("2025-06-01T10:00:00Z"), 21.37, "temperature", 60);

  private SimulatorRecords() {}

  /**
   * {@code {"sensor_id":"sensor-0042","timestamp":"2025-06-01T10:00:00Z","value":21.37,
   * "metric":"temperature","utc_offset_minutes":60}}.
   */
  static byte[] readingAsJson() {
    return json(Shape.READING);
  }

  /**
   * {@code {"deviceId":"sensor-0042","ts":"2025-06-01T10:00:00Z","temperature":21.37,
   * "humidity":38.63,"battery":3.9375}}.
   */
  static byte[] gatewayAsJson() {
    return json(Shape.GATEWAY);
  }

  /** The gateway message in the simulator's gateway schema, framed under {@code schemaId}. */
  static byte[] gatewayAsAvro(final int schemaId) throws IOException {
    return ConfluentWireFormat.frame(
        schemaId, WriterSchemas.body(GatewayMessage.of(READING).toAvro()));
  }

  /**
   * The gateway message's three values (temperature, humidity, battery) as one SenML pack, written
   * by {@link SenmlPacks} as the simulator writes packs: base name sensor-0042, base time, and each
   * record's metric as its unit.
   */
  static byte[] gatewayAsSenml(final SenmlEncoding encoding) {
    return SenmlPacks.pack(GatewayMessage.of(READING).readings(), encoding);
  }

  /**
   * A gateway that batches a minute of sensor-0042's temperature at 1 Hz into one pack: 60 readings
   * from {@link #READING} on, the value moving by hundredths, so that the times are offsets from
   * the base time and the unit is the base unit.
   */
  static byte[] minuteAsSenml(final SenmlEncoding encoding) {
    final List<Reading> minute = new ArrayList<>(60);
    for (int second = 0; second < 60; second++) {
      minute.add(
          new Reading(
              READING.getSensorId(),
              READING.getTimestamp().plusSeconds(second),
              Math.round(READING.getValue() * 100 + second % 7) / 100d,
              READING.getMetric(),
              null));
    }
    return SenmlPacks.pack(minute, encoding);
  }

  /**
   * The gateway message in the simulator's gateway .proto, framed under {@code schemaId} with its
   * message indexes, as the simulator's Protobuf encoder writes it.
   */
  static byte[] gatewayAsProtobuf(final int schemaId) throws InvalidReadingException {
    final Descriptor type = gatewayProtobufType();
    return new ProtobufEncoder(schemaId, type).encode(GatewayMessage.of(READING).toProtobuf(type));
  }

  /** The gateway's Protobuf message type, compiled from its .proto as the decoder compiles it. */
  static Descriptor gatewayProtobufType() throws InvalidReadingException {
    return ProtoSchemaCompiler.compile(
            "the gateway schema",
            "gateway-reading.proto",
            Map.of("gateway-reading.proto", GatewayMessage.PROTO_SCHEMA.text()))
        .getMessageTypes()
        .get(0);
  }

  private static byte[] json(final Shape shape) {
    // JSON needs no registry, so no Avro encoder is given.
    return GatewayFleet.encoder(shape, Format.JSON, null, null).encode(READING);
  }
}
