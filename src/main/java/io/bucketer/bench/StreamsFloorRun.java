package io.bucketer.bench;

import io.bucketer.avro.Reading;
import io.bucketer.buckets.SeriesKey;
import io.bucketer.ingest.InvalidReadingException;
import io.bucketer.ingest.ReadingDecoder;
import io.bucketer.ingest.SchemaRegistryClient;
import io.bucketer.topology.ReadingSerde;
import io.bucketer.topology.SeriesKeySerde;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongConsumer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Utils;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Repartitioned;

/**
 * The floor under any Kafka Streams processor that groups readings by series: decode, key by
 * series, repartition, and nothing else — no state, no output — with bucketer's serdes, partition
 * count and exactly-once. What bucketer spends above it is its own work; what this spends below the
 * raw consumer is the framework's and the repartition's.
 */
final class StreamsFloorRun {

  private StreamsFloorRun() {}

  static PhaseClock.Measured run(
      final String bootstrapServers,
      final SchemaRegistryClient registry,
      final String topic,
      final String applicationId,
      final int seriesPartitions,
      final long expected,
      final Duration timeout,
      final LongConsumer progress)
      throws Exception {
    final AtomicLong processed = new AtomicLong();
    final StreamsBuilder builder = new StreamsBuilder();
    final ReadingDecoder decoder = new ReadingDecoder(registry);
    builder.stream(topic, Consumed.with(Serdes.ByteArray(), Serdes.ByteArray()))
        .map((key, value) -> keyedBySeries(decoder, value))
        .repartition(
            Repartitioned.<SeriesKey, Reading>with(new SeriesKeySerde(), new ReadingSerde())
                .withNumberOfPartitions(seriesPartitions))
        .foreach((series, reading) -> processed.incrementAndGet());
    final Path stateDir = Files.createTempDirectory("bucketer-bench-floor-");
    final Properties properties = new Properties();
    properties.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
    properties.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    properties.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
    properties.put(StreamsConfig.REPLICATION_FACTOR_CONFIG, 1);
    properties.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
    try (KafkaStreams streams = new KafkaStreams(builder.build(), properties)) {
      streams.start();
      final Deadline deadline = new Deadline(timeout);
      while (streams.state() != KafkaStreams.State.RUNNING) {
        deadline.check("the floor topology to start");
        TimeUnit.MILLISECONDS.sleep(5);
      }
      final PhaseClock clock = PhaseClock.thisProcess().start();
      long lastReport = System.nanoTime();
      while (processed.get() < expected) {
        deadline.check("the floor topology to process " + expected + " readings");
        TimeUnit.MILLISECONDS.sleep(2);
        if (System.nanoTime() - lastReport > TimeUnit.SECONDS.toNanos(2)) {
          lastReport = System.nanoTime();
          progress.accept(processed.get());
        }
      }
      return clock.stop();
    } finally {
      Utils.delete(stateDir.toFile());
    }
  }

  private static KeyValue<SeriesKey, Reading> keyedBySeries(
      final ReadingDecoder decoder, final byte[] value) {
    try {
      final Reading reading = decoder.decode(value);
      return KeyValue.pair(new SeriesKey(reading.getSensorId(), reading.getMetric()), reading);
    } catch (InvalidReadingException e) {
      throw new IllegalStateException("the benchmark's own readings do not decode", e);
    }
  }
}
