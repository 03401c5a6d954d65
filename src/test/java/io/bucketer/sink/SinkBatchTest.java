package io.bucketer.sink;

import static io.bucketer.buckets.TestBuckets.MINUTE;
import static io.bucketer.buckets.TestBuckets.START;
import static io.bucketer.buckets.TestBuckets.minute;
import static org.assertj.core.api.Assertions.assertThat;

import io.bucketer.buckets.ClosedBucket;
import io.bucketer.topics.BucketKey;
import io.bucketer.topics.BucketerTopics;
import io.bucketer.topics.TypedTopic;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

class SinkBatchTest {

  private static final TypedTopic<String, ClosedBucket> BUCKETS =
      BucketerTopics.closedBuckets("buckets");
  private static final TopicPartition PARTITION = new TopicPartition(BUCKETS.name(), 0);

  private static SinkBatch poll(final ClosedBucket... buckets) {
    final List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
    for (int offset = 0; offset < buckets.length; offset++) {
      final ClosedBucket bucket = buckets[offset];
      records.add(
          new ConsumerRecord<>(
              PARTITION.topic(),
              PARTITION.partition(),
              offset,
              BUCKETS.keySerializer().serialize(BUCKETS.name(), BucketKey.of(bucket)),
              BUCKETS.valueSerializer().serialize(BUCKETS.name(), bucket)));
    }
    return SinkBatch.of(new ConsumerRecords<>(Map.of(PARTITION, records), Map.of()), BUCKETS);
  }

  @Test
  void shouldTakeEveryVersionOfARejectedKeyOutAndReturnTheOneTheWriterWrote() {
    final ClosedBucket base = minute("sensor-1", START);
    final ClosedBucket other = minute("sensor-2", START);
    final SinkBatch batch =
        poll(base.atRevision(1), other, base.atRevision(2), base.atRevision(0), base.atRevision(2));

    final List<SinkBatch.Polled> rejected = batch.reject(List.of(BucketKey.of(base)));

    // Revision 2 twice: the writer keeps the last of equals, offset 4.
    assertThat(rejected)
        .singleElement()
        .satisfies(
            polled -> {
              assertThat(polled.record().offset()).isEqualTo(4);
              assertThat(polled.bucket().revision()).isEqualTo(2);
              assertThat(polled.bucket().granularity()).isEqualTo(MINUTE);
            });
    assertThat(batch.buckets()).containsExactly(other);
    assertThat(batch.size()).isEqualTo(1);
    assertThat(batch.offsets()).containsExactly(Map.entry(PARTITION, new OffsetAndMetadata(5)));
  }

  @Test
  void shouldTakeEveryVersionOfAnAcknowledgedKeyOutAndKeepTheOffsetsToCommit() {
    final ClosedBucket base = minute("sensor-1", START);
    final ClosedBucket other = minute("sensor-2", START);
    final ClosedBucket third = minute("sensor-3", START);
    final SinkBatch batch = poll(base.atRevision(0), other, base.atRevision(1), third);

    final List<ClosedBucket> written =
        batch.written(List.of(BucketKey.of(base), BucketKey.of(third)));

    assertThat(written).containsExactly(base.atRevision(0), base.atRevision(1), third);
    assertThat(batch.buckets()).containsExactly(other);
    assertThat(batch.offsets()).containsExactly(Map.entry(PARTITION, new OffsetAndMetadata(4)));
    assertThat(batch.written(List.of())).isEmpty();
    assertThat(batch.size()).isEqualTo(1);
  }

  @Test
  void shouldChangeNothingWhenRejectingAKeyThatIsNotInTheBatch() {
    final SinkBatch batch = poll(minute("sensor-1", START));

    assertThat(batch.reject(List.of("[\"1m\",0,\"elsewhere\",null,0]"))).isEmpty();
    assertThat(batch.size()).isEqualTo(1);
  }
}
