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
 * A reading on partitions of a windowed aggregation's input, now and then, so late that the
 * aggregation drops it. Kafka Streams looks for closed windows ({@code
 * EmitStrategy.onWindowClose()}) only when a record arrives, and at most once a second of wall
 * clock: when a partition's input ends within a second of the last look, its last closed windows
 * wait for a record that never comes. In live traffic the next readings are that record; at the end
 * of the benchmark's backlog these are, and being late for every window they change none.
 */
final class LateTicks implements AutoCloseable {

  /** Well under the aggregation's second, so that windows wait little more than it for a tick. */
  private static final Duration EVERY = Duration.ofMillis(200);

  private static final SeriesKey SERIES = new SeriesKey("bench-late-tick", null);

  private final KafkaProducer<byte[], byte[]> producer;
  private final String topic;
  private final long timestamp;
  private final byte[] key;
  private final byte[] value;
  private long lastSentNanos;
  private boolean sentAny;

  /**
   * Ticks for {@code topic}, stamped {@code timestamp}: a time whose windows are closed once the
   * input has been read.
   */
  LateTicks(final String bootstrapServers, final String topic, final Instant timestamp) {
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
   * ago. A partition that has had no reading would not find a tick late: it has no stream time.
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
