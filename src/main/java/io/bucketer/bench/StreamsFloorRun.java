package io.bucketer.bench;

import io.bucketer.ingest.ReadingDecoder;
import io.bucketer.ingest.SchemaRegistryClient;
import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongConsumer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;

/**
 * The floor under any Kafka Streams processor that groups readings by series: decode, key by
 * series, repartition, and nothing else — no state, no output — with bucketer's serdes, partition
 * count and Kafka Streams settings. What bucketer spends above it is its own work; what this spends
 * below the raw consumer is the framework's and the repartition's.
 */
final class StreamsFloorRun {

  private StreamsFloorRun() {}

  /**
   * Runs the floor on {@code streamsProperties} (application id and state directory included) until
   * it has repartitioned {@code expected} readings.
   */
  static BenchResults.Rate run(
      final PhaseClock clock,
      final Properties streamsProperties,
      final SchemaRegistryClient registry,
      final String topic,
      final int seriesPartitions,
      final long expected,
      final Duration timeout,
      final LongConsumer progress)
      throws InterruptedException {
    final AtomicLong processed = new AtomicLong();
    final StreamsBuilder builder = new StreamsBuilder();
    ReadingsBySeries.stream(builder, topic, () -> new ReadingDecoder(registry), seriesPartitions)
        .foreach((series, reading) -> processed.incrementAndGet());
    try (KafkaStreams streams = new KafkaStreams(builder.build(), streamsProperties)) {
      streams.start();
      final Deadline deadline = new Deadline(timeout);
      FirstRecord.await(streams::metrics, streams::state, deadline, "the floor topology");
      clock.start();
      long lastReport = System.nanoTime();
      while (processed.get() < expected) {
        deadline.check("the floor topology to process " + expected + " readings");
        TimeUnit.MILLISECONDS.sleep(2);
        if (System.nanoTime() - lastReport > TimeUnit.SECONDS.toNanos(2)) {
          lastReport = System.nanoTime();
          progress.accept(processed.get());
        }
      }
      final PhaseClock.Measured time = clock.stop();
      return new BenchResults.Rate(
          expected,
          time,
          null,
          ProducedRecords.of(
              streamsProperties.getProperty(StreamsConfig.APPLICATION_ID_CONFIG),
              streams.metrics()));
    }
  }
}
