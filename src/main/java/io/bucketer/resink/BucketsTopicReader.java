package io.bucketer.resink;

import io.bucketer.topics.BucketerTopics;
import io.bucketer.topics.TypedTopic;
import io.bucketer.topics.WholeTopic;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;

/**
 * Reads the buckets topic whole, once: every partition assigned, from its start up to the end
 * offsets it had when the reading began, with no consumer group. So it never joins, rebalances or
 * commits in the running sink's group, and a resink started while {@code run} writes reads a
 * snapshot: buckets closed later reach MongoDB through the sink.
 *
 * <p>Read committed: a bucket of an aborted topology transaction never reached MongoDB through the
 * sink and must not through a resink either; the end offsets are then the last stable ones.
 *
 * <p>The values stay bytes, decoded by the resink with the topic's serde, so that one value it
 * cannot read is counted and named rather than ending the whole rebuild.
 */
final class BucketsTopicReader implements AutoCloseable {

  private static final Duration POLL = Duration.ofMillis(500);

  private final Consumer<byte[], byte[]> consumer;
  private final String topic;
  private Map<TopicPartition, Long> ends = Map.of();
  private long recordsToRead;

  BucketsTopicReader(final Consumer<byte[], byte[]> consumer, final String topic) {
    this.consumer = consumer;
    this.topic = topic;
  }

  /** A reader with a consumer of its own, on {@code kafkaProperties} (the settings' clients'). */
  static BucketsTopicReader connect(
      final Map<String, Object> kafkaProperties, final String topic, final String clientId) {
    final TypedTopic<byte[], byte[]> buckets = BucketerTopics.closedBuckets(topic).asBytes();
    return new BucketsTopicReader(
        new KafkaConsumer<>(
            consumerProperties(kafkaProperties, clientId),
            buckets.keyDeserializer(),
            buckets.valueDeserializer()),
        topic);
  }

  /**
   * The clients' properties (bootstrap servers, security) with the ones this reading rests on: no
   * group (nor static member), nothing committed, read committed, and a partition whose start moved
   * (its retention deleted a segment meanwhile) read from its new start, never from its end.
   */
  static Map<String, Object> consumerProperties(
      final Map<String, Object> kafkaProperties, final String clientId) {
    final Map<String, Object> properties = new HashMap<>(kafkaProperties);
    properties.remove(ConsumerConfig.GROUP_ID_CONFIG);
    properties.remove(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG);
    properties.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    properties.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    properties.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    properties.put(ConsumerConfig.CLIENT_ID_CONFIG, clientId);
    return properties;
  }

  /**
   * Assigns every partition from its start and notes where each ends now.
   *
   * @return the partitions
   * @throws ResinkException when the topic does not exist (or this principal may not see it)
   */
  List<TopicPartition> begin() {
    final List<TopicPartition> partitions = WholeTopic.assignFromStart(consumer, topic);
    if (partitions.isEmpty()) {
      throw new ResinkException(
          "the buckets topic "
              + topic
              + " does not exist, or this principal may not describe it: nothing to resink from");
    }
    ends = Map.copyOf(consumer.endOffsets(partitions));
    final Map<TopicPartition, Long> starts = consumer.beginningOffsets(partitions);
    recordsToRead = 0;
    for (final TopicPartition partition : partitions) {
      recordsToRead += Math.max(0, ends.get(partition) - starts.get(partition));
    }
    pauseFinished();
    return partitions;
  }

  /**
   * The records between the starts and the ends noted by {@link #begin}: at most, as compaction and
   * transaction markers leave gaps in the offsets.
   */
  long recordsToRead() {
    return recordsToRead;
  }

  /** How far the reading got: the sum of the partitions' positions, which only grows. */
  long position() {
    return ends.keySet().stream().mapToLong(consumer::position).sum();
  }

  /** True once every partition was read up to its noted end. */
  boolean finished() {
    return ends.entrySet().stream().allMatch(e -> consumer.position(e.getKey()) >= e.getValue());
  }

  /** The next records before the noted ends; empty when none came within the poll's wait. */
  List<ConsumerRecord<byte[], byte[]>> next() {
    final List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
    for (final ConsumerRecord<byte[], byte[]> record : consumer.poll(POLL)) {
      final TopicPartition partition = new TopicPartition(record.topic(), record.partition());
      if (record.offset() < ends.getOrDefault(partition, 0L)) {
        records.add(record);
      }
    }
    pauseFinished();
    return records;
  }

  /** A partition read up to its end fetches no more: what comes after is the sink's. */
  private void pauseFinished() {
    final List<TopicPartition> finished =
        ends.entrySet().stream()
            .filter(e -> consumer.position(e.getKey()) >= e.getValue())
            .map(Map.Entry::getKey)
            .toList();
    consumer.pause(finished);
  }

  @Override
  public void close() {
    consumer.close();
  }
}
