package io.bucketer.deadletters;

import static org.assertj.core.api.Assertions.assertThat;

import io.bucketer.buckets.TestBuckets;
import io.bucketer.ingest.ConfluentWireFormat;
import io.bucketer.ingest.FieldPath;
import io.bucketer.ingest.InputFormat;
import io.bucketer.ingest.InvalidReadingException;
import io.bucketer.ingest.ReadingMapping;
import io.bucketer.ingest.SchemaLookup;
import io.bucketer.ingest.formats.InputDecoders;
import io.bucketer.topics.ClosedBucketSerde;
import io.bucketer.topics.DeadLetterHeaders;
import java.io.ByteArrayOutputStream;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.junit.jupiter.api.Test;

class DeadLetterDecodingTest {

  private static final Instant NINE = Instant.parse("2025-06-01T09:00:00Z");
  private static final String GATEWAY_JSON =
      "{\"device\":\"gw-1\",\"metric\":\"temperature\",\"timestamp\":\"2025-06-01T09:00:00Z\",\"value\":21.5}";
  private static final ReadingMapping DEVICE_MAPPING =
      new ReadingMapping(
          FieldPath.parse("device"),
          FieldPath.parse("timestamp"),
          Optional.of(FieldPath.parse("metric")),
          Optional.empty(),
          List.of(FieldPath.parse("value")));

  @Test
  void shouldSayWhyAJsonRecordStillFailsWithTheMappingThatRejectedIt() {
    final DeadLetterDecoding.View view =
        json(ReadingMapping.DEFAULT).view(letter("missing-field", GATEWAY_JSON));

    assertThat(view.content()).isEqualTo(GATEWAY_JSON);
    assertThat(view.decodesNow()).startsWith("no: missing-field: ");
  }

  @Test
  void shouldShowTheReadingsAJsonRecordGivesOnceTheMappingIsFixed() {
    final DeadLetterDecoding.View view =
        json(DEVICE_MAPPING).view(letter("missing-field", GATEWAY_JSON));

    assertThat(view.decodesNow())
        .isEqualTo("1 reading: gw-1/temperature 2025-06-01T09:00:00Z 21.5");
  }

  @Test
  void shouldShowAnAvroValueByItsWriterSchemaWhateverTheMapping() throws Exception {
    final Schema gateway =
        SchemaBuilder.record("Gateway")
            .fields()
            .requiredString("device")
            .requiredLong("ts")
            .requiredDouble("temp")
            .endRecord();
    final GenericRecord record = new GenericData.Record(gateway);
    record.put("device", "gw-1");
    record.put("ts", NINE.toEpochMilli());
    record.put("temp", 21.5);
    final SchemaLookup registry =
        id -> {
          if (id != 7) {
            throw new InvalidReadingException(
                InvalidReadingException.Reason.UNKNOWN_SCHEMA_ID, "no schema " + id);
          }
          return gateway;
        };
    final DeadLetterDecoding decoding =
        new DeadLetterDecoding(
            InputFormat.AVRO,
            Optional.of(InputDecoders.of(InputFormat.AVRO, ReadingMapping.DEFAULT, registry)),
            Optional.of(registry),
            200);

    final DeadLetterDecoding.View known =
        decoding.view(letter("missing-field", ConfluentWireFormat.frame(7, avro(record))));
    final DeadLetterDecoding.View unknown =
        decoding.view(letter("unknown-schema-id", ConfluentWireFormat.frame(8, avro(record))));

    assertThat(known.content())
        .isEqualTo(
            "Avro, writer schema id 7: {\"device\": \"gw-1\", \"ts\": 1748768400000, \"temp\": 21.5}");
    assertThat(known.decodesNow()).startsWith("no: missing-field: ");
    assertThat(unknown.content())
        .startsWith("Avro, writer schema id 8 (unknown-schema-id): hex 00 00 00 00 08");
    assertThat(unknown.decodesNow()).startsWith("no: unknown-schema-id: ");
  }

  @Test
  void shouldShowBytesThatAreNothingTheFormatKnowsAsHexWithinTheLimit() {
    final DeadLetterDecoding.View view =
        new DeadLetterDecoding(InputFormat.JSON, Optional.empty(), Optional.empty(), 4)
            .view(letter("malformed-json", new byte[] {(byte) 0xc3, 0x28, 1, 2, 3, 4, 5}));

    assertThat(view.content()).isEqualTo("hex c3 28 01 02 … (7 bytes)");
  }

  @Test
  void shouldSayWhatTheRecordsThatAreNoInputRecordsAre() {
    final DeadLetterDecoding decoding = json(ReadingMapping.DEFAULT);
    final byte[] bucket =
        ClosedBucketSerde.encode(
            TestBuckets.bucket(
                "s-1", "temperature", TestBuckets.MINUTE, TestBuckets.START, null, 1, 2, 3));

    final DeadLetterDecoding.View tooLate =
        decoding.view(letter(DeadLetterHeaders.TOO_LATE, "{\"sensor_id\":\"s-1\"}"));
    final DeadLetterDecoding.View rejected =
        decoding.view(letter(DeadLetterHeaders.MONGODB_REJECTED, bucket));

    assertThat(tooLate.content()).isEqualTo("a reading as JSON: {\"sensor_id\":\"s-1\"}");
    assertThat(tooLate.decodesNow()).startsWith("not an input record");
    assertThat(rejected.content())
        .isEqualTo(
            "bucket [\"1m\",1699999980000,\"s-1\",\"temperature\",0] revision 0, 3 readings");
    assertThat(rejected.decodesNow()).startsWith("not an input record");
  }

  @Test
  void shouldNotTryToDecodeSparkplugWithoutItsBirths() {
    final DeadLetterDecoding.View view =
        new DeadLetterDecoding(InputFormat.SPARKPLUG_B, Optional.empty(), Optional.empty(), 50)
            .view(letter("unknown-alias", new byte[] {8, 1}));

    assertThat(view.decodesNow()).contains("not tried").contains("births");
  }

  private static DeadLetterDecoding json(final ReadingMapping mapping) {
    return new DeadLetterDecoding(
        InputFormat.JSON,
        Optional.of(InputDecoders.of(InputFormat.JSON, mapping, null)),
        Optional.empty(),
        200);
  }

  private static DeadLetter letter(final String reason, final String value) {
    return letter(reason, DeadLetters.utf8(value));
  }

  private static DeadLetter letter(final String reason, final byte[] value) {
    final DeadLetter shape = DeadLetters.rejected(0, 1, NINE, reason, 0, 1, "");
    return new DeadLetter(shape.topic(), 0, 1, NINE.toEpochMilli(), null, value, shape.headers());
  }

  private static byte[] avro(final GenericRecord record) throws Exception {
    final ByteArrayOutputStream out = new ByteArrayOutputStream();
    final BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, null);
    new GenericDatumWriter<GenericRecord>(record.getSchema()).write(record, encoder);
    encoder.flush();
    return out.toByteArray();
  }
}
