package io.bucketer.bench;

import io.bucketer.avro.Reading;
import io.bucketer.buckets.SeriesKey;
import io.bucketer.topics.BucketerTopics;
import io.bucketer.topics.TypedTopic;
import io.bucketer.topology.ReadingSerde;
import io.bucketer.topology.SeriesKeySerde;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * A reading on partitions of a windowed aggregation's input, now and then, stamped past the close
 * of every window the benchmark's readings make, so that they all close. Kafka Streams looks for
 * closed windows ({@code EmitStrategy.onWindowClose()}) only when a record arrives, and at most
 * once a second of wall clock: when a partition's input ends within a second of the last look, its
 * last closed windows wait for a record that never comes. In live traffic the next readings are
 * that record; at the end of the benchmark's backlog these are. They share one series, whose one
 * window never closes (stream time stays at their time), so they add nothing to the output.
 */
final class ClosingTicks implements AutoCloseable {

  /** Well under the aggregation's second, so that windows wait little more than it for a tick. */
  private static final Duration EVERY = Duration.ofMillis(200);

  private static final SeriesKey SERIES = new SeriesKey("bench-closing-tick", null);

  private final KafkaProducer<byte[], byte[]> producer;
  private final String topic;
  private final long timestamp;
  private final byte[] key;
  private final byte[] value;
  private long lastSentNanos;
  private boolean sentAny;

  /**
   * Ticks for {@code topic}, stamped {@code timestamp}: a time past the close (end and grace) of
   * every window of the input.
   */
  ClosingTicks(final String bootstrapServers, final String topic, final Instant timestamp) {
    final Map<String, Object> properties = new HashMap<>();
    properties.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    final TypedTopic<byte[], byte[]> input = BucketerTopics.input(topic);
    this.producer = new KafkaProducer<>(properties, input.keySerializer(), input.valueSerializer());
    this.topic = topic;
    this.timestamp = timestamp.toEpochMilli();
    this.key = new SeriesKeySerde().serializer().serialize(topic, SERIES);
    this.value =
        new ReadingSerde()
            .serializer()
            .serialize(
                topic,
                Reading.newBuilder()
                    .setSensorId(SERIES.sensorId())
                    .setTimestamp(timestamp)
                    .setValue(0)
                    .build());
  }

  /**
   * Sends one tick to each of {@code partitions}, unless the last ones went out less than 200 ms
   * ago. Only partitions that have had readings have windows to close.
   */
  void maybeSend(final Set<Integer> partitions) {
    if (sentAny && System.nanoTime() - lastSentNanos < EVERY.toNanos()) {
      return;
    }
    for (final int partition : partitions) {
      producer.send(new ProducerRecord<>(topic, partition, timestamp, key, value));
    }
    producer.flush();
    lastSentNanos = System.nanoTime();
    sentAny = true;
  }

  @Override
  public void close() {
    producer.close();
  }
}
