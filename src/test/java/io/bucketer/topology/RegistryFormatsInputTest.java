package io.bucketer.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.bucketer.avro.Reading;
import io.bucketer.buckets.ClosedBucket;
import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.Measurement;
import io.bucketer.buckets.SeriesKey;
import io.bucketer.embedded.InProcessSchemaRegistry;
import io.bucketer.ingest.ConfluentWireFormat;
import io.bucketer.ingest.FieldPath;
import io.bucketer.ingest.InputDecoder;
import io.bucketer.ingest.InputFormat;
import io.bucketer.ingest.InvalidReadingException.Reason;
import io.bucketer.ingest.ReadingMapping;
import io.bucketer.ingest.SchemaRegistryClient;
import io.bucketer.ingest.formats.FormatOptions;
import io.bucketer.ingest.formats.InputDecoders;
import io.bucketer.ingest.senml.SenmlOptions;
import io.bucketer.metrics.BucketerMetrics;
import io.bucketer.simulate.GatewayMessage;
import io.bucketer.simulate.MessageEncoder;
import io.bucketer.topics.DeadLetterHeaders;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The gateway's records in Protobuf and in JSON Schema framing, as the simulator's encoders write
 * them through the in-process registry, become one reading per value in its own series; a record
 * that breaks its format goes to the dead-letter topic with its reason.
 */
class RegistryFormatsInputTest {

  private static final Instant NOW = Instant.parse("2025-06-01T12:00:00Z");
  private static final Granularity MINUTE = Granularity.parse("1m");
  private static final String TOPIC = "iot.readings";

  /** The demo's mapping of the gateway message: no metric field, three value fields. */
  private static final ReadingMapping MAPPING =
      new ReadingMapping(
          FieldPath.parse(GatewayMessage.DEVICE_ID_FIELD),
          FieldPath.parse(GatewayMessage.TIME_FIELD),
          Optional.empty(),
          Optional.empty(),
          GatewayMessage.VALUE_FIELDS.stream().map(FieldPath::parse).toList());

  @TempDir Path stateDir;

  private final InProcessSchemaRegistry registry = InProcessSchemaRegistry.start();
  private final SchemaRegistryClient client = new SchemaRegistryClient(registry.url());
  private TopologyTestDriver driver;
  private TestInputTopic<byte[], byte[]> input;
  private TestOutputTopic<String, ClosedBucket> buckets;
  private TestOutputTopic<byte[], byte[]> deadLetters;

  @AfterEach
  void close() {
    driver.close();
    registry.close();
  }

  @Test
  void shouldBucketEachValueOfAProtobufGatewayRecordAndDeadLetterABrokenOne() {
    start(InputFormat.PROTOBUF, FormatOptions.NONE);
    final MessageEncoder gateway = GatewayMessage.protobufEncoder(client, TOPIC);

    input.pipeInput(null, gateway.encode(reading("10:00:05", 21.5)));
    final byte[] broken = gateway.encode(reading("10:00:30", 22.0));
    input.pipeInput(null, java.util.Arrays.copyOf(broken, broken.length - 4));
    input.pipeInput(null, gateway.encode(reading("10:01:10", 22.5))); // closes [10:00, 10:01)

    assertThat(closedMinutes())
        .containsExactlyInAnyOrderElementsOf(minutes(GatewayMessage.of(reading("10:00:05", 21.5))));
    assertThat(deadLetters.readRecordsToList())
        .extracting(d -> header(d, DeadLetterHeaders.REASON), TestRecord::value)
        .containsExactly(
            tuple(
                Reason.MALFORMED_PROTOBUF.label(),
                java.util.Arrays.copyOf(broken, broken.length - 4)));
  }

  @Test
  void shouldBucketJsonSchemaRecordsAndDeadLetterOneThatBreaksItsSchemaWhenValidating() {
    start(InputFormat.JSON_SCHEMA, new FormatOptions(Optional.empty(), true, SenmlOptions.DEFAULT));
    final MessageEncoder gateway = GatewayMessage.jsonSchemaEncoder(client, TOPIC);
    final int schemaId;
    try {
      schemaId = ConfluentWireFormat.parse(gateway.encode(reading("10:00:05", 21.5))).schemaId();
    } catch (io.bucketer.ingest.InvalidReadingException e) {
      throw new AssertionError(e);
    }
    final byte[] outOfRange =
        ConfluentWireFormat.frame(
            schemaId,
            ("{\"deviceId\": \"gw-1\", \"ts\": \"2025-06-01T10:00:20Z\", \"humidity\": 140}")
                .getBytes(StandardCharsets.UTF_8));

    input.pipeInput(null, gateway.encode(reading("10:00:05", 21.5)));
    input.pipeInput(null, outOfRange);
    input.pipeInput(null, gateway.encode(reading("10:01:10", 22.5))); // closes [10:00, 10:01)

    assertThat(closedMinutes())
        .containsExactlyInAnyOrderElementsOf(minutes(GatewayMessage.of(reading("10:00:05", 21.5))));
    final List<TestRecord<byte[], byte[]>> dead = deadLetters.readRecordsToList();
    assertThat(dead)
        .extracting(d -> header(d, DeadLetterHeaders.REASON))
        .containsExactly(Reason.SCHEMA_VIOLATION.label());
    assertThat(header(dead.get(0), DeadLetterHeaders.MESSAGE))
        .contains("/humidity")
        .contains("maximum");
  }

  private void start(final InputFormat format, final FormatOptions options) {
    final SchemaRegistryClient decoding = new SchemaRegistryClient(registry.url());
    final Supplier<InputDecoder> decoders =
        () -> InputDecoders.of(format, MAPPING, decoding, decoding, options);
    driver =
        TopologyTopics.driver(
            stateDir, decoders, new BucketerMetrics(new SimpleMeterRegistry()), NOW);
    final TopologyTopics topics = TopologyTopics.of(driver);
    input = topics.input();
    buckets = topics.buckets();
    deadLetters = topics.deadLetters();
  }

  private static Reading reading(final String time, final double temperature) {
    return new Reading("gw-1", at(time), temperature, "temperature", null);
  }

  private List<String> closedMinutes() {
    return buckets.readValuesToList().stream()
        .filter(bucket -> bucket.granularity().equals(MINUTE))
        .map(b -> b.series() + " " + Instant.ofEpochMilli(b.windowStart()) + " " + b.measurements())
        .toList();
  }

  /** The minute documents the message's readings make, computed from the message itself. */
  private static List<String> minutes(final GatewayMessage message) {
    return message.readings().stream()
        .map(
            r ->
                new SeriesKey(r.getSensorId(), r.getMetric())
                    + " "
                    + at("10:00:00")
                    + " "
                    + List.of(new Measurement(r.getTimestamp().toEpochMilli(), r.getValue())))
        .toList();
  }

  private static Instant at(final String time) {
    return Instant.parse("2025-06-01T" + time + "Z");
  }

  private static String header(final TestRecord<byte[], byte[]> record, final String name) {
    final Header header = record.headers().lastHeader(name);
    return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
  }
}
