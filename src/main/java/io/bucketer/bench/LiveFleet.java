package io.bucketer.bench;

import io.bucketer.ingest.ReadingEncoder;
import io.bucketer.ingest.SchemaRegistryClient;
import io.bucketer.simulate.ReadingGenerator;
import io.bucketer.simulate.ReadingSimulator;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.clients.producer.KafkaProducer;

/**
 * A live fleet sending: {@code series} sensors, one reading every {@code interval} each, event time
 * from the wall clock from now on, so that windows close as they would live; for the warm-up and
 * the measured stretch of {@link MemoryBench.Options}, then it stops.
 */
final class LiveFleet {

  private final ReadingSimulator simulator;
  private final CompletableFuture<Long> sending;
  private final ReadingGenerator.Options generated;

  private LiveFleet(
      final ReadingSimulator simulator,
      final CompletableFuture<Long> sending,
      final ReadingGenerator.Options generated) {
    this.simulator = simulator;
    this.sending = sending;
    this.generated = generated;
  }

  /** Readings per second the fleet sends. */
  static double rate(final MemoryBench.Options options) {
    return options.series() * 1000.0 / options.interval().toMillis();
  }

  /** Starts sending through {@code producer} to {@code topic}, in a thread of its own. */
  static LiveFleet start(
      final MemoryBench.Options options,
      final KafkaProducer<byte[], byte[]> producer,
      final String registryUrl,
      final String topic) {
    final ReadingSimulator simulator =
        new ReadingSimulator(
            producer, new ReadingEncoder(new SchemaRegistryClient(registryUrl), topic), topic);
    final double rate = rate(options);
    final Duration total = options.warmup().plus(options.duration());
    final ReadingGenerator.Options generated =
        new ReadingGenerator.Options(
            options.series(),
            Instant.now().truncatedTo(ChronoUnit.SECONDS),
            options.interval(),
            Duration.ZERO,
            0,
            0,
            (long) (rate * total.toSeconds()),
            7);
    final ReadingGenerator fleet = new ReadingGenerator(generated);
    return new LiveFleet(
        simulator, CompletableFuture.supplyAsync(() -> simulator.run(fleet, rate)), generated);
  }

  /** What the fleet sends: the same options give the same readings again, to check them. */
  ReadingGenerator.Options generatorOptions() {
    return generated;
  }

  /** Readings Kafka has acknowledged so far. */
  long acknowledged() {
    return simulator.acknowledged();
  }

  boolean isDone() {
    return sending.isDone();
  }

  /** Waits for the last reading to be sent; fails as the sending failed. */
  void join() {
    sending.join();
  }
}
