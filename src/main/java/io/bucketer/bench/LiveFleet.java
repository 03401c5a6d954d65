package io.bucketer.bench;

import io.bucketer.ingest.ReadingEncoder;
import io.bucketer.ingest.SchemaRegistryClient;
import io.bucketer.simulate.ReadingGenerator;
import io.bucketer.simulate.ReadingSimulator;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import org.apache.kafka.clients.producer.KafkaProducer;

/**
 * A live fleet sending: {@code series} sensors, one reading every {@code interval} each, event time
 * from the wall clock from now on, so that windows close as they would live; for the warm-up and
 * the measured stretch of {@link MemoryBench.Options}, then it stops.
 */
final class LiveFleet {

  /**
   * The name of the thread the fleet sends from, which {@link CpuByProcess} counts as the fleet's:
   * within the 15 characters {@code /proc} keeps of a name.
   */
  static final String THREAD = "bench-fleet";

  private final ReadingSimulator simulator;
  private final CompletableFuture<Long> sending;
  private final ReadingGenerator.Options generated;
  private final CountDownLatch released;

  private LiveFleet(
      final ReadingSimulator simulator,
      final CompletableFuture<Long> sending,
      final ReadingGenerator.Options generated,
      final CountDownLatch released) {
    this.simulator = simulator;
    this.sending = sending;
    this.generated = generated;
    this.released = released;
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
    final CountDownLatch released = new CountDownLatch(1);
    return new LiveFleet(
        simulator,
        CompletableFuture.supplyAsync(
            () -> simulator.run(fleet, rate), sending -> inItsThread(sending, released)),
        generated,
        released);
  }

  /**
   * Runs the sending in a thread of its own, named: the common pool's would do, but on two cores it
   * has no worker, and CompletableFuture then starts an anonymous thread. Once done sending, the
   * thread waits until {@code released}: a thread that has ended leaves {@code /proc}, and with it
   * its CPU time, which the last sample, due as the fleet ends, still counts.
   */
  private static void inItsThread(final Runnable sending, final CountDownLatch released) {
    final Thread thread =
        new Thread(
            () -> {
              sending.run();
              try {
                released.await();
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            },
            THREAD);
    thread.setDaemon(true);
    thread.start();
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

  /** Whether the sending stopped on an error, which {@link #join()} then throws. */
  boolean hasFailed() {
    return sending.isCompletedExceptionally();
  }

  /**
   * Waits for the last reading to be sent, and lets the fleet's thread end: called once the last
   * sample has read its CPU time. Fails as the sending failed.
   */
  void join() {
    try {
      sending.join();
    } finally {
      released.countDown();
    }
  }
}
