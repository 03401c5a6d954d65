package io.bucketer.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.bucketer.buckets.ClosedBucket;
import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.Measurement;
import io.bucketer.buckets.SeriesKey;
import io.bucketer.ingest.InputDecoder;
import io.bucketer.ingest.InputFormat;
import io.bucketer.ingest.InvalidReadingException.Reason;
import io.bucketer.ingest.ReadingMapping;
import io.bucketer.ingest.formats.InputDecoders;
import io.bucketer.ingest.senml.SenmlEncoding;
import io.bucketer.ingest.senml.SenmlMetric;
import io.bucketer.ingest.senml.SenmlOptions;
import io.bucketer.metrics.BucketerMetrics;
import io.bucketer.topics.DeadLetterHeaders;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.function.Supplier;
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
 * A SenML pack is many readings in one record: each numeric value is bucketed in its own series
 * (the resolved name and the unit), relative times are resolved against the record's timestamp, a
 * pack that breaks RFC 8428 goes to the dead-letter topic once, whole, and a pack of only strings,
 * booleans and data goes nowhere and is counted.
 */
class SenmlInputTest {

  private static final Instant NOW = Instant.parse("2025-06-01T12:00:00Z");
  private static final Granularity MINUTE = Granularity.parse("1m");

  @TempDir Path stateDir;

  private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
  private TopologyTestDriver driver;
  private TestInputTopic<byte[], byte[]> input;
  private TestOutputTopic<String, ClosedBucket> buckets;
  private TestOutputTopic<byte[], byte[]> deadLetters;

  @BeforeEach
  void start() {
    final BucketerMetrics metrics = new BucketerMetrics(meters);
    final SenmlOptions options =
        new SenmlOptions(
            SenmlEncoding.JSON, SenmlMetric.UNIT, kind -> metrics.senmlValueSkipped(kind.tag()));
    final Supplier<InputDecoder> decoders =
        () -> InputDecoders.of(InputFormat.SENML, ReadingMapping.DEFAULT, id -> null, options);
    driver = TopologyTopics.driver(stateDir, decoders, metrics, NOW);
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
  void shouldBucketEachValueOfAPackInTheSeriesOfItsNameAndUnit() {
    // Sent at 10:00:30 by a gateway without a clock: its times are relative to the record's.
    input.pipeInput(
        null,
        json(
            """
            [{"bn":"gw-1:","bt":-25,"bu":"Cel","n":"temp","v":21.5},
             {"n":"temp","t":10,"v":22.0},
             {"n":"hum","u":"%RH","v":40},
             {"n":"state","vs":"ok"}]"""),
        at("10:00:30"));
    // close [10:00, 10:01) of both series
    input.pipeInput(
        null,
        json(
            """
            [{"bn":"gw-1:","bt":%d,"bu":"Cel","n":"temp","v":23},{"n":"hum","u":"%%RH","v":41}]"""
                .formatted(at("10:01:10").getEpochSecond())),
        at("10:01:11"));

    assertThat(closedMinutes())
        .containsExactlyInAnyOrder(
            minute(
                "gw-1:temp",
                "Cel",
                new Measurement(at("10:00:05").toEpochMilli(), 21.5),
                new Measurement(at("10:00:15").toEpochMilli(), 22.0)),
            minute("gw-1:hum", "%RH", new Measurement(at("10:00:05").toEpochMilli(), 40)));
    assertThat(deadLetters.isEmpty()).isTrue();
    assertThat(skipped("string")).isEqualTo(1);
  }

  @Test
  void shouldDeadLetterAPackThatBreaksTheRfcOnceWholeAndBucketNoneOfIt() {
    final byte[] futureVersion =
        json(
            """
            [{"bn":"gw-1:","bu":"Cel","n":"temp","v":21.5},
             {"bver":11,"n":"hum","v":40}]""");

    input.pipeInput(null, futureVersion, at("10:00:30"));
    // Would close [10:00, 10:01) of gw-1:temp had the first record of the bad pack been taken.
    input.pipeInput(null, json("[{\"n\":\"gw-1:temp\",\"u\":\"Cel\",\"v\":1}]"), at("10:05:00"));

    final List<TestRecord<byte[], byte[]>> dead = deadLetters.readRecordsToList();
    assertThat(dead)
        .singleElement()
        .satisfies(
            d -> {
              assertThat(d.value()).isEqualTo(futureVersion);
              assertThat(header(d, DeadLetterHeaders.REASON))
                  .isEqualTo(Reason.UNSUPPORTED_SENML_VERSION.label());
              assertThat(header(d, DeadLetterHeaders.MESSAGE)).contains("record 2", "bver 11");
            });
    assertThat(buckets.readValuesToList()).isEmpty();
  }

  @Test
  void shouldTakeAPackOfNoNumbersWithoutBucketingOrDeadLetteringIt() {
    input.pipeInput(
        null,
        json("[{\"bn\":\"door-3:\",\"n\":\"open\",\"vb\":true},{\"n\":\"img\",\"vd\":\"aGk\"}]"),
        at("10:00:30"));

    assertThat(deadLetters.isEmpty()).isTrue();
    assertThat(buckets.isEmpty()).isTrue();
    assertThat(skipped("boolean")).isEqualTo(1);
    assertThat(skipped("data")).isEqualTo(1);
  }

  private double skipped(final String kind) {
    return meters.get(BucketerMetrics.SENML_SKIPPED_VALUES).tag("kind", kind).counter().count();
  }

  /** The closed minutes, as series, start and measurements. */
  private List<String> closedMinutes() {
    return buckets.readValuesToList().stream()
        .filter(bucket -> bucket.granularity().equals(MINUTE))
        .map(b -> b.series() + " " + Instant.ofEpochMilli(b.windowStart()) + " " + b.measurements())
        .toList();
  }

  private static String minute(
      final String sensor, final String metric, final Measurement... measurements) {
    return new SeriesKey(sensor, metric) + " " + at("10:00:00") + " " + List.of(measurements);
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
