package io.bucketer.topics;

import java.util.Objects;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.Serializer;

/**
 * A topic's name with the serdes of its keys and values: what every client of the topic must agree
 * on. The topology that writes a topic, the sink and the tools that read it, and the tests take the
 * pair from one place ({@link BucketerTopics}) instead of pairing a name with serdes by hand each
 * time, which let the pairs drift apart. Plain Kafka clients' types, so that clients outside Kafka
 * Streams use it too; {@code topology.StreamsTopics} adapts it to the Streams DSL.
 *
 * <p>The serdes are compared by identity: two views of one topic are equal only if they share their
 * serde instances, so compare {@link #name()} to tell whether they are the same topic.
 */
public record TypedTopic<K, V>(String name, Serde<K> keySerde, Serde<V> valueSerde) {

  public TypedTopic {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(keySerde, "keySerde");
    Objects.requireNonNull(valueSerde, "valueSerde");
  }

  public Serializer<K> keySerializer() {
    return keySerde.serializer();
  }

  public Serializer<V> valueSerializer() {
    return valueSerde.serializer();
  }

  public Deserializer<K> keyDeserializer() {
    return keySerde.deserializer();
  }

  public Deserializer<V> valueDeserializer() {
    return valueSerde.deserializer();
  }

  /**
   * The same topic with its keys and values left as bytes, for a client that must pass a record on
   * exactly as it was read and decodes it itself, with this topic's deserializers: the sink, which
   * sends a bucket MongoDB rejected to the dead-letter topic byte for byte (an older format
   * included), and stops on a value it cannot decode with the record's offset in the message.
   */
  public TypedTopic<byte[], byte[]> asBytes() {
    return new TypedTopic<>(name, Serdes.ByteArray(), Serdes.ByteArray());
  }
}
