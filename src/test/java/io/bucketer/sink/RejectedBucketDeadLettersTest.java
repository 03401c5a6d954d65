package io.bucketer.sink;

import static io.bucketer.buckets.TestBuckets.START;
import static io.bucketer.buckets.TestBuckets.minute;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bucketer.buckets.ClosedBucket;
import io.bucketer.metrics.BucketerMetrics;
import io.bucketer.testing.Meters;
import io.bucketer.topics.BucketKey;
import io.bucketer.topics.BucketerTopics;
import io.bucketer.topics.DeadLetterHeaders;
import io.bucketer.topics.TypedTopic;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

class RejectedBucketDeadLettersTest {

  private static final TypedTopic<String, ClosedBucket> BUCKETS =
      BucketerTopics.closedBuckets("buckets");
  private static final TypedTopic<byte[], byte[]> DEAD_LETTERS =
      BucketerTopics.deadLetters("dead-letters");
  private static final TopicPartition PARTITION = new TopicPartition(BUCKETS.name(), 0);

  private final MockProducer<byte[], byte[]> producer =
      new MockProducer<>(true, null, DEAD_LETTERS.keySerializer(), DEAD_LETTERS.valueSerializer());
  private final BucketerMetrics metrics = new BucketerMetrics(new SimpleMeterRegistry());
  private final RejectedBucketDeadLetters letters =
      new RejectedBucketDeadLetters(producer, DEAD_LETTERS.name(), metrics);

  private static SinkBatch poll(final ClosedBucket... buckets) {
    final List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
    for (int offset = 0; offset < buckets.length; offset++) {
      records.add(
          new ConsumerRecord<>(
              PARTITION.topic(),
              PARTITION.partition(),
              offset,
              BUCKETS.keySerializer().serialize(BUCKETS.name(), BucketKey.of(buckets[offset])),
              BUCKETS.valueSerializer().serialize(BUCKETS.name(), buckets[offset])));
    }
    return SinkBatch.of(new ConsumerRecords<>(Map.of(PARTITION, records), Map.of()), BUCKETS);
  }

  @Test
  void shouldTakeTheRejectedBucketsOutOfTheBatchAndSendTheirRecordsWithTheReason() {
    final ClosedBucket rejected = minute("sensor-1", START);
    final ClosedBucket kept = minute("sensor-2", START);
    final SinkBatch batch = poll(rejected, kept);

    letters.setAside(
        batch,
        BucketWriteException.rejected(
            "rejected", null, Map.of(BucketKey.of(rejected), "error 11000: duplicate key")));
    letters.awaitAcknowledged();

    assertThat(batch.buckets()).containsExactly(kept);
    assertThat(producer.history())
        .singleElement()
        .satisfies(
            letter -> {
              assertThat(letter.topic()).isEqualTo(DEAD_LETTERS.name());
              assertThat(letter.value())
                  .isEqualTo(BUCKETS.valueSerializer().serialize(BUCKETS.name(), rejected));
              assertThat(
                      new String(
                          letter.headers().lastHeader(DeadLetterHeaders.MESSAGE).value(),
                          StandardCharsets.UTF_8))
                  .isEqualTo("MongoDB rejected the bucket document: error 11000: duplicate key");
            });
    assertThat(
            Meters.count(
                metrics.registry(),
                BucketerMetrics.DEAD_LETTERS,
                "reason",
                RejectedBucketDeadLetters.REASON))
        .isEqualTo(1.0);
  }

  @Test
  void shouldStopTheSinkWhenTheRejectedBucketsAreNotInTheBatch() {
    final SinkBatch batch = poll(minute("sensor-1", START));
    final BucketWriteException elsewhere =
        BucketWriteException.rejected(
            "rejected", null, Map.of(BucketKey.of(minute("sensor-9", START)), "error 2: bad"));

    assertThatThrownBy(() -> letters.setAside(batch, elsewhere))
        .isInstanceOf(BucketSinkException.class)
        .hasMessageContaining("not in the batch")
        .hasCause(elsewhere);
    assertThat(batch.size()).isEqualTo(1);
    assertThat(producer.history()).isEmpty();
  }
}
