package io.bucketer.bench;

import com.mongodb.reactivestreams.client.MongoClient;
import com.mongodb.reactivestreams.client.MongoClients;
import io.bucketer.config.InputSettings;
import io.bucketer.config.KafkaSettings;
import io.bucketer.config.MongoSettings;
import io.bucketer.embedded.EmbeddedKafkaBroker;
import io.bucketer.embedded.InProcessSchemaRegistry;
import io.bucketer.embedded.MongoServerProcess;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import reactor.core.publisher.Mono;

/**
 * What every run of {@code bench latency} shares: one broker, one MongoDB stand-in whose operations
 * are counted, one schema registry. Each run names its own topics, application id and database.
 */
record LatencyInfrastructure(
    EmbeddedKafkaBroker broker,
    MongoServerProcess mongo,
    InProcessSchemaRegistry registry,
    StandInOperations operations) {

  static String inputTopic(final String run) {
    return "bench." + run + ".readings";
  }

  static String database(final String run) {
    return "bench_" + run.replace('.', '_').replace('-', '_');
  }

  /**
   * The settings that point a processor at this infrastructure under names of its own ({@code
   * run}): addresses and names only, nothing that changes how it processes.
   */
  Map<String, String> processorSettings(final String run, final Path stateDir) {
    final Map<String, String> settings = new HashMap<>();
    settings.put(KafkaSettings.BOOTSTRAP_SERVERS, broker.bootstrapServers());
    settings.put(InputSettings.SCHEMA_REGISTRY_URL, registry.url());
    settings.put(MongoSettings.URI, mongo.connectionString());
    settings.put(MongoSettings.DATABASE, database(run));
    settings.put(InputSettings.TOPIC, inputTopic(run));
    settings.put(KafkaSettings.BUCKETS_TOPIC, "bench." + run + ".buckets");
    settings.put(KafkaSettings.DEAD_LETTER_TOPIC, "bench." + run + ".dead-letters");
    settings.put(KafkaSettings.APPLICATION_ID, "bucketer-bench-" + run);
    // One broker: the processor's own topics cannot have the default replication factor.
    settings.put(KafkaSettings.TOPIC_REPLICATION_FACTOR, "1");
    settings.put(KafkaSettings.CLIENT_PREFIX + "state.dir", stateDir.toString());
    return settings;
  }

  /**
   * Drops the database of {@code run}. The stand-in keeps every document on its heap, where MongoDB
   * keeps them on disk: a finished run's documents would be collected again and again while the
   * next runs are measured.
   */
  void dropDatabase(final String run) {
    try (MongoClient client = MongoClients.create(mongo.connectionString())) {
      Mono.from(client.getDatabase(database(run)).drop()).block(Duration.ofMinutes(1));
    }
  }

  /** A clock of this JVM's CPU time and the stand-in's. */
  PhaseClock clock() {
    return PhaseClock.counting(mongo.processHandle());
  }
}
