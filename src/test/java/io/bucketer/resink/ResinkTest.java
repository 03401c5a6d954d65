package io.bucketer.resink;

import static io.bucketer.buckets.TestBuckets.HOUR;
import static io.bucketer.buckets.TestBuckets.MINUTE;
import static io.bucketer.buckets.TestBuckets.bucket;
import static org.assertj.core.api.Assertions.assertThat;

import io.bucketer.buckets.ClosedBucket;
import io.bucketer.buckets.Retention;
import io.bucketer.resink.ResinkCounts.Outcome;
import io.bucketer.topics.BucketKey;
import io.bucketer.topics.ClosedBucketSerde;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/**
 * A resink over a consumer that plays the buckets topic: what it reads (up to the ends it noted,
 * not beyond), what it writes and skips, and what it says.
 */
class ResinkTest {

  private static final String TOPIC = "iot.buckets";
  private static final Instant NOW = Instant.parse("2026-11-26T12:00:00Z");
  private static final TopicPartition P0 = new TopicPartition(TOPIC, 0);
  private static final TopicPartition P1 = new TopicPartition(TOPIC, 1);

  private final MockConsumer<byte[], byte[]> consumer = new MockConsumer<>("earliest");
  private final List<String> lines = new ArrayList<>();
  private final RecordingTarget target = new RecordingTarget();

  private static ClosedBucket minuteAt(final Instant start) {
    return bucket("sensor-1", "temperature", MINUTE, start.toEpochMilli(), null, 1.0, 2.0);
  }

  private static ConsumerRecord<byte[], byte[]> record(
      final TopicPartition partition, final long offset, final ClosedBucket bucket) {
    return record(partition, offset, bucket, ClosedBucketSerde.encode(bucket));
  }

  private static ConsumerRecord<byte[], byte[]> record(
      final TopicPartition partition,
      final long offset,
      final ClosedBucket bucket,
      final byte[] value) {
    return new ConsumerRecord<>(
        TOPIC,
        partition.partition(),
        offset,
        BucketKey.of(bucket).getBytes(StandardCharsets.UTF_8),
        value);
  }

  /** The topic: partition 0 from 0 to 3, partition 1 compacted up to 5, to 7. */
  private void topic(final List<ConsumerRecord<byte[], byte[]>> records) {
    final Node node = new Node(0, "localhost", 9092);
    consumer.updatePartitions(
        TOPIC,
        List.of(
            new PartitionInfo(TOPIC, 0, node, new Node[] {node}, new Node[] {node}),
            new PartitionInfo(TOPIC, 1, node, new Node[] {node}, new Node[] {node})));
    consumer.updateBeginningOffsets(Map.of(P0, 0L, P1, 5L));
    consumer.updateEndOffsets(Map.of(P0, 3L, P1, 7L));
    // Records arrive once the reader assigned the partitions, as a broker's would.
    consumer.schedulePollTask(() -> records.forEach(consumer::addRecord));
  }

  private ResinkCounts resink(final boolean dryRun) {
    final ResinkPlan plan =
        new ResinkPlan(
            List.of(MINUTE, HOUR),
            Retention.parse("1m=1d", List.of(MINUTE, HOUR)),
            ResinkSelection.ALL,
            NOW);
    return new Resink(
            new BucketsTopicReader(consumer, TOPIC),
            plan,
            target,
            dryRun,
            lines::add,
            Clock.fixed(NOW, ZoneOffset.UTC),
            Duration.ZERO)
        .run(TOPIC, "MongoDB database rebuilt");
  }

  @Test
  void shouldWriteWhatTheTopicHeldUpToItsEndsAndCountWhatBecameOfEachRecord() {
    final ClosedBucket recent = minuteAt(NOW.minus(Duration.ofHours(1)));
    final ClosedBucket expired = minuteAt(NOW.minus(Duration.ofDays(2)));
    final ClosedBucket hour =
        bucket(
            "sensor-1",
            "temperature",
            HOUR,
            NOW.minus(Duration.ofDays(3)).toEpochMilli(),
            null,
            3.0);
    final ClosedBucket afterTheEnd = minuteAt(NOW.minus(Duration.ofMinutes(5)));
    target.unchanged.add(hour);
    topic(
        List.of(
            record(P0, 0, recent),
            record(P0, 1, recent, null),
            record(P0, 2, recent, new byte[] {9, 9}),
            record(P0, 3, afterTheEnd),
            record(P1, 5, hour),
            record(P1, 6, expired)));

    final ResinkCounts counts = resink(false);

    assertThat(target.prepared).isTrue();
    assertThat(target.written).containsExactlyInAnyOrder(recent, hour);
    assertThat(counts.count(MINUTE, Outcome.WRITTEN)).isEqualTo(1);
    assertThat(counts.count(MINUTE, Outcome.EXPIRED)).isEqualTo(1);
    assertThat(counts.count(HOUR, Outcome.WRITTEN)).isZero();
    assertThat(counts.count(HOUR, Outcome.UNCHANGED)).isEqualTo(1);
    assertThat(counts.tombstones()).isEqualTo(1);
    assertThat(counts.undecodable()).isEqualTo(1);
    assertThat(counts.recordsRead()).isEqualTo(5);
    assertThat(lines.get(0))
        .isEqualTo(
            "resink: iot.buckets (2 partitions, at most 5 records up to their ends now) into"
                + " MongoDB database rebuilt");
    assertThat(lines).anyMatch(line -> line.startsWith("partition 0 offset 2: not a bucket"));
    assertThat(lines)
        .as("said once, not again as the last line")
        .containsOnlyOnce(
            "read 5 of at most 5 records (100%): 1m 1 written, 0 unchanged, 1 skipped;"
                + " 1h 0 written, 1 unchanged, 0 skipped");
    assertThat(lines.get(lines.size() - 1))
        .contains("done in 0.0 s: 5 records read (1 tombstones, 1 not buckets)")
        .containsPattern("1m +2 +1 +0 +1 +0 +0 +0")
        .containsPattern("1h +1 +0 +1 +0 +0 +0 +0");
  }

  @Test
  void shouldCountRejectedBucketsApartFromTheWrittenOnes() {
    final ClosedBucket tooLarge = minuteAt(NOW.minus(Duration.ofHours(2)));
    final ClosedBucket fine = minuteAt(NOW.minus(Duration.ofHours(1)));
    target.rejected.add(tooLarge);
    topic(List.of(record(P0, 0, tooLarge), record(P0, 1, fine)));
    consumer.updateEndOffsets(Map.of(P0, 2L, P1, 5L));

    final ResinkCounts counts = resink(false);

    assertThat(counts.count(MINUTE, Outcome.WRITTEN)).isEqualTo(1);
    assertThat(counts.count(MINUTE, Outcome.REJECTED)).isEqualTo(1);
    assertThat(lines)
        .anyMatch(line -> line.contains("1m 1 written, 0 unchanged, 0 skipped, 1 rejected"));
  }

  @Test
  void shouldSayWhatADryRunWouldWrite() {
    topic(List.of(record(P0, 0, minuteAt(NOW.minus(Duration.ofHours(1))))));
    consumer.updateEndOffsets(Map.of(P0, 1L, P1, 5L));

    final ResinkCounts counts = resink(true);

    assertThat(counts.count(MINUTE, Outcome.WRITTEN)).isEqualTo(1);
    assertThat(lines).anyMatch(line -> line.contains("1m 1 to write"));
    assertThat(lines.get(lines.size() - 1)).startsWith("dry run done, nothing written,");
  }

  @Test
  void shouldReadAnEmptyTopicAndSayItIsDone() {
    topic(List.of());
    consumer.updateEndOffsets(Map.of(P0, 0L, P1, 5L));

    final ResinkCounts counts = resink(false);

    assertThat(counts.recordsRead()).isZero();
    assertThat(target.written).isEmpty();
    assertThat(lines.get(lines.size() - 1)).contains("0 records read");
  }

  @Test
  void shouldReadOutsideAnyGroupCommittedRecordsFromTheStart() {
    final Map<String, Object> properties =
        BucketsTopicReader.consumerProperties(
            Map.of(
                "bootstrap.servers",
                "kafka:9092",
                "security.protocol",
                "SASL_SSL",
                ConsumerConfig.GROUP_ID_CONFIG,
                "someone-else",
                ConsumerConfig.GROUP_INSTANCE_ID_CONFIG,
                "static-1"),
            "bucketer-resink");

    assertThat(properties)
        .doesNotContainKeys(ConsumerConfig.GROUP_ID_CONFIG, ConsumerConfig.GROUP_INSTANCE_ID_CONFIG)
        .containsEntry("security.protocol", "SASL_SSL")
        .containsEntry(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed")
        .containsEntry(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false)
        .containsEntry(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest")
        .containsEntry(ConsumerConfig.CLIENT_ID_CONFIG, "bucketer-resink");
  }

  /**
   * Remembers what it was asked to write; says the buckets set beforehand unchanged or rejected.
   */
  private static final class RecordingTarget implements ResinkTarget {
    final List<ClosedBucket> written = new ArrayList<>();
    final List<ClosedBucket> unchanged = new ArrayList<>();
    final List<ClosedBucket> rejected = new ArrayList<>();
    boolean prepared;

    @Override
    public void prepare() {
      prepared = true;
    }

    @Override
    public Written write(final List<ClosedBucket> buckets) {
      written.addAll(buckets);
      return new Written(
          buckets.stream().filter(unchanged::contains).toList(),
          buckets.stream().filter(rejected::contains).toList());
    }

    @Override
    public void close() {}
  }
}
