package io.bucketer.testing;

import io.bucketer.avro.Reading;
import io.bucketer.ingest.ReadingEncoder;
import io.bucketer.ingest.SchemaRegistryClient;
import io.bucketer.simulate.ReadingSimulator;
import io.bucketer.topics.BucketerTopics;
import io.bucketer.topics.TypedTopic;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;

/**
 * Gateways in the background: sends a list of readings to the input topic at a steady rate, keyed
 * by sensor id, on a thread of its own so that the test can crash and restart processors meanwhile.
 */
public final class PacedProducer implements AutoCloseable {

  private final KafkaProducer<byte[], byte[]> producer;
  private final ReadingSimulator simulator;
  private final ExecutorService thread = Executors.newSingleThreadExecutor();
  private final CompletableFuture<Long> done;

  private PacedProducer(
      final KafkaProducer<byte[], byte[]> producer,
      final ReadingSimulator simulator,
      final List<Reading> readings,
      final double ratePerSecond) {
    this.producer = producer;
    this.simulator = simulator;
    this.done =
        CompletableFuture.supplyAsync(
            () -> simulator.run(readings.iterator(), ratePerSecond), thread);
  }

  /**
   * Starts sending {@code readings} to {@code topic}, {@code ratePerSecond} a second. {@code
   * producerOverrides} change the producer's settings.
   */
  public static PacedProducer start(
      final LocalInfrastructure infrastructure,
      final String topic,
      final List<Reading> readings,
      final double ratePerSecond,
      final Map<String, Object> producerOverrides) {
    final Map<String, Object> properties = new HashMap<>(producerOverrides);
    properties.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, infrastructure.bootstrapServers());
    final TypedTopic<byte[], byte[]> input = BucketerTopics.input(topic);
    final KafkaProducer<byte[], byte[]> producer =
        new KafkaProducer<>(properties, input.keySerializer(), input.valueSerializer());
    final ReadingEncoder encoder =
        new ReadingEncoder(new SchemaRegistryClient(infrastructure.schemaRegistryUrl()), topic);
    return new PacedProducer(
        producer, new ReadingSimulator(producer, encoder, topic), readings, ratePerSecond);
  }

  /** Readings the broker has acknowledged so far. */
  public long acknowledged() {
    return simulator.acknowledged();
  }

  /** Waits until every reading is acknowledged and returns how many were sent. */
  public long awaitDone(final Duration timeout) throws Exception {
    return done.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
  }

  @Override
  public void close() {
    thread.shutdownNow();
    producer.close(Duration.ofSeconds(5));
  }
}
