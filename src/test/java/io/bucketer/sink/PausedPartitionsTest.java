package io.bucketer.sink;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

class PausedPartitionsTest {

  private static final String TOPIC = "buckets";
  private static final TopicPartition P0 = new TopicPartition(TOPIC, 0);
  private static final TopicPartition P1 = new TopicPartition(TOPIC, 1);

  private final MockConsumer<byte[], byte[]> consumer = new MockConsumer<>("earliest");
  private final PausedPartitions pause = new PausedPartitions(consumer);

  @Test
  void shouldPauseEveryAssignedPartitionUntilResumed() {
    consumer.assign(List.of(P0, P1));

    pause.pause();
    assertThat(consumer.paused()).containsExactlyInAnyOrder(P0, P1);

    pause.resume();
    assertThat(consumer.paused()).isEmpty();
  }

  @Test
  void shouldPausePartitionsAssignedInTheMiddleOfARetryOnly() {
    consumer.subscribe(List.of(TOPIC), pause);
    consumer.rebalance(List.of(P0));
    assertThat(consumer.paused()).isEmpty();

    pause.pause();
    consumer.rebalance(List.of(P0, P1));

    assertThat(consumer.paused()).containsExactlyInAnyOrder(P0, P1);
    pause.resume();
    assertThat(consumer.paused()).isEmpty();
  }

  @Test
  void shouldRewindRecordsFetchedDuringABackoffSoThatTheyAreNotSkipped() {
    consumer.assign(List.of(P0));
    consumer.updateBeginningOffsets(Map.of(P0, 5L));
    consumer.addRecord(new ConsumerRecord<>(TOPIC, 0, 5, new byte[] {1}, new byte[] {1}));
    consumer.addRecord(new ConsumerRecord<>(TOPIC, 0, 6, new byte[] {2}, new byte[] {2}));

    pause.pollDuring(Duration.ofMillis(1));

    assertThat(consumer.position(P0)).isEqualTo(5);
  }
}
