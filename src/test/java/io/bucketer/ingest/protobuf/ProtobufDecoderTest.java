package io.bucketer.ingest.protobuf;

import static io.bucketer.ingest.protobuf.TestSchemas.BATCH;
import static io.bucketer.ingest.protobuf.TestSchemas.GATEWAY_ID;
import static io.bucketer.ingest.protobuf.TestSchemas.GATEWAY_READING;
import static io.bucketer.ingest.protobuf.TestSchemas.MEASUREMENT;
import static io.bucketer.ingest.protobuf.TestSchemas.META;
import static io.bucketer.ingest.protobuf.TestSchemas.SAMPLE;
import static io.bucketer.ingest.protobuf.TestSchemas.STATUS;
import static io.bucketer.ingest.protobuf.TestSchemas.framed;
import static io.bucketer.ingest.protobuf.TestSchemas.mapping;
import static io.bucketer.ingest.protobuf.TestSchemas.message;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.DoubleValue;
import com.google.protobuf.FloatValue;
import com.google.protobuf.Int32Value;
import com.google.protobuf.Timestamp;
import io.bucketer.avro.Reading;
import io.bucketer.ingest.FieldPath;
import io.bucketer.ingest.InputRecord;
import io.bucketer.ingest.InvalidReadingException;
import io.bucketer.ingest.InvalidReadingException.Reason;
import io.bucketer.ingest.ReadingMapping;
import io.bucketer.ingest.SchemaText;
import io.bucketer.ingest.SensorIdSource;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.assertj.core.api.AbstractThrowableAssert;
import org.junit.jupiter.api.Test;

class ProtobufDecoderTest {

  private static final Instant TIME = Instant.parse("2025-06-01T09:00:00Z");
  private static final Timestamp STAMP =
      Timestamp.newBuilder().setSeconds(TIME.getEpochSecond()).setNanos(987_654_321).build();
  private static final Instant STAMP_MILLIS = TIME.plusMillis(987);

  private final TestSchemas.Registry registry = new TestSchemas.Registry();
  private final ProtobufDecoder gateway =
      decoder(mapping("device_id", "time", null, "temperature", "humidity", "battery"));

  @Test
  void shouldGiveOneReadingPerValueFieldOfTheFirstMessage() throws Exception {
    final byte[] record =
        framed(
            GATEWAY_ID,
            message(
                GATEWAY_READING,
                "device_id",
                "gw-1",
                "time",
                STAMP,
                "temperature",
                21.5,
                "humidity",
                40.0,
                "battery",
                FloatValue.of(3.5f)));

    assertThat(record[5]).as("[0] is the single byte 0").isZero();
    assertThat(record[6]).as("then the body's first tag").isEqualTo((byte) 0x0a);
    assertThat(gateway.readings(record))
        .containsExactly(
            new Reading("gw-1", STAMP_MILLIS, 21.5, "temperature", null),
            new Reading("gw-1", STAMP_MILLIS, 40.0, "humidity", null),
            new Reading("gw-1", STAMP_MILLIS, 3.5, "battery", null));
  }

  @Test
  void shouldSkipAnUnsetOptionalOrWrapperButReadAPlainProto3ZeroAsZero() throws Exception {
    assertThat(
            gateway.readings(
                framed(GATEWAY_ID, message(GATEWAY_READING, "device_id", "gw-1", "time", STAMP))))
        .containsExactly(new Reading("gw-1", STAMP_MILLIS, 0.0, "temperature", null));
    assertThat(
            gateway.readings(
                framed(
                    GATEWAY_ID,
                    message(
                        GATEWAY_READING,
                        "device_id",
                        "gw-1",
                        "time",
                        STAMP,
                        "humidity",
                        0.0,
                        "battery",
                        FloatValue.of(0f)))))
        .as("a set optional or wrapper is a reading, 0 included")
        .extracting(Reading::getMetric)
        .containsExactly("temperature", "humidity", "battery");
  }

  @Test
  void shouldReadEpochMillisNestedPathsUnsignedIdsAndAWrappedUtcOffset() throws Exception {
    final ProtobufDecoder decoder =
        decoder(
            new ReadingMapping(
                FieldPath.parse("meta.serial"),
                FieldPath.parse("ts_millis"),
                Optional.empty(),
                Optional.of(FieldPath.parse("meta.utc_offset")),
                List.of(FieldPath.parse("calibration.offset"), FieldPath.parse("rssi"))));
    final byte[] record =
        framed(
            GATEWAY_ID,
            message(
                GATEWAY_READING,
                "ts_millis",
                TIME.toEpochMilli(),
                "meta",
                message(META, "serial", -1L, "utc_offset", Int32Value.of(-90)),
                "calibration",
                message(
                    TestSchemas.FILE.getDependencies().get(2).findMessageTypeByName("Calibration"),
                    "offset",
                    -0.25),
                "rssi",
                -1));

    assertThat(decoder.readings(record))
        .containsExactly(
            new Reading("18446744073709551615", TIME, -0.25, "offset", -90),
            new Reading("18446744073709551615", TIME, 4_294_967_295.0, "rssi", -90));
  }

  @Test
  void shouldReadTheMessageTheIndexesNameAnEnumAsTheMetric() throws Exception {
    final ProtobufDecoder byQuantity = decoder(mapping("sensor", "time", "quantity", "value"));
    final ProtobufDecoder byUnit = decoder(mapping("sensor", "time", "unit", "value"));
    final byte[] record =
        framed(
            GATEWAY_ID,
            message(
                MEASUREMENT,
                "sensor",
                42L,
                "time",
                STAMP,
                "quantity",
                MEASUREMENT.findEnumTypeByName("Quantity").findValueByName("PRESSURE"),
                "value",
                1013.25,
                "unit",
                TestSchemas.FILE
                    .getDependencies()
                    .get(2)
                    .findEnumTypeByName("Unit")
                    .findValueByName("PASCAL")));

    assertThat(record[5]).as("[1]: a count of 1 (zigzag 2), then 1 (zigzag 2)").isEqualTo((byte) 2);
    assertThat(record[6]).isEqualTo((byte) 2);
    assertThat(byQuantity.readings(record))
        .containsExactly(new Reading("42", STAMP_MILLIS, 1013.25, "PRESSURE", null));
    assertThat(byUnit.readings(record))
        .as("an enum of the referenced schema")
        .containsExactly(new Reading("42", STAMP_MILLIS, 1013.25, "PASCAL", null));
  }

  @Test
  void shouldReadANestedMessageByItsIndexes() throws Exception {
    final byte[] record =
        framed(
            GATEWAY_ID,
            message(STATUS, "device_id", "gw-2", "ts_millis", TIME.toEpochMilli(), "signal", -70));

    assertThat(Arrays.copyOfRange(record, 5, 8))
        .as("[0, 1]: count 2, then 0 and 1, zigzagged")
        .containsExactly(4, 0, 2);
    assertThat(decoder(mapping("device_id", "ts_millis", null, "signal")).readings(record))
        .containsExactly(new Reading("gw-2", TIME, -70.0, "signal", null));
  }

  @Test
  void shouldGiveEachElementOfTheOneRepeatedFieldItsReadingsSharingTheFieldsOutsideIt()
      throws Exception {
    final byte[] record =
        framed(
            GATEWAY_ID,
            message(
                BATCH,
                "gateway",
                "gw-9",
                "samples",
                List.of(
                    message(
                        SAMPLE,
                        "device_id",
                        "d1",
                        "ts_millis",
                        TIME.toEpochMilli(),
                        "temperature",
                        20.0,
                        "humidity",
                        DoubleValue.of(30.0)),
                    message(
                        SAMPLE,
                        "device_id",
                        "d2",
                        "ts_millis",
                        TIME.toEpochMilli() + 1,
                        "temperature",
                        21.0))));

    assertThat(
            decoder(
                    mapping(
                        "samples.device_id",
                        "samples.ts_millis",
                        null,
                        "samples.temperature",
                        "samples.humidity"))
                .readings(record))
        .containsExactly(
            new Reading("d1", TIME, 20.0, "temperature", null),
            new Reading("d1", TIME, 30.0, "humidity", null),
            new Reading("d2", TIME.plusMillis(1), 21.0, "temperature", null));
    assertThat(
            decoder(mapping("gateway", "samples.ts_millis", null, "samples.temperature"))
                .readings(record))
        .extracting(Reading::getSensorId)
        .containsExactly("gw-9", "gw-9");
  }

  @Test
  void shouldTakeEveryNumericTopLevelFieldButTheMappedOnesWithAnAsterisk() throws Exception {
    final ProtobufDecoder everyNumber =
        decoder(
            new ReadingMapping(
                FieldPath.parse("device_id"),
                FieldPath.parse("ts_millis"),
                Optional.empty(),
                Optional.empty(),
                List.of(),
                true,
                SensorIdSource.PAYLOAD));
    final byte[] record =
        framed(
            GATEWAY_ID,
            message(
                GATEWAY_READING,
                "device_id",
                "gw-1",
                "ts_millis",
                TIME.toEpochMilli(),
                "temperature",
                21.5,
                "battery",
                FloatValue.of(3.5f),
                "history",
                List.of(1.0, 2.0),
                "label",
                "kitchen",
                "charging",
                true,
                "rssi",
                60));

    // temperature, humidity (optional, unset), battery (a wrapper), rssi: not ts_millis, the time;
    // not history (repeated), label, charging, meta or calibration.
    assertThat(everyNumber.readings(record))
        .containsExactly(
            new Reading("gw-1", TIME, 21.5, "temperature", null),
            new Reading("gw-1", TIME, 3.5, "battery", null),
            new Reading("gw-1", TIME, 60.0, "rssi", null));
  }

  @Test
  void shouldTakeTheSensorIdFromTheKeyWhenTheMappingSaysSo() throws Exception {
    final ProtobufDecoder keyed =
        decoder(
            new ReadingMapping(
                FieldPath.parse("sensor_id"),
                FieldPath.parse("time"),
                Optional.empty(),
                Optional.empty(),
                List.of(FieldPath.parse("temperature")),
                false,
                SensorIdSource.parse("key", "site-a/")));
    final byte[] value =
        framed(GATEWAY_ID, message(GATEWAY_READING, "time", STAMP, "temperature", 20.0));

    assertThat(
            keyed.readings(
                new InputRecord(
                    "site-a/gw-7".getBytes(StandardCharsets.UTF_8),
                    value,
                    InputRecord.Headers.NONE,
                    -1L)))
        .containsExactly(new Reading("gw-7", STAMP_MILLIS, 20.0, "temperature", null));
    assertRejected(keyed, value, Reason.NO_SENSOR_ID);
  }

  @Test
  void shouldRefuseARepeatedValueAndPathsThroughTwoRepeatedFields() {
    assertRejected(
            decoder(mapping("device_id", "time", null, "history")),
            framed(GATEWAY_ID, message(GATEWAY_READING, "device_id", "gw-1", "time", STAMP)),
            Reason.REPEATED_FIELD)
        .hasMessageContaining("history is repeated");
    assertRejected(
            decoder(mapping("samples.device_id", "spares.ts_millis", null, "samples.temperature")),
            framed(GATEWAY_ID, message(BATCH, "gateway", "gw-9")),
            Reason.REPEATED_FIELD)
        .hasMessageContaining("samples.device_id and spares.ts_millis");
  }

  @Test
  void shouldRefuseABatchWithoutElementsAsHavingNoValues() {
    assertRejected(
            decoder(mapping("gateway", "samples.ts_millis", null, "samples.temperature")),
            framed(GATEWAY_ID, message(BATCH, "gateway", "gw-9")),
            Reason.NO_VALUES)
        .hasMessageContaining("samples");
  }

  @Test
  void shouldRejectAnAbsentSensorIdOrTimeAsMissingField() {
    assertRejected(
            gateway,
            framed(GATEWAY_ID, message(GATEWAY_READING, "time", STAMP)),
            Reason.MISSING_FIELD)
        .hasMessageContaining("device_id");
    assertRejected(
            gateway,
            framed(GATEWAY_ID, message(GATEWAY_READING, "device_id", "gw-1")),
            Reason.MISSING_FIELD)
        .hasMessageContaining("the time field time");
    assertRejected(
            decoder(mapping("serial_number", "time", null, "temperature")),
            framed(GATEWAY_ID, message(GATEWAY_READING, "device_id", "gw-1")),
            Reason.MISSING_FIELD)
        .hasMessageContaining("no sensor id field serial_number");
  }

  @Test
  void shouldRefuseFieldsOfTheWrongTypeNamingThem() {
    final byte[] record = framed(GATEWAY_ID, message(GATEWAY_READING, "device_id", "gw-1"));
    assertRejected(
            decoder(mapping("device_id", "label", null, "temperature")), record, Reason.NOT_A_TIME)
        .hasMessageContaining("the time field label is string");
    assertRejected(
            decoder(mapping("device_id", "time", null, "charging")), record, Reason.NOT_A_NUMBER)
        .hasMessageContaining("the value field charging is bool");
    assertRejected(decoder(mapping("temperature", "time", null, "rssi")), record, Reason.WRONG_TYPE)
        .hasMessageContaining("the sensor id field temperature is double");
    assertRejected(
            decoder(mapping("device_id", "time", "rssi", "temperature")), record, Reason.WRONG_TYPE)
        .hasMessageContaining("the metric field rssi");
    assertRejected(
            decoder(
                new ReadingMapping(
                    FieldPath.parse("device_id"),
                    FieldPath.parse("time"),
                    Optional.empty(),
                    Optional.of(FieldPath.parse("label")),
                    List.of(FieldPath.parse("temperature")))),
            record,
            Reason.WRONG_TYPE)
        .hasMessageContaining("the UTC offset field label");
  }

  @Test
  void shouldRejectATimestampBeyondAnyTimeAsNotATime() {
    assertRejected(
            gateway,
            framed(
                GATEWAY_ID,
                message(
                    GATEWAY_READING,
                    "device_id",
                    "gw-1",
                    "time",
                    Timestamp.newBuilder().setSeconds(Long.MAX_VALUE).build())),
            Reason.NOT_A_TIME)
        .hasMessageContaining("the time field time");
  }

  @Test
  void shouldRefuseATypeWithNoneOfTheValueFields() {
    assertRejected(
            decoder(mapping("device_id", "time", null, "pressure")),
            framed(GATEWAY_ID, message(GATEWAY_READING, "device_id", "gw-1")),
            Reason.NO_VALUES)
        .hasMessageContaining("pressure");
  }

  @Test
  void shouldDeadLetterFramesThatAreNotOrDoNotParse() {
    assertRejected(gateway, new byte[] {1, 0, 0, 0, 7, 0}, Reason.NOT_WIRE_FORMAT);
    assertRejected(gateway, framed(99, new int[] {0}, new byte[0]), Reason.UNKNOWN_SCHEMA_ID);
    assertRejected(
            gateway, framed(GATEWAY_ID, new int[] {5}, new byte[0]), Reason.UNKNOWN_MESSAGE_INDEX)
        .hasMessageContaining("[5]")
        .hasMessageContaining("3 top-level messages");
    assertRejected(
            gateway,
            framed(GATEWAY_ID, new int[] {0, 7}, new byte[0]),
            Reason.UNKNOWN_MESSAGE_INDEX)
        .hasMessageContaining("test.gateway.GatewayReading has 2 nested messages");
    assertRejected(gateway, new byte[] {0, 0, 0, 0, 7, (byte) 0x80}, Reason.MALFORMED_PROTOBUF)
        .hasMessageContaining("message indexes");
    assertRejected(gateway, new byte[] {0, 0, 0, 0, 7, 1}, Reason.MALFORMED_PROTOBUF)
        .as("a count of -1")
        .hasMessageContaining("count of -1");
    final byte[] whole =
        framed(GATEWAY_ID, message(GATEWAY_READING, "device_id", "gw-1", "time", STAMP));
    assertRejected(gateway, Arrays.copyOf(whole, whole.length - 3), Reason.MALFORMED_PROTOBUF)
        .hasMessageContaining("test.gateway.GatewayReading of schema id 7");
  }

  @Test
  void shouldRefuseASchemaThatIsNotProtobufOrDoesNotCompile() {
    registry.with(3, SchemaText.of(SchemaText.JSON, "{}"));
    registry.with(4, SchemaText.of(SchemaText.PROTOBUF, "message {"));
    assertRejected(gateway, framed(3, new int[] {0}, new byte[0]), Reason.INCOMPATIBLE_SCHEMA)
        .hasMessageContaining("JSON schema, not PROTOBUF");
    assertRejected(gateway, framed(4, new int[] {0}, new byte[0]), Reason.INCOMPATIBLE_SCHEMA)
        .hasMessageContaining("schema id 4");
  }

  @Test
  void shouldHonourProto2PresenceAndRequiredFields() throws Exception {
    registry.with(
        5,
        SchemaText.of(
            SchemaText.PROTOBUF,
            "syntax = \"proto2\"; package old; message R { required string id = 1;"
                + " optional int64 ts = 2; optional double v = 3; }"));
    final ProtobufDecoder decoder = decoder(mapping("id", "ts", null, "v"));
    final com.google.protobuf.Descriptors.Descriptor type =
        ProtoSchemaCompiler.compile(
                "proto2", "r.proto", java.util.Map.of("r.proto", registry.schemaTextById(5).text()))
            .findMessageTypeByName("R");

    assertThat(
            decoder.readings(
                framed(5, message(type, "id", "s1", "ts", TIME.toEpochMilli(), "v", 0.0))))
        .containsExactly(new Reading("s1", TIME, 0.0, "v", null));
    assertRejected(
        decoder, framed(5, message(type, "id", "s1", "ts", TIME.toEpochMilli())), Reason.NO_VALUES);
    assertRejected(
            decoder,
            framed(
                5, new int[] {0}, message(type, "ts", TIME.toEpochMilli(), "v", 1.0).toByteArray()),
            Reason.MALFORMED_PROTOBUF)
        .hasMessageContaining("id");
  }

  @Test
  void shouldCompileEachSchemaOnceAndRememberARejection() throws Exception {
    final byte[] record =
        framed(GATEWAY_ID, message(GATEWAY_READING, "device_id", "gw-1", "time", STAMP));
    gateway.readings(record);
    gateway.readings(record);
    for (int i = 0; i < 2; i++) {
      assertRejected(
          gateway, framed(GATEWAY_ID, message(STATUS, "device_id", "gw-1")), Reason.MISSING_FIELD);
    }
    assertThat(registry.calls()).as("the schema and its one reference, once").isEqualTo(2);

    registry.with(4, SchemaText.of(SchemaText.PROTOBUF, "message {"));
    for (int i = 0; i < 3; i++) {
      assertRejected(gateway, framed(4, new int[] {0}, new byte[0]), Reason.INCOMPATIBLE_SCHEMA);
    }
    assertThat(registry.calls()).isEqualTo(3);
  }

  @Test
  void shouldNeverHoldAnUnreachableRegistryAgainstTheSchema() throws Exception {
    final byte[] record =
        framed(GATEWAY_ID, message(GATEWAY_READING, "device_id", "gw-1", "time", STAMP));
    registry.down(true);
    assertThatThrownBy(() -> gateway.readings(record))
        .isInstanceOf(io.bucketer.ingest.SchemaRegistryUnavailableException.class);

    registry.down(false);
    assertThat(gateway.readings(record)).hasSize(1);
  }

  private ProtobufDecoder decoder(final ReadingMapping mapping) {
    return new ProtobufDecoder(registry, mapping);
  }

  private static AbstractThrowableAssert<?, ? extends Throwable> assertRejected(
      final ProtobufDecoder decoder, final byte[] record, final Reason reason) {
    return assertThatThrownBy(() -> decoder.readings(record))
        .isInstanceOfSatisfying(
            InvalidReadingException.class, e -> assertThat(e.reason()).isEqualTo(reason));
  }
}
