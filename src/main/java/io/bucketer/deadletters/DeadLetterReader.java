package io.bucketer.deadletters;

import io.bucketer.topics.BucketerTopics;
import io.bucketer.topics.TypedTopic;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;

/**
 * Reads the dead-letter topic with a plain consumer that joins no group: it assigns itself the
 * partitions, seeks, and commits nothing, so it never disturbs the processor or another reader, and
 * may run at any time. It reads the committed records only ({@code read_committed}) and stops at
 * the end offsets it found when it started: what the topology dead-letters meanwhile (a replayed
 * record that failed again, say) is left for the next run, so a replay never feeds on itself.
 */
public final class DeadLetterReader {

  /**
   * How long the reader waits for the cluster to answer a request before it gives up: a command
   * against an unreachable cluster ends, with a line that says so, rather than hanging.
   */
  public static final Duration ANSWER_TIMEOUT = Duration.ofSeconds(30);

  private static final Duration POLL = Duration.ofMillis(200);

  private final Map<String, Object> clientProperties;
  private final String topic;

  /**
   * @param clientProperties the Kafka clients' settings (bootstrap servers, security), as {@code
   *     run} uses them
   */
  public DeadLetterReader(final Map<String, Object> clientProperties, final String topic) {
    this.clientProperties = Map.copyOf(clientProperties);
    this.topic = topic;
  }

  public String topic() {
    return topic;
  }

  /**
   * Hands each record {@code filter} takes to {@code each}, partition by partition in offset order,
   * until {@code limit} were handed or the topic's end as it was at the start.
   *
   * @return how many records were handed on
   * @throws DeadLetterTopicMissingException when the topic does not exist
   */
  public long read(
      final DeadLetterFilter filter, final long limit, final Consumer<DeadLetter> each) {
    final TypedTopic<byte[], byte[]> deadLetters = BucketerTopics.deadLetters(topic);
    try (KafkaConsumer<byte[], byte[]> consumer =
        new KafkaConsumer<>(
            consumerProperties(), deadLetters.keyDeserializer(), deadLetters.valueDeserializer())) {
      final List<PartitionInfo> infos = consumer.partitionsFor(topic);
      if (infos == null || infos.isEmpty()) {
        throw new DeadLetterTopicMissingException(topic);
      }
      final List<TopicPartition> partitions = new ArrayList<>();
      for (final PartitionInfo info : infos) {
        if (filter.takesPartition(info.partition())) {
          partitions.add(new TopicPartition(topic, info.partition()));
        }
      }
      partitions.sort((a, b) -> Integer.compare(a.partition(), b.partition()));
      long handed = 0;
      // One partition at a time: records come in the order of the topic, and --limit takes the
      // first ones of the lowest partitions, the same each time.
      for (final TopicPartition partition : partitions) {
        handed += readPartition(consumer, partition, filter, limit - handed, each);
        if (handed >= limit) {
          break;
        }
      }
      return handed;
    }
  }

  private static long readPartition(
      final KafkaConsumer<byte[], byte[]> consumer,
      final TopicPartition partition,
      final DeadLetterFilter filter,
      final long limit,
      final Consumer<DeadLetter> each) {
    consumer.assign(List.of(partition));
    // read_committed: the end is the last stable offset, past which nothing is committed yet.
    final long end =
        Math.min(
            consumer.endOffsets(List.of(partition)).get(partition),
            filter.offsets().endExclusive());
    long start =
        Math.max(
            consumer.beginningOffsets(List.of(partition)).get(partition), filter.offsets().first());
    if (filter.from().isPresent()) {
      // The earliest offset whose timestamp is at or after --from: every record before it is
      // earlier, so it is skipped unread. None: nothing of the partition is that recent.
      final OffsetAndTimestamp at =
          consumer
              .offsetsForTimes(Map.of(partition, filter.from().get().toEpochMilli()))
              .get(partition);
      start = at == null ? end : Math.max(start, at.offset());
    }
    if (start >= end) {
      return 0;
    }
    consumer.seek(partition, start);
    long handed = 0;
    while (consumer.position(partition) < end) {
      for (final ConsumerRecord<byte[], byte[]> record : consumer.poll(POLL)) {
        if (record.offset() >= end) {
          return handed;
        }
        final DeadLetter letter = DeadLetter.of(record);
        if (filter.matches(letter)) {
          each.accept(letter);
          handed++;
          if (handed >= limit) {
            return handed;
          }
        }
      }
    }
    return handed;
  }

  private Map<String, Object> consumerProperties() {
    final Map<String, Object> properties = new HashMap<>(clientProperties);
    // No group: nothing to join, nothing committed, nobody's offsets or assignment disturbed.
    properties.remove(ConsumerConfig.GROUP_ID_CONFIG);
    properties.remove(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG);
    properties.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    properties.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    properties.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "none");
    // Looking must not create: a broker with auto.create.topics.enable would make a missing
    // dead-letter topic, with its own defaults, on a mere summary.
    properties.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, false);
    properties.putIfAbsent(
        ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) ANSWER_TIMEOUT.toMillis());
    properties.putIfAbsent(ConsumerConfig.CLIENT_ID_CONFIG, "bucketer-dead-letters");
    return properties;
  }
}
