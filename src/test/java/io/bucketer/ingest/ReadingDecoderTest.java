package io.bucketer.ingest;

import static io.bucketer.ingest.HandEncoded.FULL_BODY;
import static io.bucketer.ingest.HandEncoded.FULL_READING;
import static io.bucketer.ingest.HandEncoded.framedAs42;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bucketer.avro.Reading;
import io.bucketer.ingest.InvalidReadingException.Reason;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;
import org.assertj.core.api.AbstractThrowableAssert;
import org.junit.jupiter.api.Test;

class ReadingDecoderTest {

  private final MapSchemaLookup lookup = new MapSchemaLookup().with(42, Reading.getClassSchema());
  private final ReadingDecoder decoder = new ReadingDecoder(lookup);

  @Test
  void shouldGiveAnOlderWriterWithoutOptionalFieldsTheReaderDefaults() throws Exception {
    final GenericRecord v0 =
        WriterSchemas.record(WriterSchemas.V0_WITHOUT_OPTIONAL_FIELDS, "s9", 1_000L, 20.5);

    final Reading reading = decodeAs(7, v0);

    assertThat(reading).isEqualTo(new Reading("s9", Instant.ofEpochMilli(1_000), 20.5, null, null));
  }

  @Test
  void shouldReadANewerWriterWithAnExtraDefaultedFieldSkippingIt() throws Exception {
    final GenericRecord v2 =
        WriterSchemas.record(
            WriterSchemas.V2_WITH_FIRMWARE, "s9", 1_000L, 20.5, "fw-1.2.3", "temperature", 120);

    final Reading reading = decodeAs(8, v2);

    assertThat(reading)
        .isEqualTo(new Reading("s9", Instant.ofEpochMilli(1_000), 20.5, "temperature", 120));
  }

  @Test
  void shouldPromoteAnIntValueAndReadAPlainLongTimestampAsMillis() throws Exception {
    final GenericRecord thrifty =
        WriterSchemas.record(WriterSchemas.INT_VALUE_PLAIN_LONG_TIME, "s9", 1_000L, 21);

    final Reading reading = decodeAs(9, thrifty);

    assertThat(reading.getValue()).isEqualTo(21.0);
    assertThat(reading.getTimestamp()).isEqualTo(Instant.ofEpochMilli(1_000));
  }

  @Test
  void shouldCallAValueAsStringAnIncompatibleSchema() throws Exception {
    final GenericRecord record =
        WriterSchemas.record(WriterSchemas.VALUE_AS_STRING, "s9", 1_000L, "20.5");

    assertRejected(framedWith(10, record), Reason.INCOMPATIBLE_SCHEMA)
        .hasMessageContaining("schema id 10")
        .hasMessageContaining("TYPE_MISMATCH");
  }

  @Test
  void shouldCallAMissingSensorIdWithoutDefaultAnIncompatibleSchema() throws Exception {
    final GenericRecord record =
        WriterSchemas.record(WriterSchemas.WITHOUT_SENSOR_ID, 1_000L, 20.5);

    assertRejected(framedWith(11, record), Reason.INCOMPATIBLE_SCHEMA)
        .hasMessageContaining("sensor_id");
  }

  @Test
  void shouldCallAMicrosecondTimestampAnIncompatibleSchemaNotAWrongInstant() throws Exception {
    final GenericRecord record =
        WriterSchemas.record(WriterSchemas.MICROS_TIMESTAMP, "s9", 1_000_000L, 20.5);

    assertRejected(framedWith(12, record), Reason.INCOMPATIBLE_SCHEMA)
        .hasMessageContaining("timestamp-micros");
  }

  @Test
  void shouldRememberAnIncompatibilityPerSchemaId() throws Exception {
    final byte[] framed =
        framedWith(13, WriterSchemas.record(WriterSchemas.VALUE_AS_STRING, "s9", 1L, "x"));
    final int before = lookup.calls();

    assertRejected(framed, Reason.INCOMPATIBLE_SCHEMA);
    assertRejected(framed, Reason.INCOMPATIBLE_SCHEMA);

    assertThat(lookup.calls() - before).isEqualTo(1);
  }

  @Test
  void shouldLookUpAWriterSchemaOncePerId() throws Exception {
    decoder.decode(framedAs42(FULL_BODY));
    decoder.decode(framedAs42(FULL_BODY));
    decoder.decode(framedAs42(FULL_BODY));

    assertThat(lookup.calls()).isEqualTo(1);
  }

  @Test
  void shouldCallATruncatedBodyMalformed() {
    final byte[] truncated = framedAs42(Arrays.copyOf(FULL_BODY, FULL_BODY.length - 1));

    assertRejected(truncated, Reason.MALFORMED_AVRO).hasMessageContaining("schema id 42");
  }

  @Test
  void shouldCallAHeaderWithoutBodyMalformed() {
    assertRejected(framedAs42(new byte[0]), Reason.MALFORMED_AVRO);
  }

  @Test
  void shouldCallTrailingBytesMalformed() {
    final byte[] body = Arrays.copyOf(FULL_BODY, FULL_BODY.length + 1);

    assertRejected(framedAs42(body), Reason.MALFORMED_AVRO).hasMessageContaining("left over");
  }

  @Test
  void shouldCallAnOverlongVarintMalformed() {
    final byte[] body = {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 0x01};

    assertRejected(framedAs42(body), Reason.MALFORMED_AVRO);
  }

  @Test
  void shouldCallANegativeStringLengthMalformed() {
    final byte[] body = FULL_BODY.clone();
    body[0] = 0x01; // zig-zag -1

    assertRejected(framedAs42(body), Reason.MALFORMED_AVRO);
  }

  @Test
  void shouldCallAUnionBranchOutOfRangeMalformed() {
    final byte[] body = FULL_BODY.clone();
    body[13] = 0x06; // metric's union has branches 0 and 1; this says 3

    assertRejected(framedAs42(body), Reason.MALFORMED_AVRO);
  }

  @Test
  void shouldReportAnUnknownSchemaId() {
    final byte[] framed = ConfluentWireFormat.frame(4711, FULL_BODY);

    assertRejected(framed, Reason.UNKNOWN_SCHEMA_ID);
  }

  @Test
  void shouldNotCallARegistryOutageBadData() {
    final ReadingDecoder offline =
        new ReadingDecoder(
            id -> {
              throw new SchemaRegistryUnavailableException("down", null);
            });

    assertThatThrownBy(() -> offline.decode(framedAs42(FULL_BODY)))
        .isInstanceOf(SchemaRegistryUnavailableException.class);
  }

  @Test
  void shouldDecodeConcurrentlyFromManyThreads() throws Exception {
    final GenericRecord v2 =
        WriterSchemas.record(WriterSchemas.V2_WITH_FIRMWARE, "s2", 5L, 2.0, "fw", null, null);
    final byte[] framedV2 = framedWith(8, v2);
    final byte[] framedV1 = framedAs42(FULL_BODY);
    final ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      final List<Future<Boolean>> results = new ArrayList<>();
      for (int task = 0; task < 4; task++) {
        results.add(
            pool.submit(
                () -> {
                  for (int i = 0; i < 500; i++) {
                    if (!decoder.decode(framedV1).equals(FULL_READING)
                        || !"s2".equals(decoder.decode(framedV2).getSensorId())) {
                      return false;
                    }
                  }
                  return true;
                }));
      }
      for (Future<Boolean> result : results) {
        assertThat(result.get()).isTrue();
      }
    } finally {
      pool.shutdownNow();
    }
  }

  private Reading decodeAs(final int schemaId, final GenericRecord record) throws Exception {
    return decoder.decode(framedWith(schemaId, record));
  }

  private byte[] framedWith(final int schemaId, final GenericRecord record) throws Exception {
    final Schema writer = record.getSchema();
    lookup.with(schemaId, writer);
    return ConfluentWireFormat.frame(schemaId, WriterSchemas.body(record));
  }

  private AbstractThrowableAssert<?, ? extends Throwable> assertRejected(
      final byte[] framed, final Reason reason) {
    return assertThatThrownBy(() -> decoder.decode(framed))
        .isInstanceOfSatisfying(
            InvalidReadingException.class, e -> assertThat(e.reason()).isEqualTo(reason));
  }
}
