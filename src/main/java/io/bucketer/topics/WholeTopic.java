package io.bucketer.topics;

import java.util.List;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.common.TopicPartition;

/**
 * Reading a whole topic without a consumer group: every partition assigned, each from its start.
 * For tools and checks that must see everything a topic holds, not a group's share of it.
 */
public final class WholeTopic {

  private WholeTopic() {}

  /** Assigns {@code consumer} every partition of {@code topic}, at its start; returns them. */
  public static List<TopicPartition> assignFromStart(
      final Consumer<?, ?> consumer, final String topic) {
    final List<TopicPartition> partitions =
        consumer.partitionsFor(topic).stream()
            .map(info -> new TopicPartition(topic, info.partition()))
            .toList();
    consumer.assign(partitions);
    consumer.seekToBeginning(partitions);
    return partitions;
  }
}
