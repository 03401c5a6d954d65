package io.bucketer.bench;

import io.bucketer.buckets.BucketDocumentNames;
import io.bucketer.buckets.BucketLayout;
import io.bucketer.buckets.Granularity;
import io.bucketer.config.WindowSettings;
import io.bucketer.embedded.MongoOperationCounter;
import io.bucketer.ingest.SchemaRegistryClient;
import io.bucketer.query.StoredDocuments;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.utils.Utils;

/**
 * bucketer's capacity on the infrastructure at hand, as row 2 of the default {@code bench} measures
 * it, but short: a backlog of {@code span} of event time from 100 sensors reporting every second is
 * filled first, then a processor in this JVM with its defaults catches up on it, until MongoDB
 * holds every bucket. Its JIT is cold, as at any processor's start: the figure is a floor.
 */
final class CapacityRun {

  static final int SENSORS = 100;
  static final Duration INTERVAL = Duration.ofSeconds(1);

  static final String RUN = "latency-capacity";
  private static final List<Granularity> GRANULARITIES =
      List.of(Granularity.parse("1m"), Granularity.parse("1h"));
  private static final int MAX_MEASUREMENTS = 1000;

  private CapacityRun() {}

  /** Readings a second. */
  static double readingsPerSecond(
      final LatencyInfrastructure infrastructure,
      final Duration span,
      final int inputPartitions,
      final Duration timeout,
      final PrintStream out)
      throws Exception {
    final String topic = LatencyInfrastructure.inputTopic(RUN);
    infrastructure.broker().createTopic(topic, inputPartitions, Map.of());
    final BenchFleet fleet = new BenchFleet(SENSORS, INTERVAL, span, 42);
    final BenchFleet.Sent sent =
        fleet.send(
            infrastructure.broker().bootstrapServers(),
            new SchemaRegistryClient(infrastructure.registry().url()),
            topic,
            GRANULARITIES,
            BucketLayout.finestKeepsMeasurements(MAX_MEASUREMENTS),
            n -> {});
    final long expected = sent.bucketDocuments().values().stream().mapToLong(Long::longValue).sum();
    final Path stateDir = Files.createTempDirectory("bucketer-bench-capacity-");
    final Map<String, Object> settings =
        new HashMap<>(infrastructure.processorSettings(RUN, stateDir));
    // As row 2: the trailing readings close every window by event time, none by the wall clock.
    settings.put(WindowSettings.IDLE_TIMEOUT, "1h");
    final StandInOperations operations = infrastructure.operations();
    final MongoOperationCounter.Counts before = operations.counts();
    final String database = LatencyInfrastructure.database(RUN);
    try {
      final ProcessorRun.Result result =
          ProcessorRun.run(
              infrastructure.clock(),
              settings,
              expected,
              () -> operations.counts().writeStatements() - before.writeStatements(),
              () -> storedDocuments(infrastructure, database),
              timeout,
              false,
              n -> {});
      final double rate = sent.readings() / (result.time().elapsed().toNanos() / 1e9);
      out.printf(
          "    %,d readings in %.1f s: %,.0f readings/s%n",
          sent.readings(), result.time().elapsed().toMillis() / 1000.0, rate);
      return rate;
    } finally {
      Utils.delete(stateDir.toFile());
    }
  }

  private static long storedDocuments(
      final LatencyInfrastructure infrastructure, final String database) {
    try (StoredDocuments reader =
        new StoredDocuments(
            infrastructure.mongo().connectionString(),
            database,
            BucketDocumentNames.DEFAULT_COLLECTION_PREFIX)) {
      return GRANULARITIES.stream().mapToLong(reader::documents).sum();
    }
  }
}
