package io.bucketer.ingest;

import static io.bucketer.ingest.MappedAvroDecoderTest.mapping;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bucketer.avro.Reading;
import io.bucketer.ingest.InvalidReadingException.Reason;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.assertj.core.api.AbstractThrowableAssert;
import org.junit.jupiter.api.Test;

class JsonSchemaDecoderTest {

  private static final Instant TIME = Instant.parse("2025-06-01T09:00:00Z");
  private static final int SCHEMA_ID = 11;
  private static final ReadingMapping GATEWAY = mapping("deviceId", "ts", null, "temperature");

  /** The units are a schema of their own, which the gateway's $refs by its reference name. */
  private static final SchemaText UNITS =
      SchemaText.of(
          SchemaText.JSON,
          """
          {"$id": "https://example.com/celsius.json", "type": "number", "minimum": -273.15}""");

  private static final SchemaText GATEWAY_SCHEMA =
      new SchemaText(
          SchemaText.JSON,
          """
          {"$schema": "https://json-schema.org/draft/2020-12/schema",
           "type": "object", "required": ["deviceId", "ts"],
           "properties": {
             "deviceId": {"type": "string", "minLength": 1},
             "ts": {"type": "string"},
             "temperature": {"$ref": "https://example.com/celsius.json"}}}""",
          List.of(new SchemaText.Reference("https://example.com/celsius.json", "celsius", 1)));

  private final Registry registry = new Registry();
  private final JsonSchemaDecoder plain = new JsonSchemaDecoder(GATEWAY, Optional.empty());
  private final JsonSchemaDecoder validating =
      new JsonSchemaDecoder(GATEWAY, Optional.of(new JsonSchemaValidator(registry)));

  @Test
  void shouldReadTheFramedBodyAsJsonIsReadWithoutAskingTheRegistry() throws Exception {
    final byte[] record =
        framed("{\"deviceId\": \"gw-1\", \"ts\": \"2025-06-01T09:00:00Z\", \"temperature\": 21.5}");

    assertThat(plain.readings(record))
        .containsExactly(new Reading("gw-1", TIME, 21.5, "temperature", null));
    assertThat(validating.readings(record))
        .containsExactly(new Reading("gw-1", TIME, 21.5, "temperature", null));
    assertThat(registry.calls.get()).as("the schema and its reference, once").isEqualTo(2);
  }

  @Test
  void shouldDeadLetterAnUnframedOrMalformedBodyAsJsonWould() {
    assertRejected(
        plain, "{\"deviceId\": 1}".getBytes(StandardCharsets.UTF_8), Reason.NOT_WIRE_FORMAT);
    assertRejected(plain, framed("[1, 2]"), Reason.MALFORMED_JSON);
    assertRejected(
            plain,
            framed("{\"ts\": \"2025-06-01T09:00:00Z\", \"temperature\": 1}"),
            Reason.MISSING_FIELD)
        .hasMessageContaining("deviceId");
  }

  @Test
  void shouldNotValidateUnlessAsked() throws Exception {
    assertThat(
            plain.readings(
                framed(
                    "{\"deviceId\": \"gw-1\", \"ts\": 1748768400000," + " \"temperature\": -300}")))
        .extracting(Reading::getValue)
        .containsExactly(-300.0);
    assertThat(registry.calls.get()).isZero();
  }

  @Test
  void shouldDeadLetterABodyThatBreaksItsSchemaNamingThePathAndTheRule() {
    assertRejected(
            validating,
            framed(
                "{\"deviceId\": \"gw-1\", \"ts\": \"2025-06-01T09:00:00Z\", \"temperature\": -300}"),
            Reason.SCHEMA_VIOLATION)
        .hasMessageContaining("schema id 11")
        .hasMessageContaining("at /temperature")
        .hasMessageContaining("rule minimum");
    assertRejected(
            validating,
            framed("{\"deviceId\": \"\", \"ts\": \"2025-06-01T09:00:00Z\"}"),
            Reason.SCHEMA_VIOLATION)
        .hasMessageContaining("at /deviceId")
        .hasMessageContaining("rule minLength");
  }

  @Test
  void shouldRefuseEveryRecordOfASchemaThatIsNotJsonOrUnknown() {
    registry.byId.put(12, SchemaText.of(SchemaText.PROTOBUF, "message M {}"));
    registry.byId.put(13, SchemaText.of(SchemaText.JSON, "{not json"));
    assertRejected(validating, framed(12, "{}"), Reason.INCOMPATIBLE_SCHEMA)
        .hasMessageContaining("PROTOBUF schema, not JSON");
    assertRejected(validating, framed(12, "{}"), Reason.INCOMPATIBLE_SCHEMA);
    assertRejected(validating, framed(13, "{}"), Reason.INCOMPATIBLE_SCHEMA)
        .hasMessageContaining("schema id 13 is not JSON");
    assertRejected(validating, framed(14, "{}"), Reason.UNKNOWN_SCHEMA_ID);
    assertThat(registry.calls.get()).as("rejections remembered, unknown ids not").isEqualTo(3);
  }

  @Test
  void shouldRefuseASchemaWhoseRefIsNoRegisteredReferenceWithoutFetchingIt() {
    registry.byId.put(
        15,
        SchemaText.of(
            SchemaText.JSON,
            """
            {"type": "object", "properties": {"v": {"$ref": "http://127.0.0.1:9/v.json"}}}"""));

    assertRejected(validating, framed(15, "{\"v\": 1}"), Reason.INCOMPATIBLE_SCHEMA)
        .hasMessageContaining("schema id 15");
  }

  /** What bucketer check says of a subject's latest JSON schema, before any record comes. */
  @Test
  void shouldTellCheckWhetherAJsonSchemaCanGiveReadings() throws Exception {
    final JsonSchemaValidator validator = new JsonSchemaValidator(registry);
    registry.byId.put(
        16,
        SchemaText.of(
            SchemaText.JSON,
            """
            {"type": "object", "additionalProperties": false,
             "properties": {"deviceId": {"type": "string"}, "humidity": {"type": "number"}}}"""));
    registry.byId.put(17, SchemaText.of(SchemaText.JSON, "{\"type\": \"object\"}"));
    registry.byId.put(13, SchemaText.of(SchemaText.JSON, "{not json"));

    assertThat(validator.mismatch(SCHEMA_ID, GATEWAY)).as("declares every field").isEmpty();
    assertThat(validator.mismatch(17, GATEWAY)).as("open: any field is allowed").isEmpty();
    assertThat(validator.mismatch(16, GATEWAY))
        .hasValue(
            "schema id 16 allows no other properties than its own, and has no ts and no any of"
                + " temperature: every record of it would be dead-lettered");
    assertThat(validator.mismatch(13, GATEWAY))
        .get()
        .asString()
        .contains("schema id 13 is not JSON");
    assertThatThrownBy(() -> validator.mismatch(14, GATEWAY))
        .isInstanceOfSatisfying(
            InvalidReadingException.class,
            e -> assertThat(e.reason()).isEqualTo(Reason.UNKNOWN_SCHEMA_ID));
  }

  @Test
  void shouldNeverHoldAnUnreachableRegistryAgainstTheSchema() throws Exception {
    registry.down = true;
    final byte[] record =
        framed("{\"deviceId\": \"gw-1\", \"ts\": \"2025-06-01T09:00:00Z\", \"temperature\": 1}");
    assertThatThrownBy(() -> validating.readings(record))
        .isInstanceOf(SchemaRegistryUnavailableException.class);

    registry.down = false;
    assertThat(validating.readings(record)).hasSize(1);
  }

  private static byte[] framed(final String body) {
    return framed(SCHEMA_ID, body);
  }

  private static byte[] framed(final int schemaId, final String body) {
    return ConfluentWireFormat.frame(schemaId, body.getBytes(StandardCharsets.UTF_8));
  }

  private static AbstractThrowableAssert<?, ? extends Throwable> assertRejected(
      final JsonSchemaDecoder decoder, final byte[] record, final Reason reason) {
    return assertThatThrownBy(() -> decoder.readings(record))
        .isInstanceOfSatisfying(
            InvalidReadingException.class, e -> assertThat(e.reason()).isEqualTo(reason));
  }

  private static final class Registry implements SchemaTextLookup {
    private final Map<Integer, SchemaText> byId = new HashMap<>(Map.of(SCHEMA_ID, GATEWAY_SCHEMA));
    private final AtomicInteger calls = new AtomicInteger();
    private volatile boolean down;

    @Override
    public SchemaText schemaTextById(final int id) throws InvalidReadingException {
      calls.incrementAndGet();
      if (down) {
        throw new SchemaRegistryUnavailableException("registry down", null);
      }
      final SchemaText schema = byId.get(id);
      if (schema == null) {
        throw new InvalidReadingException(Reason.UNKNOWN_SCHEMA_ID, "no schema " + id);
      }
      return schema;
    }

    @Override
    public SchemaText schemaTextByVersion(final String subject, final int version) {
      calls.incrementAndGet();
      assertThat(subject + "/" + version).isEqualTo("celsius/1");
      return UNITS;
    }
  }
}
