package io.bucketer.rescale;

import io.bucketer.topics.BucketHeaders;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.ToLongFunction;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.common.TopicPartition;

/**
 * Which deployment wrote each bucket on the buckets topic since an instant, from the header each
 * bucket record carries ({@link BucketHeaders#WRITTEN_BY}), and whether that agrees with a
 * handover: every window written by one deployment only, the replaced one for windows before the
 * handover and the new one after it. Reads with a consumer of its own that joins no group, up to
 * the end offsets it found when it began.
 */
final class BucketWriters {

  private static final Duration POLL = Duration.ofMillis(500);

  private BucketWriters() {}

  /**
   * Reads {@code topic} from the first record at or after {@code since} on each partition.
   *
   * @param windowStartOf a bucket key's window start, in epoch milliseconds
   */
  static BucketAgreement check(
      final Consumer<byte[], byte[]> consumer,
      final String topic,
      final Instant since,
      final Instant handover,
      final String replacedId,
      final String newId,
      final ToLongFunction<String> windowStartOf) {
    final List<TopicPartition> partitions =
        consumer.partitionsFor(topic).stream()
            .map(info -> new TopicPartition(topic, info.partition()))
            .toList();
    consumer.assign(partitions);
    final Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
    final Map<TopicPartition, Long> query = new HashMap<>();
    partitions.forEach(partition -> query.put(partition, since.toEpochMilli()));
    final Map<TopicPartition, OffsetAndTimestamp> starts = consumer.offsetsForTimes(query);
    for (final TopicPartition partition : partitions) {
      final OffsetAndTimestamp start = starts.get(partition);
      consumer.seek(partition, start == null ? ends.get(partition) : start.offset());
    }
    final Map<String, Set<String>> writers = new HashMap<>();
    while (partitions.stream().anyMatch(p -> consumer.position(p) < ends.get(p))) {
      for (final ConsumerRecord<byte[], byte[]> record : consumer.poll(POLL)) {
        if (record.offset() >= ends.get(new TopicPartition(record.topic(), record.partition()))) {
          continue;
        }
        writers
            .computeIfAbsent(new String(record.key(), StandardCharsets.UTF_8), k -> new HashSet<>())
            .add(BucketHeaders.writtenBy(record.headers()).orElse(""));
      }
    }
    return agreement(since, writers, handover, replacedId, newId, windowStartOf);
  }

  /** What {@code writers}, by bucket key, say of the handover. */
  static BucketAgreement agreement(
      final Instant since,
      final Map<String, Set<String>> writers,
      final Instant handover,
      final String replacedId,
      final String newId,
      final ToLongFunction<String> windowStartOf) {
    long byReplaced = 0;
    long byNew = 0;
    long byBoth = 0;
    long wrongSide = 0;
    for (final Map.Entry<String, Set<String>> entry : writers.entrySet()) {
      final Set<String> by = entry.getValue();
      final boolean replaced = by.contains(replacedId);
      final boolean fresh = by.contains(newId);
      if (replaced && fresh) {
        byBoth++;
        continue;
      }
      final boolean beforeHandover =
          windowStartOf.applyAsLong(entry.getKey()) < handover.toEpochMilli();
      if (replaced) {
        byReplaced++;
        wrongSide += beforeHandover ? 0 : 1;
      } else if (fresh) {
        byNew++;
        wrongSide += beforeHandover ? 1 : 0;
      }
    }
    return new BucketAgreement(since, writers.size(), byReplaced, byNew, byBoth, wrongSide);
  }
}
