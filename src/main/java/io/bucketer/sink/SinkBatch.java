package io.bucketer.sink;

import io.bucketer.buckets.ClosedBucket;
import io.bucketer.topics.BucketHeaders;
import io.bucketer.topics.BucketKey;
import io.bucketer.topics.TypedTopic;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.stream.LongStream;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;

/**
 * The records of one poll: the offsets to commit once they are dealt with, and the buckets still to
 * be written, each with the record it came from (its bytes are what a dead letter carries).
 */
final class SinkBatch {

  /** A bucket and the record it was decoded from. */
  record Polled(ConsumerRecord<byte[], byte[]> record, ClosedBucket bucket, String key) {}

  private final Map<TopicPartition, OffsetAndMetadata> offsets;
  private final List<Polled> unwritten;

  private SinkBatch(
      final Map<TopicPartition, OffsetAndMetadata> offsets, final List<Polled> unwritten) {
    this.offsets = offsets;
    this.unwritten = unwritten;
  }

  /**
   * Decodes the records of a poll from {@code topic}, with its value deserializer.
   *
   * @throws BucketSinkException when a value is not a bucket: a format this version does not know
   *     is a deployment error, not bad data to set aside
   */
  static SinkBatch of(
      final ConsumerRecords<byte[], byte[]> records, final TypedTopic<String, ClosedBucket> topic) {
    final Deserializer<ClosedBucket> values = topic.valueDeserializer();
    final Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
    final List<Polled> buckets = new ArrayList<>(records.count());
    for (final ConsumerRecord<byte[], byte[]> record : records) {
      offsets.put(
          new TopicPartition(record.topic(), record.partition()),
          new OffsetAndMetadata(record.offset() + 1));
      // A tombstone only tells compaction to drop the key; there is nothing to write.
      if (record.value() != null) {
        final ClosedBucket bucket = decode(record, values);
        buckets.add(new Polled(record, bucket, BucketKey.of(bucket)));
      }
    }
    return new SinkBatch(offsets, buckets);
  }

  private static ClosedBucket decode(
      final ConsumerRecord<byte[], byte[]> record, final Deserializer<ClosedBucket> values) {
    try {
      return values.deserialize(record.topic(), record.value());
    } catch (SerializationException e) {
      throw new BucketSinkException(
          "cannot decode the bucket record at "
              + record.topic()
              + "-"
              + record.partition()
              + " offset "
              + record.offset(),
          e);
    }
  }

  /** The offset after the last record of each partition in the poll. */
  Map<TopicPartition, OffsetAndMetadata> offsets() {
    return new HashMap<>(offsets);
  }

  /** The buckets still to be written. */
  List<ClosedBucket> buckets() {
    return unwritten.stream().map(Polled::bucket).toList();
  }

  /** The close times ({@link BucketHeaders#CLOSED_AT}) of the buckets still to be written. */
  LongStream closedAtMillis() {
    return unwritten.stream()
        .map(polled -> BucketHeaders.closedAt(polled.record().headers()))
        .filter(OptionalLong::isPresent)
        .mapToLong(OptionalLong::getAsLong);
  }

  int size() {
    return unwritten.size();
  }

  /**
   * Takes the buckets of {@code keys}, which MongoDB acknowledged, out of the batch, and returns
   * them: every version of each, since the writer wrote the newest one it was given.
   */
  List<ClosedBucket> written(final Collection<String> keys) {
    if (keys.isEmpty()) {
      return List.of();
    }
    final Set<String> acknowledged = Set.copyOf(keys);
    final List<ClosedBucket> written = new ArrayList<>();
    unwritten.removeIf(
        polled -> acknowledged.contains(polled.key()) && written.add(polled.bucket()));
    return written;
  }

  /**
   * Takes the buckets of {@code keys} out of the batch and returns, per key, the version the writer
   * wrote: the highest revision, the last of equals. Older versions in the same poll are superseded
   * by it (a revision holds all readings of the earlier ones), so only that one is a dead letter.
   */
  List<Polled> reject(final Collection<String> keys) {
    final Set<String> rejected = Set.copyOf(keys);
    final Map<String, Polled> newest = new LinkedHashMap<>();
    for (final Polled polled : unwritten) {
      if (rejected.contains(polled.key())) {
        newest.merge(
            polled.key(),
            polled,
            (earlier, later) ->
                later.bucket().revision() >= earlier.bucket().revision() ? later : earlier);
      }
    }
    unwritten.removeIf(polled -> rejected.contains(polled.key()));
    return List.copyOf(newest.values());
  }
}
