package io.bucketer.ingest;

import static io.bucketer.ingest.HandEncoded.FULL_BODY;
import static io.bucketer.ingest.HandEncoded.FULL_READING;
import static io.bucketer.ingest.HandEncoded.framedAs42;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bucketer.avro.Reading;
import io.bucketer.ingest.InvalidReadingException.Reason;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.assertj.core.api.AbstractThrowableAssert;
import org.junit.jupiter.api.Test;

class MappedAvroDecoderTest {

  private static final Instant TIME = Instant.parse("2025-06-01T09:00:00Z");
  private static final long MILLIS = TIME.toEpochMilli();

  /** A gateway's schema: one message holds several metrics' values. */
  private static final Schema GATEWAY =
      SchemaBuilder.record("GatewayReading")
          .namespace("com.example.gateway")
          .fields()
          .requiredString("deviceId")
          .name("ts")
          .type(timestamp(LogicalTypes.timestampMillis()))
          .noDefault()
          .requiredDouble("temperature")
          .optionalFloat("humidity")
          .requiredInt("battery")
          .requiredLong("pressure")
          .endRecord();

  private static final ReadingMapping GATEWAY_MAPPING =
      mapping("deviceId", "ts", null, "temperature", "humidity", "battery", "pressure");

  private final MapSchemaLookup lookup = new MapSchemaLookup();

  @Test
  void shouldReadBucketersOwnReadingWithTheDefaultMapping() throws Exception {
    lookup.with(42, Reading.getClassSchema());

    assertThat(
            new MappedAvroDecoder(lookup, ReadingMapping.DEFAULT).readings(framedAs42(FULL_BODY)))
        .containsExactly(FULL_READING);
  }

  @Test
  void shouldReadAnOlderReadingSchemaWithTheDefaultMappingAsBefore() throws Exception {
    final GenericRecord v0 =
        WriterSchemas.record(WriterSchemas.V0_WITHOUT_OPTIONAL_FIELDS, "s9", MILLIS, 20.5);

    assertThat(decode(ReadingMapping.DEFAULT, 7, v0))
        .containsExactly(new Reading("s9", TIME, 20.5, null, null));
  }

  @Test
  void shouldGiveOneReadingPerValueFieldNamedAfterItsField() throws Exception {
    final GenericRecord record = gateway("gw-7", MILLIS, 21.5, 40.25f, 97, 101_325L);

    assertThat(decode(GATEWAY_MAPPING, 1, record))
        .containsExactly(
            new Reading("gw-7", TIME, 21.5, "temperature", null),
            new Reading("gw-7", TIME, 40.25, "humidity", null),
            new Reading("gw-7", TIME, 97.0, "battery", null),
            new Reading("gw-7", TIME, 101_325.0, "pressure", null));
  }

  @Test
  void shouldSkipANullValueAndAValueFieldTheSchemaDoesNotHave() throws Exception {
    final ReadingMapping withRemovedField =
        mapping("deviceId", "ts", null, "temperature", "humidity", "co2");
    final GenericRecord record = gateway("gw-7", MILLIS, 21.5, null, 97, 1L);

    assertThat(decode(withRemovedField, 1, record))
        .containsExactly(new Reading("gw-7", TIME, 21.5, "temperature", null));
  }

  @Test
  void shouldTakeTheMetricFromTheMetricFieldWhenOneIsMapped() throws Exception {
    final Schema schema =
        SchemaBuilder.record("Sample")
            .fields()
            .requiredString("sensor")
            .requiredLong("at")
            .optionalString("kind")
            .requiredDouble("reading")
            .optionalInt("tz")
            .endRecord();
    final ReadingMapping byKind =
        new ReadingMapping(
            FieldPath.parse("sensor"),
            FieldPath.parse("at"),
            Optional.of(FieldPath.parse("kind")),
            Optional.of(FieldPath.parse("tz")),
            List.of(FieldPath.parse("reading")));

    assertThat(decode(byKind, 1, record(schema, "s1", MILLIS, "co2", 412.0, 120)))
        .containsExactly(new Reading("s1", TIME, 412.0, "co2", 120));
    assertThat(decode(byKind, 1, record(schema, "s1", MILLIS, null, 412.0, null)))
        .containsExactly(new Reading("s1", TIME, 412.0, null, null));
  }

  @Test
  void shouldFollowADottedPathIntoNestedAndOptionalRecords() throws Exception {
    final Schema meta =
        SchemaBuilder.record("Meta").fields().requiredString("deviceId").endRecord();
    final Schema values =
        SchemaBuilder.record("Values").fields().requiredDouble("temperature").endRecord();
    final Schema schema =
        SchemaBuilder.record("Nested")
            .fields()
            .name("meta")
            .type(meta)
            .noDefault()
            .requiredLong("ts")
            .name("values")
            .type()
            .optional()
            .type(values)
            .endRecord();
    final ReadingMapping nested = mapping("meta.deviceId", "ts", null, "values.temperature");
    final GenericRecord present =
        record(schema, record(meta, "gw-1"), MILLIS, record(values, 19.0));
    final GenericRecord absent = record(schema, record(meta, "gw-1"), MILLIS, null);

    assertThat(decode(nested, 1, present))
        .containsExactly(new Reading("gw-1", TIME, 19.0, "temperature", null));
    assertRejected(nested, 1, absent, Reason.NO_VALUES);
  }

  @Test
  void shouldTakeEveryNumericFieldOfTheWriterSchemaWithValueFieldsAll() throws Exception {
    final ReadingMapping everyNumber =
        JsonReadingDecoderTest.allNumeric("deviceId", "ts", SensorIdSource.PAYLOAD);

    assertThat(decode(everyNumber, 1, gateway("gw-1", MILLIS, 21.5, null, 97, 1013L)))
        .containsExactly(
            new Reading("gw-1", TIME, 21.5, "temperature", null),
            new Reading("gw-1", TIME, 97.0, "battery", null),
            new Reading("gw-1", TIME, 1013.0, "pressure", null));
  }

  /**
   * A gateway that adds a measurement needs no settings change: a writer schema with a new field is
   * a new series. Strings, booleans, logical types and a plain-long time renamed with an alias are
   * no values.
   */
  @Test
  void shouldMakeANewNumericFieldOfAnEvolvedSchemaANewSeries() throws Exception {
    final Schema evolved =
        new Schema.Parser()
            .parse(
                """
                {"type": "record", "name": "GatewayReading", "fields": [
                  {"name": "serial", "type": "long"},
                  {"name": "time", "aliases": ["ts"], "type": "long"},
                  {"name": "firmware", "type": "string"},
                  {"name": "online", "type": "boolean"},
                  {"name": "day", "type": {"type": "int", "logicalType": "date"}},
                  {"name": "temperature", "type": "double"},
                  {"name": "voc", "type": ["null", "int"], "default": null}
                ]}""");
    final ReadingMapping everyNumber =
        JsonReadingDecoderTest.allNumeric("serial", "ts", SensorIdSource.PAYLOAD);

    assertThat(decode(everyNumber, 4, record(evolved, 77L, MILLIS, "1.0", true, 20000, 19.0, 230)))
        .containsExactly(
            new Reading("77", TIME, 19.0, "temperature", null),
            new Reading("77", TIME, 230.0, "voc", null));
  }

  @Test
  void shouldTakeTheSensorIdFromAHeaderAndNeedNoSuchFieldInTheSchema() throws Exception {
    final Schema noId =
        SchemaBuilder.record("Anonymous")
            .fields()
            .requiredLong("ts")
            .requiredDouble("t")
            .endRecord();
    final ReadingMapping fromHeader =
        JsonReadingDecoderTest.allNumeric(
            "deviceId", "ts", SensorIdSource.parse("header:device", ""));
    final byte[] framed = framed(5, record(noId, MILLIS, 4.5));

    assertThat(
            new MappedAvroDecoder(lookup, fromHeader)
                .readings(
                    new InputRecord(
                        null,
                        framed,
                        name -> name.equals("device") ? "pump-3".getBytes(UTF_8) : null,
                        -1)))
        .containsExactly(new Reading("pump-3", TIME, 4.5, "t", null));
  }

  /** A v2 renamed deviceId and temperature and kept the old names as aliases. */
  @Test
  void shouldFindAFieldRenamedWithAnAliasByItsOldName() throws Exception {
    final Schema renamed =
        new Schema.Parser()
            .parse(
                """
                {"type": "record", "name": "GatewayReading", "fields": [
                  {"name": "device_id", "aliases": ["deviceId"], "type": "string"},
                  {"name": "ts", "type": "long"},
                  {"name": "temp_c", "aliases": ["temperature"], "type": "double"}
                ]}""");

    assertThat(
            decode(
                mapping("deviceId", "ts", null, "temperature"),
                3,
                record(renamed, "gw-2", MILLIS, 18.5)))
        .containsExactly(new Reading("gw-2", TIME, 18.5, "temperature", null));
  }

  @Test
  void shouldReadTimestampMillisMicrosAndPlainLongAsTheSameInstant() throws Exception {
    final ReadingMapping mapping = mapping("id", "ts", null, "v");

    assertThat(decode(mapping, 1, timed(timestamp(LogicalTypes.timestampMillis()), MILLIS)))
        .extracting(Reading::getTimestamp)
        .containsExactly(TIME);
    assertThat(
            decode(
                mapping, 2, timed(timestamp(LogicalTypes.timestampMicros()), MILLIS * 1_000 + 999)))
        .extracting(Reading::getTimestamp)
        .containsExactly(TIME);
    assertThat(decode(mapping, 3, timed(Schema.create(Schema.Type.LONG), MILLIS)))
        .extracting(Reading::getTimestamp)
        .containsExactly(TIME);
  }

  @Test
  void shouldReadAMicrosecondReadingWithTheDefaultMapping() throws Exception {
    final GenericRecord record =
        WriterSchemas.record(WriterSchemas.MICROS_TIMESTAMP, "s9", MILLIS * 1_000, 20.5);

    assertThat(decode(ReadingMapping.DEFAULT, 12, record))
        .containsExactly(new Reading("s9", TIME, 20.5, null, null));
  }

  @Test
  void shouldTakeAnIntegerSensorIdAsItsDecimalString() throws Exception {
    final Schema schema =
        SchemaBuilder.record("R")
            .fields()
            .requiredLong("id")
            .requiredLong("ts")
            .requiredDouble("v")
            .endRecord();

    assertThat(decode(mapping("id", "ts", null, "v"), 1, record(schema, 4711L, MILLIS, 1.0)))
        .extracting(Reading::getSensorId)
        .containsExactly("4711");
  }

  @Test
  void shouldIgnoreAddedFieldsOfAnyTypeThatAreNotMapped() throws Exception {
    final Schema schema =
        SchemaBuilder.record("R")
            .fields()
            .name("tags")
            .type()
            .map()
            .values()
            .stringType()
            .noDefault()
            .requiredString("id")
            .name("history")
            .type()
            .array()
            .items()
            .doubleType()
            .noDefault()
            .requiredLong("ts")
            .requiredDouble("v")
            .endRecord();
    final GenericRecord record =
        record(schema, Map.of("site", "north"), "s1", List.of(1.0, 2.0), MILLIS, 3.0);

    assertThat(decode(mapping("id", "ts", null, "v"), 1, record))
        .containsExactly(new Reading("s1", TIME, 3.0, "v", null));
  }

  @Test
  void shouldRejectARecordWhoseSensorIdOrTimeIsNullAsMissingField() throws Exception {
    final Schema schema =
        SchemaBuilder.record("R")
            .fields()
            .optionalString("id")
            .optionalLong("ts")
            .requiredDouble("v")
            .endRecord();
    final ReadingMapping mapping = mapping("id", "ts", null, "v");

    assertRejected(mapping, 1, record(schema, null, MILLIS, 1.0), Reason.MISSING_FIELD)
        .hasMessageContaining("sensor id field id");
    assertRejected(mapping, 1, record(schema, "s1", null, 1.0), Reason.MISSING_FIELD)
        .hasMessageContaining("time field ts");
  }

  @Test
  void shouldRejectEveryRecordOfASchemaWithoutTheSensorIdOrTimeField() throws Exception {
    final GenericRecord record = gateway("gw-7", MILLIS, 21.5, 40.25f, 97, 1L);

    assertRejected(mapping("device", "ts", null, "temperature"), 5, record, Reason.MISSING_FIELD)
        .hasMessageContaining("writer schema id 5")
        .hasMessageContaining("sensor id field device");
    assertRejected(
            mapping("deviceId", "time", null, "temperature"), 6, record, Reason.MISSING_FIELD)
        .hasMessageContaining("writer schema id 6")
        .hasMessageContaining("time field time");
  }

  @Test
  void shouldRejectASchemaWhoseValueFieldIsNotNumericAsNotANumber() throws Exception {
    final GenericRecord record =
        WriterSchemas.record(WriterSchemas.VALUE_AS_STRING, "s9", MILLIS, "20.5");

    assertRejected(ReadingMapping.DEFAULT, 10, record, Reason.NOT_A_NUMBER)
        .hasMessageContaining("writer schema id 10")
        .hasMessageContaining("value field value");
  }

  @Test
  void shouldRejectASchemaWhoseTimeIsNotALongTimestampAsNotATime() throws Exception {
    final Schema schema =
        SchemaBuilder.record("R")
            .fields()
            .requiredString("id")
            .requiredString("ts")
            .requiredDouble("v")
            .endRecord();

    assertRejected(
            mapping("id", "ts", null, "v"),
            8,
            record(schema, "s1", "2025-06-01T09:00:00Z", 1.0),
            Reason.NOT_A_TIME)
        .hasMessageContaining("time field ts");
  }

  @Test
  void shouldRejectASensorIdThatIsNeitherStringNorIntegerAsWrongType() throws Exception {
    final Schema schema =
        SchemaBuilder.record("R")
            .fields()
            .requiredBoolean("id")
            .requiredLong("ts")
            .requiredDouble("v")
            .endRecord();

    assertRejected(
            mapping("id", "ts", null, "v"), 9, record(schema, true, MILLIS, 1.0), Reason.WRONG_TYPE)
        .hasMessageContaining("sensor id field id");
  }

  @Test
  void shouldRejectARecordWithoutAnyValueAndASchemaWithoutAnyValueFieldAsNoValues()
      throws Exception {
    final ReadingMapping humidityOnly = mapping("deviceId", "ts", null, "humidity");
    final ReadingMapping absentOnly = mapping("deviceId", "ts", null, "co2", "rain");
    final GenericRecord record = gateway("gw-7", MILLIS, 21.5, null, 97, 1L);

    assertRejected(humidityOnly, 1, record, Reason.NO_VALUES);
    assertRejected(absentOnly, 2, record, Reason.NO_VALUES)
        .hasMessageContaining("writer schema id 2");
  }

  @Test
  void shouldRejectASchemaThatIsNotARecordAsIncompatible() {
    lookup.with(3, Schema.create(Schema.Type.STRING));

    assertThatThrownBy(
            () ->
                new MappedAvroDecoder(lookup, GATEWAY_MAPPING)
                    .readings(ConfluentWireFormat.frame(3, new byte[] {0})))
        .isInstanceOfSatisfying(
            InvalidReadingException.class,
            e -> assertThat(e.reason()).isEqualTo(Reason.INCOMPATIBLE_SCHEMA));
  }

  @Test
  void shouldCompileEachSchemaIdOnceRejectionsIncluded() throws Exception {
    final MappedAvroDecoder decoder =
        new MappedAvroDecoder(lookup, mapping("device", "ts", null, "temperature"));
    final byte[] framed = framed(1, gateway("gw-7", MILLIS, 21.5, 40.25f, 97, 1L));

    for (int i = 0; i < 3; i++) {
      assertThatThrownBy(() -> decoder.readings(framed))
          .isInstanceOf(InvalidReadingException.class);
    }

    assertThat(lookup.calls()).isEqualTo(1);
  }

  @Test
  void shouldRejectBytesLeftOverAsMalformed() throws Exception {
    final byte[] framed = framed(1, gateway("gw-7", MILLIS, 21.5, 40.25f, 97, 1L));
    final byte[] padded = Arrays.copyOf(framed, framed.length + 1);
    final MappedAvroDecoder decoder = new MappedAvroDecoder(lookup, GATEWAY_MAPPING);

    assertThatThrownBy(() -> decoder.readings(padded))
        .isInstanceOfSatisfying(
            InvalidReadingException.class,
            e -> assertThat(e.reason()).isEqualTo(Reason.MALFORMED_AVRO))
        .hasMessageContaining("left over");
  }

  private List<Reading> decode(
      final ReadingMapping mapping, final int schemaId, final GenericRecord record)
      throws Exception {
    return new MappedAvroDecoder(lookup, mapping).readings(framed(schemaId, record));
  }

  private AbstractThrowableAssert<?, ? extends Throwable> assertRejected(
      final ReadingMapping mapping,
      final int schemaId,
      final GenericRecord record,
      final Reason reason)
      throws Exception {
    final byte[] framed = framed(schemaId, record);
    return assertThatThrownBy(() -> new MappedAvroDecoder(lookup, mapping).readings(framed))
        .isInstanceOfSatisfying(
            InvalidReadingException.class, e -> assertThat(e.reason()).isEqualTo(reason));
  }

  private byte[] framed(final int schemaId, final GenericRecord record) throws Exception {
    lookup.with(schemaId, record.getSchema());
    return ConfluentWireFormat.frame(schemaId, WriterSchemas.body(record));
  }

  static ReadingMapping mapping(
      final String sensorId, final String time, final String metric, final String... values) {
    return new ReadingMapping(
        FieldPath.parse(sensorId),
        FieldPath.parse(time),
        Optional.ofNullable(metric).map(FieldPath::parse),
        Optional.empty(),
        Arrays.stream(values).map(FieldPath::parse).toList());
  }

  private static GenericRecord gateway(final Object... fields) {
    return record(GATEWAY, fields);
  }

  private static GenericRecord record(final Schema schema, final Object... fields) {
    final GenericRecord record = new GenericData.Record(schema);
    for (int i = 0; i < fields.length; i++) {
      record.put(i, fields[i]);
    }
    return record;
  }

  private static GenericRecord timed(final Schema timeSchema, final long time) {
    final Schema schema =
        SchemaBuilder.record("Timed")
            .fields()
            .requiredString("id")
            .name("ts")
            .type(timeSchema)
            .noDefault()
            .requiredDouble("v")
            .endRecord();
    return record(schema, "s1", time, 1.0);
  }

  private static Schema timestamp(final org.apache.avro.LogicalType unit) {
    return unit.addToSchema(Schema.create(Schema.Type.LONG));
  }
}
