package io.bucketer.ingest;

import static io.bucketer.ingest.MappedAvroDecoderTest.mapping;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bucketer.avro.Reading;
import io.bucketer.ingest.InvalidReadingException.Reason;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.assertj.core.api.AbstractThrowableAssert;
import org.junit.jupiter.api.Test;

class JsonReadingDecoderTest {

  private static final Instant TIME = Instant.parse("2025-06-01T09:00:00Z");

  private final JsonReadingDecoder gateway =
      new JsonReadingDecoder(mapping("deviceId", "ts", null, "temperature", "humidity", "battery"));

  @Test
  void shouldGiveOneReadingPerNumericValueFieldNamedAfterItsField() throws Exception {
    assertThat(
            decode(
                gateway,
                """
                {"deviceId": "gw-1", "ts": "2025-06-01T09:00:00Z",
                 "temperature": 21.5, "humidity": 40, "battery": 97}"""))
        .containsExactly(
            new Reading("gw-1", TIME, 21.5, "temperature", null),
            new Reading("gw-1", TIME, 40.0, "humidity", null),
            new Reading("gw-1", TIME, 97.0, "battery", null));
  }

  @Test
  void shouldSkipNullAndAbsentValues() throws Exception {
    assertThat(
            decode(
                gateway,
                """
                {"deviceId": "gw-1", "ts": "2025-06-01T09:00:00Z", "humidity": null,
                 "battery": 97}"""))
        .containsExactly(new Reading("gw-1", TIME, 97.0, "battery", null));
  }

  @Test
  void shouldTakeEveryTopLevelNumberButTheOtherRolesAsAValueWithValueFieldsAll() throws Exception {
    final JsonReadingDecoder everyNumber =
        new JsonReadingDecoder(allNumeric("id", "ts", SensorIdSource.PAYLOAD));

    assertThat(
            decode(
                everyNumber,
                """
                {"id": 7, "ts": %d, "co2": 415, "online": true, "fw": "1.2",
                 "meta": {"rssi": -60}, "pm25": 3.5}"""
                    .formatted(TIME.toEpochMilli())))
        .containsExactly(
            new Reading("7", TIME, 415.0, "co2", null), new Reading("7", TIME, 3.5, "pm25", null));
    assertRejected(everyNumber, "{\"id\": \"s\", \"ts\": 1, \"ok\": true}", Reason.NO_VALUES)
        .hasMessageContaining("no numeric field");
  }

  @Test
  void shouldTakeTheSensorIdFromTheKeyWhenTheSettingSaysSo() throws Exception {
    final JsonReadingDecoder keyed =
        new JsonReadingDecoder(allNumeric("id", "ts", SensorIdSource.parse("key", "dev/")));
    final byte[] json =
        "{\"id\": \"ignored\", \"ts\": \"2025-06-01T09:00:00Z\", \"t\": 20}"
            .getBytes(StandardCharsets.UTF_8);

    assertThat(
            keyed.readings(
                new InputRecord(
                    "dev/boiler".getBytes(StandardCharsets.UTF_8),
                    json,
                    InputRecord.Headers.NONE,
                    -1)))
        .containsExactly(new Reading("boiler", TIME, 20.0, "t", null));
    assertThatThrownBy(() -> keyed.readings(json))
        .isInstanceOfSatisfying(
            InvalidReadingException.class,
            e -> assertThat(e.reason()).isEqualTo(Reason.NO_SENSOR_ID));
  }

  static ReadingMapping allNumeric(
      final String sensorId, final String time, final SensorIdSource source) {
    return new ReadingMapping(
        FieldPath.parse(sensorId),
        FieldPath.parse(time),
        Optional.empty(),
        Optional.empty(),
        List.of(),
        true,
        source);
  }

  @Test
  void shouldReadTheTimeAsAnInstantWithOffsetOrAsEpochMillis() throws Exception {
    final JsonReadingDecoder decoder = new JsonReadingDecoder(mapping("id", "ts", null, "v"));

    assertThat(decode(decoder, "{\"id\": \"s\", \"ts\": \"2025-06-01T11:00:00+02:00\", \"v\": 1}"))
        .extracting(Reading::getTimestamp)
        .containsExactly(TIME);
    assertThat(decode(decoder, "{\"id\": \"s\", \"ts\": " + TIME.toEpochMilli() + ", \"v\": 1}"))
        .extracting(Reading::getTimestamp)
        .containsExactly(TIME);
  }

  @Test
  void shouldReadTheDefaultMappingsFieldsAndNestedPaths() throws Exception {
    assertThat(
            decode(
                new JsonReadingDecoder(ReadingMapping.DEFAULT),
                """
                {"sensor_id": "s1", "timestamp": "2025-06-01T09:00:00Z", "value": -2.5,
                 "metric": "co2", "utc_offset_minutes": -60}"""))
        .containsExactly(new Reading("s1", TIME, -2.5, "co2", -60));
    assertThat(
            decode(
                new JsonReadingDecoder(mapping("meta.id", "meta.ts", null, "data.temperature")),
                """
                {"meta": {"id": 42, "ts": "2025-06-01T09:00:00Z"}, "data": {"temperature": 3}}"""))
        .containsExactly(new Reading("42", TIME, 3.0, "temperature", null));
  }

  @Test
  void shouldRejectAMissingOrNullSensorIdOrTimeAsMissingField() {
    assertRejected(
            gateway, "{\"ts\": \"2025-06-01T09:00:00Z\", \"battery\": 1}", Reason.MISSING_FIELD)
        .hasMessageContaining("deviceId");
    assertRejected(
            gateway, "{\"deviceId\": \"gw\", \"ts\": null, \"battery\": 1}", Reason.MISSING_FIELD)
        .hasMessageContaining("ts");
  }

  @Test
  void shouldRejectATimeThatIsNeitherAnInstantNorEpochMillisAsNotATime() {
    assertRejected(
        gateway,
        "{\"deviceId\": \"gw\", \"ts\": \"yesterday\", \"battery\": 1}",
        Reason.NOT_A_TIME);
    assertRejected(
        gateway,
        "{\"deviceId\": \"gw\", \"ts\": \"2025-06-01T09:00:00\", \"battery\": 1}",
        Reason.NOT_A_TIME);
    assertRejected(
        gateway, "{\"deviceId\": \"gw\", \"ts\": 1.5, \"battery\": 1}", Reason.NOT_A_TIME);
  }

  @Test
  void shouldRejectAValueThatIsNotANumberAsNotANumber() {
    assertRejected(
            gateway,
            "{\"deviceId\": \"gw\", \"ts\": 1, \"temperature\": \"21.5\", \"battery\": 1}",
            Reason.NOT_A_NUMBER)
        .hasMessageContaining("temperature");
  }

  @Test
  void shouldRejectASensorIdOrOffsetOfAnotherTypeAsWrongType() {
    assertRejected(gateway, "{\"deviceId\": true, \"ts\": 1, \"battery\": 1}", Reason.WRONG_TYPE);
    assertRejected(
        new JsonReadingDecoder(ReadingMapping.DEFAULT),
        "{\"sensor_id\": \"s\", \"timestamp\": 1, \"value\": 1, \"utc_offset_minutes\": \"+01:00\"}",
        Reason.WRONG_TYPE);
  }

  @Test
  void shouldRejectARecordWithoutAnyValueAsNoValues() {
    assertRejected(
        gateway, "{\"deviceId\": \"gw\", \"ts\": 1, \"humidity\": null}", Reason.NO_VALUES);
  }

  @Test
  void shouldRejectAnythingButOneJsonObjectAsMalformedJson() {
    for (final String notAnObject :
        List.of("", "[1, 2]", "42", "{\"deviceId\": ", "{} {}", "{\"a\": 1, \"a\": 2}")) {
      assertRejected(gateway, notAnObject, Reason.MALFORMED_JSON);
    }
    assertThatThrownBy(() -> gateway.readings((byte[]) null))
        .isInstanceOfSatisfying(
            InvalidReadingException.class,
            e -> assertThat(e.reason()).isEqualTo(Reason.MALFORMED_JSON));
  }

  private static List<Reading> decode(final JsonReadingDecoder decoder, final String json)
      throws InvalidReadingException {
    return decoder.readings(json.getBytes(StandardCharsets.UTF_8));
  }

  private static AbstractThrowableAssert<?, ? extends Throwable> assertRejected(
      final JsonReadingDecoder decoder, final String json, final Reason reason) {
    return assertThatThrownBy(() -> decode(decoder, json))
        .as(json)
        .isInstanceOfSatisfying(
            InvalidReadingException.class, e -> assertThat(e.reason()).isEqualTo(reason));
  }
}
