package io.bucketer.bench;

import io.bucketer.app.BucketerApp;
import io.bucketer.config.BucketerConfig;
import io.bucketer.ingest.ReadingDecoder;
import io.bucketer.ingest.SchemaRegistryClient;
import java.time.Duration;
import java.util.Locale;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;

/**
 * A peer of bucketer run live, in a JVM of its own, on the same Kafka Streams settings a processor
 * with the same configuration would use: what {@code bench live} measures beside bucketer under the
 * same fleet. The peers are the two of {@code bench}'s table that are Kafka Streams topologies (the
 * sink connector writes each reading to MongoDB, whose stand-in here takes about a thousand writes
 * a second, so a live fleet would measure the stand-in).
 */
public final class LivePeer {

  /** The peers, by the name {@code bench peer --kind} takes. */
  public enum Kind {
    /** Decode, key by series, repartition, and nothing else ({@link StreamsFloorRun}). */
    STREAMS_FLOOR("streams-floor", "the Kafka Streams floor"),
    /**
     * Kafka Streams' own one-minute windowed aggregate after the floor, each window emitted once
     * when it closes ({@link WindowedAggregateRun}), with bucketer's grace: live, readings arrive
     * in order, and none need the backlog's grace of the whole input.
     */
    WINDOWED_AGGREGATE("windowed-aggregate", "the DSL windowed aggregate");

    private final String name;
    private final String description;

    Kind(final String name, final String description) {
      this.name = name;
      this.description = description;
    }

    /** As {@code --kind} takes it. */
    public String cliName() {
      return name;
    }

    public String description() {
      return description;
    }

    /** The kind named {@code name} as {@code --kind} takes it. */
    public static Kind parse(final String name) {
      for (final Kind kind : values()) {
        if (kind.name.equals(name.toLowerCase(Locale.ROOT))) {
          return kind;
        }
      }
      throw new IllegalArgumentException("no peer named " + name);
    }
  }

  private LivePeer() {}

  /** Where the windowed aggregate writes its closed windows: created by the harness. */
  public static String windowsTopic(final BucketerConfig config) {
    return config.inputTopic() + ".peer-windows";
  }

  /** Its application id: the processor's, with the peer's name. */
  static String applicationId(final BucketerConfig config, final Kind kind) {
    return config.applicationId() + "-" + kind.cliName();
  }

  /** Runs the peer until the JVM is asked to stop (SIGTERM), then closes it. */
  public static void run(final Kind kind, final BucketerConfig config) throws InterruptedException {
    final Properties properties = BucketerApp.streamsProperties(config, null);
    properties.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId(config, kind));
    final CountDownLatch stopped = new CountDownLatch(1);
    try (KafkaStreams streams = new KafkaStreams(topology(kind, config), properties)) {
      Runtime.getRuntime()
          .addShutdownHook(
              new Thread(
                  () -> {
                    streams.close(Duration.ofSeconds(30));
                    stopped.countDown();
                  },
                  "peer-shutdown"));
      streams.start();
      stopped.await();
    }
  }

  static Topology topology(final Kind kind, final BucketerConfig config) {
    final SchemaRegistryClient registry = new SchemaRegistryClient(config.schemaRegistryUrl());
    if (kind == Kind.STREAMS_FLOOR) {
      final StreamsBuilder builder = new StreamsBuilder();
      ReadingsBySeries.stream(
              builder,
              config.inputTopic(),
              () -> new ReadingDecoder(registry),
              config.seriesPartitions())
          .foreach((series, reading) -> {});
      return builder.build();
    }
    return WindowedAggregateRun.topology(
        new WindowedAggregateRun.Settings(
            config.inputTopic(),
            windowsTopic(config),
            config.seriesPartitions(),
            config.grace(),
            Duration.ZERO),
        () -> new ReadingDecoder(registry),
        new Arrivals());
  }
}
