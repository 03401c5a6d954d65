package io.bucketer.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.bucketer.avro.Reading;
import io.bucketer.buckets.BucketLayout;
import io.bucketer.buckets.ClosedBucket;
import io.bucketer.ingest.ReadingDecoder;
import io.bucketer.metrics.BucketerMetrics;
import io.bucketer.topics.BucketerTopics;
import io.bucketer.topics.DeadLetterHeaders;
import io.bucketer.windows.DuplicateTimestamps;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Properties;
import java.util.stream.IntStream;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * input.partitioning=by-sensor: no repartition topic, readings aggregated on the input partition
 * their sensor id maps to, and a reading on any other partition dead-lettered. The test driver
 * delivers every input record on partition 0 of a topic that, for the topology, has four.
 */
class InputKeyedBySensorTest {

  private static final InputPartitioning.BySensorKey FOUR_PARTITIONS =
      new InputPartitioning.BySensorKey(4);
  private static final BucketTopology.Settings SETTINGS =
      new BucketTopology.Settings(
          "iot.readings",
          "iot.buckets",
          "iot.readings.dlq",
          BucketTopologyTest.SETTINGS.granularities(),
          BucketTopologyTest.SETTINGS.grace(),
          BucketTopologyTest.SETTINGS.idleTimeout(),
          FOUR_PARTITIONS,
          BucketTopologyTest.SETTINGS.latenessHorizon(),
          BucketLayout.finestKeepsMeasurements(1000),
          BucketTopologyTest.CHECKS,
          BucketTopologyTest.WINDOW_CACHE_BYTES,
          DuplicateTimestamps.KEEP_LAST);
  private static final long TEN = Instant.parse("2025-06-01T10:00:00Z").toEpochMilli();

  @TempDir Path stateDir;

  private static Topology topology() {
    return BucketTopology.build(
        SETTINGS,
        () -> new ReadingDecoder(id -> Reading.getClassSchema()),
        new BucketerMetrics(new SimpleMeterRegistry()));
  }

  /** The first sensor id of the form sensor-N that Kafka's default partitioner maps as asked. */
  private static String sensorOn(final boolean partitionZero) {
    return IntStream.range(0, 1_000)
        .mapToObj(n -> "sensor-" + n)
        .filter(id -> (FOUR_PARTITIONS.partitionOf(id) == 0) == partitionZero)
        .findFirst()
        .orElseThrow();
  }

  @Test
  void shouldMapSensorIdsAsKafkasDefaultPartitionerDoes() {
    // murmur2 of the key's bytes, made positive, modulo the partitions: values Kafka's own
    // BuiltInPartitioner.partitionForKey gives for these keys
    assertThat(new InputPartitioning.BySensorKey(6).partitionOf("sensor-0001"))
        .isEqualTo(
            org.apache.kafka.clients.producer.internals.BuiltInPartitioner.partitionForKey(
                "sensor-0001".getBytes(StandardCharsets.UTF_8), 6));
  }

  @Test
  void shouldHaveNoRepartitionTopic() {
    assertThat(topology().describe().toString()).doesNotContain("repartition");
  }

  @Test
  void shouldBucketReadingsOnTheirSensorsPartitionAndDeadLetterTheOthers() {
    final String here = sensorOn(true);
    final String elsewhere = sensorOn(false);
    final Properties properties = new Properties();
    properties.put(StreamsConfig.APPLICATION_ID_CONFIG, "bucketer-test");
    properties.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
    properties.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
    try (TopologyTestDriver driver = new TopologyTestDriver(topology(), properties)) {
      final var input = TopologyTopics.input(driver, BucketerTopics.input(SETTINGS.inputTopic()));
      final var buckets =
          TopologyTopics.output(driver, BucketerTopics.closedBuckets(SETTINGS.bucketsTopic()));
      final var deadLetters =
          TopologyTopics.output(driver, BucketerTopics.deadLetters(SETTINGS.deadLetterTopic()));

      input.pipeInput(key(here), frame(here, TEN + 5_000, 1.0));
      input.pipeInput(key(here), frame(here, TEN + 30_000, 3.0));
      input.pipeInput(key(elsewhere), frame(elsewhere, TEN + 6_000, 7.0));
      input.pipeInput(key(here), frame(here, TEN + 70_000, 0.0)); // close [10:00, 10:01)

      final List<ClosedBucket> closed = buckets.readValuesToList();
      assertThat(closed).hasSize(1);
      assertThat(closed.get(0).series().sensorId()).isEqualTo(here);
      assertThat(closed.get(0).stats().sum()).isEqualTo(4.0);
      final List<TestRecord<byte[], byte[]>> dead = deadLetters.readRecordsToList();
      assertThat(dead).hasSize(1);
      assertThat(header(dead.get(0), DeadLetterHeaders.REASON))
          .isEqualTo(ReadingDecodeProcessor.WRONG_PARTITION);
      assertThat(header(dead.get(0), DeadLetterHeaders.MESSAGE))
          .contains(elsewhere)
          .contains("partition " + FOUR_PARTITIONS.partitionOf(elsewhere) + " of 4");
      assertThat(dead.get(0).key()).isEqualTo(key(elsewhere)); // the original record, as it came
    }
  }

  /**
   * Keyed input is grown through a rescale: the replaced deployment stays keyed, the new layout
   * repartitions. A misplaced record is the keyed side's to dead-letter whenever it takes one of
   * its readings, even one written after the handover (the new layout checks no partition); one
   * whose readings are all the new layout's is left to it.
   */
  @Test
  void shouldDeadLetterAMisplacedRecordWhoseReadingsItTakesDuringAHandover() {
    final long handover = TEN + 3_600_000;
    final BucketTopology.Settings replaced =
        SETTINGS.withHandover(
            new io.bucketer.buckets.Handover(
                io.bucketer.buckets.Handover.Side.BEFORE, handover, handover + 3_610_000));
    final String elsewhere = sensorOn(false);
    final Properties properties = new Properties();
    properties.put(StreamsConfig.APPLICATION_ID_CONFIG, "bucketer-test");
    properties.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
    properties.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
    try (TopologyTestDriver driver =
        new TopologyTestDriver(
            BucketTopology.build(
                replaced,
                () -> new ReadingDecoder(id -> Reading.getClassSchema()),
                new BucketerMetrics(new SimpleMeterRegistry())),
            properties,
            Instant.ofEpochMilli(handover + 600_000))) {
      final var input = TopologyTopics.input(driver, BucketerTopics.input(SETTINGS.inputTopic()));
      final var deadLetters =
          TopologyTopics.output(driver, BucketerTopics.deadLetters(SETTINGS.deadLetterTopic()));
      // late, written after the handover: this side's reading, on the wrong partition
      input.pipeInput(
          key(elsewhere),
          frame(elsewhere, handover - 30_000, 1.0),
          Instant.ofEpochMilli(handover + 5_000));
      // past the handover: the new layout's, whatever its partition
      input.pipeInput(
          key(elsewhere),
          frame(elsewhere, handover + 4_000, 2.0),
          Instant.ofEpochMilli(handover + 5_000));
      final List<TestRecord<byte[], byte[]>> dead = deadLetters.readRecordsToList();
      assertThat(dead).hasSize(1);
      assertThat(header(dead.get(0), DeadLetterHeaders.REASON))
          .isEqualTo(ReadingDecodeProcessor.WRONG_PARTITION);
    }
  }

  private static byte[] key(final String sensor) {
    return sensor.getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] frame(final String sensor, final long timestamp, final double value) {
    return BucketTopologyTest.frame(
        Reading.newBuilder()
            .setSensorId(sensor)
            .setMetric("temperature")
            .setTimestamp(Instant.ofEpochMilli(timestamp))
            .setValue(value)
            .build());
  }

  private static String header(final TestRecord<?, ?> record, final String name) {
    final Header header = record.headers().lastHeader(name);
    return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
  }
}
