package io.bucketer.cli;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import io.bucketer.app.BucketerApp;
import io.bucketer.buckets.BucketDocumentNames;
import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.SeriesKey;
import io.bucketer.buckets.TimeSpans;
import io.bucketer.config.BucketerConfig;
import io.bucketer.config.InputSettings;
import io.bucketer.config.KafkaSettings;
import io.bucketer.config.MongoSettings;
import io.bucketer.config.WindowSettings;
import io.bucketer.embedded.EmbeddedKafkaBroker;
import io.bucketer.embedded.EmbeddedMongoServer;
import io.bucketer.embedded.InProcessSchemaRegistry;
import io.bucketer.ingest.SchemaRegistryClient;
import io.bucketer.query.StoredDocuments;
import io.bucketer.simulate.GatewayFleet;
import io.bucketer.simulate.GatewayMessage;
import io.bucketer.simulate.ReadingGenerator;
import io.bucketer.simulate.ReadingSimulator;
import io.bucketer.topics.BucketerTopics;
import io.bucketer.topics.DeadLetterTopic;
import io.bucketer.topics.TypedTopic;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.utils.Utils;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code bucketer demo}: the whole product in one process. A real Kafka broker, an in-JVM MongoDB
 * stand-in and an in-process registry endpoint; the simulator replays the last hours of a fleet of
 * sensors, the processor buckets them, and the demo checks that MongoDB holds every reading.
 */
@Command(
    name = "demo",
    mixinStandardHelpOptions = true,
    description = {
      "Runs everything embedded: Kafka (KRaft), a MongoDB stand-in, a registry endpoint,",
      "the simulator and the processor; then checks MongoDB's counts against the readings sent.",
      "Exits 0 when every reading is in exactly one bucket per granularity."
    })
final class DemoCommand implements Callable<Integer> {

  private static final String INPUT_TOPIC = "iot.readings";
  private static final int INPUT_PARTITIONS = 4;

  @Option(
      names = "--readings",
      defaultValue = "30000",
      description = "Readings to send (default: ${DEFAULT-VALUE}).")
  long readings;

  @Option(
      names = "--rate",
      defaultValue = "10000",
      description = "Readings per second of wall-clock time (default: ${DEFAULT-VALUE}).")
  double rate;

  @Option(
      names = "--granularities",
      defaultValue = "1m,1h",
      description = "Window sizes (default: ${DEFAULT-VALUE}).")
  String granularities;

  @Option(
      names = "--timeout",
      defaultValue = "60s",
      description =
          "How long to wait for the last buckets after the last reading (default: ${DEFAULT-VALUE}).")
  String timeout;

  @Option(
      names = {"-v", "--verbose"},
      description = "Show the broker's, clients' and processor's own logs.")
  boolean verbose;

  @Mixin SimulatorOptions simulatorOptions;

  @Mixin MessageOptions messages;

  @Spec CommandSpec spec;

  private final PrintStream out = System.out;

  @Override
  public Integer call() throws Exception {
    messages.check(spec.commandLine());
    setLibraryLogging(verbose);
    final List<Granularity> sizes = Granularity.parseList(granularities);
    final long started = System.nanoTime();
    final long expectedReadings = readings * readingsPerRecord();
    out.printf(
        "bucketer demo: %s from %d sensors into %s buckets%n",
        messages.shape == GatewayFleet.Shape.READING
            ? String.format("%,d readings (%s)", readings, formatName())
            : String.format(
                "%,d gateway records (%s) of %d values, %,d readings",
                readings, formatName(), readingsPerRecord(), expectedReadings),
        simulatorOptions.sensors,
        granularities);
    try (EmbeddedKafkaBroker broker = step("Kafka broker (KRaft)", EmbeddedKafkaBroker::start);
        EmbeddedMongoServer mongo = step("MongoDB stand-in", EmbeddedMongoServer::start);
        InProcessSchemaRegistry registry =
            step("Schema Registry endpoint", InProcessSchemaRegistry::start)) {
      broker.createTopic(INPUT_TOPIC, INPUT_PARTITIONS, Map.of());
      final Path stateDir = Files.createTempDirectory("bucketer-demo-");
      final BucketerConfig config = new BucketerConfig(settings(broker, mongo, registry, stateDir));
      try (BucketerApp app =
              step("processor", () -> BucketerApp.start(config, new SimpleMeterRegistry()));
          StoredDocuments store =
              new StoredDocuments(
                  mongo.connectionString(), config.mongoDatabase(), config.collectionPrefix())) {
        final Instant replayStart = replayStart();
        final boolean complete =
            replayAndWait(broker, registry, app, store, sizes, replayStart, expectedReadings);
        out.printf("%nfinished in %.1f s%n", (System.nanoTime() - started) / 1e9);
        new DemoSummary(out, store, sizes).print(expectedReadings);
        store
            .fullest(sizes.get(0))
            .ifPresent(
                document ->
                    new DemoReadBack(out)
                        .print(
                            store,
                            sizes,
                            new SeriesKey(
                                document.getString(BucketDocumentNames.SENSOR_ID).getValue(),
                                document.isString(BucketDocumentNames.METRIC)
                                    ? document.getString(BucketDocumentNames.METRIC).getValue()
                                    : null),
                            replayStart));
        final Map<String, Long> deadLetters =
            DeadLetterTopic.countByReason(broker.bootstrapServers(), config.deadLetterTopic());
        out.println(
            deadLetters.isEmpty()
                ? "dead-letter topic: empty"
                : "dead-letter topic, by reason: " + deadLetters);
        return complete && new DemoSummary(out, store, sizes).countsMatch(expectedReadings) ? 0 : 1;
      } finally {
        Utils.delete(stateDir.toFile());
      }
    }
  }

  private boolean replayAndWait(
      final EmbeddedKafkaBroker broker,
      final InProcessSchemaRegistry registry,
      final BucketerApp app,
      final StoredDocuments store,
      final List<Granularity> sizes,
      final Instant replayStart,
      final long expectedReadings)
      throws InterruptedException {
    final ReadingGenerator generator =
        new ReadingGenerator(simulatorOptions.generatorOptions(replayStart, readings));
    try (KafkaProducer<byte[], byte[]> producer = producer(broker)) {
      final ReadingSimulator simulator =
          new ReadingSimulator(
              producer,
              GatewayFleet.encoder(
                  messages.shape,
                  messages.format,
                  new SchemaRegistryClient(registry.url()),
                  INPUT_TOPIC),
              INPUT_TOPIC);
      final CompletableFuture<Long> sending =
          CompletableFuture.supplyAsync(() -> simulator.run(generator, rate));
      final long timeoutNanos = TimeSpans.parse(timeout).toNanos();
      long deadline = Long.MAX_VALUE;
      while (true) {
        final StringBuilder line =
            new StringBuilder(String.format("  sent %,9d", simulator.acknowledged()));
        boolean allStored = sending.isDone();
        for (final Granularity size : sizes) {
          final long stored = store.readingsInBuckets(size);
          line.append(
              String.format(
                  " | %s: %,6d buckets, %,9d readings", size, store.documents(size), stored));
          allStored &= stored >= expectedReadings;
        }
        out.println(line);
        if (allStored || System.nanoTime() > deadline || !app.isHealthy()) {
          sending.join();
          return allStored;
        }
        if (sending.isDone() && deadline == Long.MAX_VALUE) {
          sending.join();
          deadline = System.nanoTime() + timeoutNanos;
        }
        Thread.sleep(1_000);
      }
    }
  }

  /**
   * The replay starts on an hour boundary so that its hours are whole, and ends at least an hour
   * before now: all its windows are in the past, so once the readings stop, the idle timeout closes
   * the last of them on the wall clock.
   */
  private Instant replayStart() {
    final Duration span =
        TimeSpans.parse(simulatorOptions.interval)
            .multipliedBy(Math.max(1, readings / simulatorOptions.sensors));
    final long hours = span.toHours() + 2;
    return Instant.now().truncatedTo(ChronoUnit.HOURS).minus(Duration.ofHours(hours));
  }

  private long readingsPerRecord() {
    return messages.shape == GatewayFleet.Shape.GATEWAY ? GatewayMessage.VALUE_FIELDS.size() : 1;
  }

  private String formatName() {
    return messages.format.label();
  }

  /**
   * The processor's settings: the embedded endpoints, and the input format and reading mapping of
   * the records the simulator sends, as a user would set them for gateways of that kind.
   */
  private Map<String, Object> settings(
      final EmbeddedKafkaBroker broker,
      final EmbeddedMongoServer mongo,
      final InProcessSchemaRegistry registry,
      final Path stateDir) {
    final Map<String, Object> settings =
        new HashMap<>(GatewayFleet.inputSettings(messages.shape, messages.format));
    settings.put(KafkaSettings.BOOTSTRAP_SERVERS, broker.bootstrapServers());
    settings.put(InputSettings.SCHEMA_REGISTRY_URL, registry.url());
    settings.put(MongoSettings.URI, mongo.connectionString());
    settings.put(InputSettings.TOPIC, INPUT_TOPIC);
    settings.put(KafkaSettings.SERIES_PARTITIONS, "4");
    settings.put(KafkaSettings.TOPIC_REPLICATION_FACTOR, "1");
    // The replay is history: close its last windows soon after the readings stop.
    settings.put(WindowSettings.IDLE_TIMEOUT, "2s");
    settings.put(KafkaSettings.CLIENT_PREFIX + "state.dir", stateDir.toString());
    return settings;
  }

  private KafkaProducer<byte[], byte[]> producer(final EmbeddedKafkaBroker broker) {
    final Map<String, Object> properties = new HashMap<>();
    properties.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers());
    properties.put(ProducerConfig.LINGER_MS_CONFIG, 5);
    final TypedTopic<byte[], byte[]> input = BucketerTopics.input(INPUT_TOPIC);
    return new KafkaProducer<>(properties, input.keySerializer(), input.valueSerializer());
  }

  private <T> T step(final String what, final java.util.function.Supplier<T> start) {
    final long begin = System.nanoTime();
    out.printf("  starting %-26s", what + " ...");
    out.flush();
    final T started = start.get();
    out.printf(" ready (%.1f s)%n", (System.nanoTime() - begin) / 1e9);
    return started;
  }

  private static void setLibraryLogging(final boolean verbose) {
    final LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
    if (verbose) {
      context.getLogger("org.apache.kafka").setLevel(Level.INFO);
    } else {
      // No appenders at all: the demo's own output is the only thing a person sees.
      context.reset();
    }
  }
}
