package io.bucketer.topics;

import io.bucketer.buckets.ClosedBucket;
import org.apache.kafka.common.serialization.Serdes;

/**
 * The contract of each of bucketer's topics, in one place: the serdes of its keys and values. The
 * names are settings; these say what a record under such a name is. Everything that writes or reads
 * one of these topics (the topology, the sink, the demo, the benchmarks, the tests) takes its
 * serdes from here, so that a writer and its readers cannot disagree.
 */
public final class BucketerTopics {

  private BucketerTopics() {}

  /**
   * The readings as the gateways send them: keys and values are bytes, decoded by the processor
   * ({@code ingest.InputDecoder}), not by a deserializer, so that a record it cannot decode goes to
   * the dead-letter topic byte for byte and the topology never fails on bad input.
   */
  public static TypedTopic<byte[], byte[]> input(final String name) {
    return new TypedTopic<>(name, Serdes.ByteArray(), Serdes.ByteArray());
  }

  /**
   * The compacted topic of closed buckets, from the topology to the sink: keyed by {@link
   * BucketKey} (a string, so that compaction keeps the last version of each bucket), the values in
   * {@link ClosedBucketSerde}'s format.
   */
  public static TypedTopic<String, ClosedBucket> closedBuckets(final String name) {
    return new TypedTopic<>(name, Serdes.String(), new ClosedBucketSerde());
  }

  /**
   * The records set aside, with {@link DeadLetterHeaders} saying why: input that is not a reading
   * (its own key and value), a bucket MongoDB rejected (its record on the buckets topic) and a
   * reading that came too late (no key, the reading as JSON). Records of different sources and
   * formats, so the topic's keys and values are bytes: what every reader reads.
   */
  public static TypedTopic<byte[], byte[]> deadLetters(final String name) {
    return new TypedTopic<>(name, Serdes.ByteArray(), Serdes.ByteArray());
  }

  /**
   * The dead-letter topic as a stream keyed by strings writes it: the topology's too-late readings,
   * which split off the stream of closed buckets. A string key is written as its UTF-8 bytes and a
   * null one (a too-late reading has no key) as a null key, as with {@link #deadLetters}: the
   * records are the same, and readers use {@link #deadLetters}. A second view rather than a
   * conversion of the key to bytes in the topology, which would add a node to its reviewed
   * description and a step to every too-late reading.
   */
  public static TypedTopic<String, byte[]> deadLettersKeyedByString(final String name) {
    return new TypedTopic<>(name, Serdes.String(), Serdes.ByteArray());
  }
}
