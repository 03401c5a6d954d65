package io.bucketer.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.bucketer.avro.Reading;
import io.bucketer.buckets.ClosedBucket;
import io.bucketer.buckets.Measurement;
import io.bucketer.ingest.ConfluentWireFormat;
import io.bucketer.ingest.InvalidReadingException;
import io.bucketer.ingest.InvalidReadingException.Reason;
import io.bucketer.ingest.ReadingDecoder;
import io.bucketer.metrics.BucketerMetrics;
import io.bucketer.testing.FramedReadings;
import io.bucketer.topics.DeadLetterHeaders;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bad input goes to the dead-letter topic with its reason, its origin and its original bytes, is
 * counted by reason, and does not stop the stream. The checks are {@link BucketTopologyTest#CHECKS}
 * (bucketer's defaults) and the mock wall clock starts at {@link #NOW}.
 */
class BadInputTest {

  private static final Instant NOW = Instant.parse("2025-06-01T12:00:00Z");
  private static final int READING_SCHEMA_ID = 7; // what BucketTopologyTest.frame writes
  private static final int NULLABLE_SENSOR_SCHEMA_ID = 8;
  private static final byte[] KEY = "gateway-17".getBytes(StandardCharsets.UTF_8);

  /** A producer whose schema lets sensor_id be null, which the reader schema does not. */
  private static final Schema NULLABLE_SENSOR_ID =
      new Schema.Parser()
          .parse(
              "{\"type\":\"record\",\"name\":\"Reading\",\"namespace\":\"io.bucketer.avro\","
                  + "\"fields\":[{\"name\":\"sensor_id\",\"type\":[\"null\",\"string\"]},"
                  + "{\"name\":\"timestamp\","
                  + "\"type\":{\"type\":\"long\",\"logicalType\":\"timestamp-millis\"}},"
                  + "{\"name\":\"value\",\"type\":\"double\"}]}");

  @TempDir Path stateDir;

  private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
  private final AtomicInteger schemaLookups = new AtomicInteger();
  private TopologyTestDriver driver;
  private TestInputTopic<byte[], byte[]> input;
  private TestOutputTopic<String, ClosedBucket> buckets;
  private TestOutputTopic<byte[], byte[]> deadLetters;

  @BeforeEach
  void startDriver() {
    driver =
        TopologyTopics.driver(
            stateDir, () -> new ReadingDecoder(this::schemaById), new BucketerMetrics(meters), NOW);
    final TopologyTopics topics = TopologyTopics.of(driver);
    input = topics.input();
    buckets = topics.buckets();
    deadLetters = topics.deadLetters();
  }

  @AfterEach
  void closeDriver() {
    driver.close();
  }

  @Test
  void shouldDeadLetterAnOversizedRecordWithoutDecodingIt() {
    // A valid reading with padding: decoded, it would be malformed-avro (bytes left over).
    final byte[] oversized = padded(frame(reading("s1", "10:00:00", 1.0)), 65_537);

    input.pipeInput(KEY, oversized);

    assertDeadLettered(ReadingChecks.RECORD_TOO_LARGE, 0, KEY, oversized);
    assertThat(schemaLookups.get()).as("schema lookups for the oversized record").isZero();
    assertProcessingContinues();
  }

  @Test
  void shouldDecodeARecordOfExactlyTheLimit() {
    final byte[] atLimit = padded(frame(reading("s1", "10:00:00", 1.0)), 65_536);

    input.pipeInput(KEY, atLimit);

    // Decoded, so the padding makes it malformed rather than too large.
    assertDeadLettered(Reason.MALFORMED_AVRO.label(), 0, KEY, atLimit);
    assertThat(deadLetterCount(ReadingChecks.RECORD_TOO_LARGE)).isZero();
  }

  @Test
  void shouldDeadLetterAReadingBeforeTheTimestampFloor() {
    final byte[] unsetClock = frame(reading("s1", Instant.EPOCH, 1.0));
    final byte[] justBefore = frame(reading("s1", Instant.parse("1999-12-31T23:59:59.999Z"), 1.0));
    final byte[] atFloor = frame(reading("s9", Instant.parse("2000-01-01T00:00:00Z"), 1.0));

    input.pipeInput(KEY, unsetClock);
    input.pipeInput(null, justBefore);
    input.pipeInput(null, atFloor);

    final List<TestRecord<byte[], byte[]>> dead = deadLetters.readRecordsToList();
    assertThat(dead).hasSize(2);
    assertDeadLetter(dead.get(0), ReadingChecks.TIMESTAMP_BEFORE_FLOOR, 0, KEY, unsetClock);
    assertDeadLetter(dead.get(1), ReadingChecks.TIMESTAMP_BEFORE_FLOOR, 1, null, justBefore);
    assertThat(header(dead.get(0), DeadLetterHeaders.MESSAGE))
        .contains("1970-01-01T00:00:00Z", "2000-01-01T00:00:00Z");
    assertThat(deadLetterCount(ReadingChecks.TIMESTAMP_BEFORE_FLOOR)).isEqualTo(2.0);
    assertProcessingContinues();
  }

  @Test
  void shouldDeadLetterAReadingFurtherAheadOfTheWallClockThanTheAllowedSkew() {
    final byte[] tooFar = frame(reading("s1", NOW.plus(Duration.ofHours(1)).plusMillis(1), 1.0));
    final byte[] atSkew = frame(reading("s9", NOW.plus(Duration.ofHours(1)), 1.0));

    input.pipeInput(KEY, tooFar);
    input.pipeInput(KEY, atSkew);

    assertDeadLettered(ReadingChecks.TIMESTAMP_IN_FUTURE, 0, KEY, tooFar);
    assertThat(deadLetterCount(ReadingChecks.TIMESTAMP_IN_FUTURE)).isEqualTo(1.0);
    assertProcessingContinues();
  }

  @Test
  void shouldJudgeTheFutureByTheProcessorsWallClock() {
    final byte[] aheadByAnHourAndASecond =
        frame(reading("s1", NOW.plus(Duration.ofHours(1)).plusSeconds(1), 1.0));
    input.pipeInput(KEY, aheadByAnHourAndASecond);
    assertThat(deadLetters.readRecordsToList()).hasSize(1);

    driver.advanceWallClockTime(Duration.ofSeconds(1));
    input.pipeInput(KEY, aheadByAnHourAndASecond);

    assertThat(deadLetters.isEmpty()).as("the same reading, a second later").isTrue();
    assertThat(deadLetterCount(ReadingChecks.TIMESTAMP_IN_FUTURE)).isEqualTo(1.0);
  }

  @Test
  void shouldDeadLetterAnUnknownSchemaId() {
    final byte[] unknown = ConfluentWireFormat.frame(99, new byte[] {2, 'x'});

    input.pipeInput(KEY, unknown);

    assertDeadLettered(Reason.UNKNOWN_SCHEMA_ID.label(), 0, KEY, unknown);
    assertProcessingContinues();
  }

  @Test
  void shouldDeadLetterAWhitespaceOnlySensorId() {
    final byte[] blank = frame(reading(" \t", "10:00:00", 1.0));

    input.pipeInput(KEY, blank);

    assertDeadLettered(ReadingChecks.INVALID_SENSOR_ID, 0, KEY, blank);
    assertProcessingContinues();
  }

  /**
   * Avro's string cannot be null, so a null sensor id needs a writer schema that allows one. The
   * decoder checks every writer schema against the reader schema before reading, and a nullable
   * sensor_id cannot be read as a string: all its records, null or not, are incompatible-schema.
   */
  @Test
  void shouldDeadLetterANullSensorIdAsIncompatibleSchema() throws Exception {
    final byte[] nullId = frameNullable(null);
    final byte[] withId = frameNullable("s1");

    input.pipeInput(KEY, nullId);
    input.pipeInput(KEY, withId);

    final List<TestRecord<byte[], byte[]>> dead = deadLetters.readRecordsToList();
    assertThat(dead).hasSize(2);
    assertDeadLetter(dead.get(0), Reason.INCOMPATIBLE_SCHEMA.label(), 0, KEY, nullId);
    assertDeadLetter(dead.get(1), Reason.INCOMPATIBLE_SCHEMA.label(), 1, KEY, withId);
    assertThat(header(dead.get(0), DeadLetterHeaders.MESSAGE))
        .contains("writer schema id " + NULLABLE_SENSOR_SCHEMA_ID, "/fields/0[sensor_id]");
    assertThat(deadLetterCount(Reason.INCOMPATIBLE_SCHEMA.label())).isEqualTo(2.0);
    assertProcessingContinues();
  }

  private Schema schemaById(final int id) throws InvalidReadingException {
    schemaLookups.incrementAndGet();
    return switch (id) {
      case READING_SCHEMA_ID -> Reading.getClassSchema();
      case NULLABLE_SENSOR_SCHEMA_ID -> NULLABLE_SENSOR_ID;
      default -> throw new InvalidReadingException(Reason.UNKNOWN_SCHEMA_ID, "no schema " + id);
    };
  }

  /** A good reading after the bad ones still ends in a bucket, and nothing else dead-letters. */
  private void assertProcessingContinues() {
    input.pipeInput(null, frame(reading("good", "10:00:05", 42.0)));
    input.pipeInput(null, frame(reading("good", "10:01:10", 0.0))); // closes [10:00, 10:01)

    final List<ClosedBucket> closed = buckets.readValuesToList();
    assertThat(closed)
        .filteredOn(b -> b.series().sensorId().equals("good"))
        .singleElement()
        .satisfies(
            bucket ->
                assertThat(bucket.measurements())
                    .containsExactly(new Measurement(at("10:00:05").toEpochMilli(), 42.0)));
    assertThat(deadLetters.isEmpty()).isTrue();
  }

  /** The only dead letter so far, checked in full. */
  private void assertDeadLettered(
      final String reason, final long offset, final byte[] key, final byte[] value) {
    final List<TestRecord<byte[], byte[]>> dead = deadLetters.readRecordsToList();
    assertThat(dead).hasSize(1);
    assertDeadLetter(dead.get(0), reason, offset, key, value);
    assertThat(deadLetterCount(reason)).isEqualTo(1.0);
  }

  private static void assertDeadLetter(
      final TestRecord<byte[], byte[]> dead,
      final String reason,
      final long offset,
      final byte[] key,
      final byte[] value) {
    assertThat(header(dead, DeadLetterHeaders.REASON)).isEqualTo(reason);
    assertThat(header(dead, DeadLetterHeaders.MESSAGE)).isNotBlank();
    assertThat(header(dead, DeadLetterHeaders.SOURCE_TOPIC)).isEqualTo("iot.readings");
    assertThat(header(dead, DeadLetterHeaders.SOURCE_PARTITION)).isEqualTo("0");
    assertThat(header(dead, DeadLetterHeaders.SOURCE_OFFSET)).isEqualTo(Long.toString(offset));
    assertThat(dead.key()).isEqualTo(key);
    assertThat(dead.value()).isEqualTo(value);
  }

  /** Read from the meter registry, as an exporter would see it. */
  private double deadLetterCount(final String reason) {
    final Counter counter =
        meters.find(BucketerMetrics.DEAD_LETTERS).tag("reason", reason).counter();
    return counter == null ? 0 : counter.count();
  }

  private static String header(final TestRecord<?, ?> record, final String name) {
    final Header header = record.headers().lastHeader(name);
    return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
  }

  private static byte[] frame(final Reading reading) {
    return BucketTopologyTest.frame(reading);
  }

  private static byte[] frameNullable(final String sensorId) throws IOException {
    final GenericRecord record = new GenericData.Record(NULLABLE_SENSOR_ID);
    record.put("sensor_id", sensorId);
    record.put("timestamp", at("10:00:00").toEpochMilli());
    record.put("value", 1.0);
    final ByteArrayOutputStream body = new ByteArrayOutputStream();
    final BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(body, null);
    new GenericDatumWriter<GenericRecord>(NULLABLE_SENSOR_ID).write(record, encoder);
    encoder.flush();
    return ConfluentWireFormat.frame(NULLABLE_SENSOR_SCHEMA_ID, body.toByteArray());
  }

  private static byte[] padded(final byte[] framed, final int length) {
    return Arrays.copyOf(framed, length);
  }

  private static Instant at(final String time) {
    return Instant.parse("2025-06-01T" + time + "Z");
  }

  private static Reading reading(final String sensor, final String time, final double value) {
    return reading(sensor, at(time), value);
  }

  private static Reading reading(final String sensor, final Instant time, final double value) {
    return FramedReadings.temperature(sensor, time, value);
  }
}
