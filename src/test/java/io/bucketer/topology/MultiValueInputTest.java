package io.bucketer.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.bucketer.buckets.ClosedBucket;
import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.Measurement;
import io.bucketer.buckets.SeriesKey;
import io.bucketer.ingest.ConfluentWireFormat;
import io.bucketer.ingest.FieldPath;
import io.bucketer.ingest.InputDecoder;
import io.bucketer.ingest.InputFormat;
import io.bucketer.ingest.InvalidReadingException;
import io.bucketer.ingest.InvalidReadingException.Reason;
import io.bucketer.ingest.ReadingMapping;
import io.bucketer.ingest.SensorIdSource;
import io.bucketer.ingest.formats.InputDecoders;
import io.bucketer.metrics.BucketerMetrics;
import io.bucketer.topics.DeadLetterHeaders;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A gateway's record of several values, in Avro and in JSON, becomes one reading per value, each
 * bucketed in its own series; a record the mapping cannot read, or one of whose readings fails a
 * check, goes to the dead-letter topic once, whole.
 */
class MultiValueInputTest {

  private static final Instant NOW = Instant.parse("2025-06-01T12:00:00Z");
  private static final int GATEWAY_SCHEMA_ID = 21;
  private static final Granularity MINUTE = Granularity.parse("1m");

  private static final Schema GATEWAY =
      SchemaBuilder.record("GatewayReading")
          .namespace("com.example.gateway")
          .fields()
          .optionalString("deviceId")
          .requiredLong("ts")
          .optionalDouble("temperature")
          .optionalDouble("humidity")
          .optionalInt("battery")
          .endRecord();

  /** input.metric.field= and input.value.fields=temperature,humidity,battery. */
  private static final ReadingMapping MAPPING =
      new ReadingMapping(
          FieldPath.parse("deviceId"),
          FieldPath.parse("ts"),
          Optional.empty(),
          Optional.empty(),
          List.of(
              FieldPath.parse("temperature"),
              FieldPath.parse("humidity"),
              FieldPath.parse("battery")));

  @TempDir Path stateDir;

  private TopologyTestDriver driver;
  private TestInputTopic<byte[], byte[]> input;
  private TestOutputTopic<String, ClosedBucket> buckets;
  private TestOutputTopic<byte[], byte[]> deadLetters;

  @AfterEach
  void closeDriver() {
    driver.close();
  }

  @Test
  void shouldBucketEachValueOfAnAvroGatewayRecordInItsOwnSeries() {
    start(InputFormat.AVRO);

    input.pipeInput(null, avro("gw-1", "10:00:05", 21.5, 40.0, 97));
    input.pipeInput(null, avro("gw-1", "10:01:10", 22.0, 41.0, 96)); // closes [10:00, 10:01)

    assertThat(closedMinutes())
        .containsExactlyInAnyOrder(
            minute("temperature", "10:00:05", 21.5),
            minute("humidity", "10:00:05", 40.0),
            minute("battery", "10:00:05", 97.0));
    assertThat(deadLetters.isEmpty()).isTrue();
  }

  @Test
  void shouldBucketEachValueOfAJsonRecordAndSkipItsNullValues() {
    start(InputFormat.JSON);

    input.pipeInput(
        null,
        json(
            """
            {"deviceId": "gw-1", "ts": "2025-06-01T10:00:05Z",
             "temperature": 21.5, "humidity": null, "battery": 97}"""));
    input.pipeInput(
        null,
        json(
            """
            {"deviceId": "gw-1", "ts": "2025-06-01T12:01:10+02:00",
             "temperature": 22.0, "battery": 96}"""));

    assertThat(closedMinutes())
        .containsExactlyInAnyOrder(
            minute("temperature", "10:00:05", 21.5), minute("battery", "10:00:05", 97.0));
    assertThat(deadLetters.isEmpty()).isTrue();
  }

  /** Forwarding the other two would make a replay of the dead letter count them twice. */
  @Test
  void shouldDeadLetterTheWholeRecordOnceWhenOneOfItsReadingsFailsACheck() {
    start(InputFormat.AVRO);
    final byte[] nanTemperature = avro("gw-1", "10:00:05", Double.NaN, 40.0, 97);

    input.pipeInput(null, nanTemperature);
    input.pipeInput(null, avro("gw-1", "10:01:10", 22.0, 41.0, 96));

    final List<TestRecord<byte[], byte[]>> dead = deadLetters.readRecordsToList();
    assertThat(dead)
        .singleElement()
        .satisfies(d -> assertThat(d.value()).isEqualTo(nanTemperature));
    assertThat(header(dead.get(0), DeadLetterHeaders.REASON))
        .isEqualTo(ReadingChecks.INVALID_VALUE);
    assertThat(header(dead.get(0), DeadLetterHeaders.MESSAGE)).contains("temperature");
    assertThat(buckets.readValuesToList()).isEmpty();
  }

  @Test
  void shouldDeadLetterARecordTheMappingCannotReadWithItsReason() {
    start(InputFormat.AVRO);
    final byte[] withoutDevice = avro(null, "10:00:05", 21.5, 40.0, 97);
    final byte[] withoutValues = avro("gw-1", "10:00:05", null, null, null);

    input.pipeInput(null, withoutDevice);
    input.pipeInput(null, withoutValues);

    assertThat(deadLetters.readRecordsToList())
        .extracting(d -> header(d, DeadLetterHeaders.REASON), TestRecord::value)
        .containsExactly(
            tuple(Reason.MISSING_FIELD.label(), withoutDevice),
            tuple(Reason.NO_VALUES.label(), withoutValues));
  }

  @Test
  void shouldDeadLetterAJsonValueThatIsNotAnObjectAsMalformedJson() {
    start(InputFormat.JSON);
    final byte[] array = json("[21.5, 40.0]");

    input.pipeInput(null, array);

    assertThat(deadLetters.readRecordsToList())
        .singleElement()
        .satisfies(
            d -> {
              assertThat(header(d, DeadLetterHeaders.REASON))
                  .isEqualTo(Reason.MALFORMED_JSON.label());
              assertThat(d.value()).isEqualTo(array);
            });
  }

  /**
   * A bridge that puts the device in a header (input.sensor.id.from=header:device with prefix
   * site-a/) and every number in the payload (input.value.fields=*): the header reaches the
   * decoder.
   */
  @Test
  void shouldTakeTheSensorIdFromAHeaderAndEveryNumberAsAValue() {
    start(
        InputFormat.JSON,
        new ReadingMapping(
            FieldPath.parse("deviceId"),
            FieldPath.parse("ts"),
            Optional.empty(),
            Optional.empty(),
            List.of(),
            true,
            SensorIdSource.parse("header:device", "site-a/")));
    final byte[] noHeader = json("{\"ts\": \"2025-06-01T10:00:07Z\", \"battery\": 90}");

    input.pipeInput(withDevice("{\"ts\": \"2025-06-01T10:00:05Z\", \"temperature\": 21.5}"));
    input.pipeInput(null, noHeader);
    input.pipeInput(withDevice("{\"ts\": \"2025-06-01T10:01:10Z\", \"temperature\": 22}"));

    assertThat(closedMinutes()).containsExactly(minute("temperature", "10:00:05", 21.5));
    assertThat(deadLetters.readRecordsToList())
        .extracting(d -> header(d, DeadLetterHeaders.REASON), TestRecord::value)
        .containsExactly(tuple(Reason.NO_SENSOR_ID.label(), noHeader));
  }

  private static TestRecord<byte[], byte[]> withDevice(final String payload) {
    return new TestRecord<byte[], byte[]>(
        null,
        json(payload),
        new RecordHeaders().add("device", "site-a/gw-1".getBytes(StandardCharsets.UTF_8)));
  }

  private void start(final InputFormat format) {
    start(format, MAPPING);
  }

  private void start(final InputFormat format, final ReadingMapping mapping) {
    final Supplier<InputDecoder> decoders =
        () ->
            InputDecoders.of(
                format,
                mapping,
                id -> {
                  if (id != GATEWAY_SCHEMA_ID) {
                    throw new InvalidReadingException(Reason.UNKNOWN_SCHEMA_ID, "no " + id);
                  }
                  return GATEWAY;
                });
    driver =
        TopologyTopics.driver(
            stateDir, decoders, new BucketerMetrics(new SimpleMeterRegistry()), NOW);
    final TopologyTopics topics = TopologyTopics.of(driver);
    input = topics.input();
    buckets = topics.buckets();
    deadLetters = topics.deadLetters();
  }

  /** The closed minutes, as series, start and measurements. */
  private List<String> closedMinutes() {
    return buckets.readValuesToList().stream()
        .filter(bucket -> bucket.granularity().equals(MINUTE))
        .map(b -> b.series() + " " + Instant.ofEpochMilli(b.windowStart()) + " " + b.measurements())
        .toList();
  }

  private static String minute(final String metric, final String time, final double value) {
    return new SeriesKey("gw-1", metric)
        + " "
        + at("10:00:00")
        + " "
        + List.of(new Measurement(at(time).toEpochMilli(), value));
  }

  private static byte[] avro(
      final String device,
      final String time,
      final Double temperature,
      final Double humidity,
      final Integer battery) {
    final GenericRecord record = new GenericData.Record(GATEWAY);
    record.put("deviceId", device);
    record.put("ts", at(time).toEpochMilli());
    record.put("temperature", temperature);
    record.put("humidity", humidity);
    record.put("battery", battery);
    final ByteArrayOutputStream framed = new ByteArrayOutputStream();
    ConfluentWireFormat.writeHeader(framed, GATEWAY_SCHEMA_ID);
    try {
      final BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(framed, null);
      new GenericDatumWriter<GenericRecord>(GATEWAY).write(record, encoder);
      encoder.flush();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return framed.toByteArray();
  }

  private static byte[] json(final String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  private static String header(final TestRecord<?, ?> record, final String name) {
    final Header header = record.headers().lastHeader(name);
    return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
  }

  private static Instant at(final String time) {
    return Instant.parse("2025-06-01T" + time + "Z");
  }
}
