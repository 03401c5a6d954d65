package io.bucketer.topology;

import io.bucketer.topics.TypedTopic;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Produced;

/**
 * A {@link TypedTopic} as Kafka Streams' DSL takes it: the topic's own serdes, so that a stream
 * reads and writes a topic as every other client of it does. Here rather than in {@code topics},
 * which stays free of Kafka Streams for the sink and the tools. Callers name the node ({@code
 * withName}): a node's name is part of the reviewed topology.
 */
public final class StreamsTopics {

  private StreamsTopics() {}

  /** How a stream reads {@code topic}. */
  public static <K, V> Consumed<K, V> consumed(final TypedTopic<K, V> topic) {
    return Consumed.with(topic.keySerde(), topic.valueSerde());
  }

  /** How a stream writes {@code topic}. */
  public static <K, V> Produced<K, V> produced(final TypedTopic<K, V> topic) {
    return Produced.with(topic.keySerde(), topic.valueSerde());
  }
}
