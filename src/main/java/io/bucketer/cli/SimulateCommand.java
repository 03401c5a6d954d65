package io.bucketer.cli;

import io.bucketer.ingest.SchemaRegistryClient;
import io.bucketer.simulate.GatewayFleet;
import io.bucketer.simulate.ReadingGenerator;
import io.bucketer.simulate.ReadingSimulator;
import io.bucketer.topics.BucketerTopics;
import io.bucketer.topics.TypedTopic;
import java.io.PrintStream;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code bucketer simulate}: plays a fleet of IoT gateways against a real cluster and registry. */
@Command(
    name = "simulate",
    mixinStandardHelpOptions = true,
    description = "Produces readings for N sensors, as IoT gateways would, and prints progress.")
final class SimulateCommand implements Callable<Integer> {

  @Option(
      names = "--bootstrap-servers",
      description = "Kafka brokers; the setting bootstrap.servers (-c, -s) if not given.")
  String bootstrapServers;

  @Option(
      names = "--schema-registry-url",
      description = "Schema Registry URL; required with --format avro, unused with json.")
  String schemaRegistryUrl;

  @Spec CommandSpec spec;

  @Option(
      names = "--topic",
      defaultValue = "iot.readings",
      description = "Input topic (default: ${DEFAULT-VALUE}).")
  String topic;

  @Option(
      names = "--count",
      defaultValue = "10000",
      description = "Readings to send (default: ${DEFAULT-VALUE}).")
  long count;

  @Option(
      names = "--rate",
      defaultValue = "1000",
      description =
          "Readings per second of wall-clock time; 0 for as fast as possible"
              + " (default: ${DEFAULT-VALUE}).")
  double rate;

  @Option(
      names = "--start",
      description = "Event time of the first round, ISO-8601 (default: now).")
  Instant start;

  @Option(
      names = {"-p", "--producer-property"},
      paramLabel = "KEY=VALUE",
      description = "Kafka producer setting, over the kafka.* settings of -c and -s. Repeatable.")
  Map<String, String> producerProperties = new LinkedHashMap<>();

  /**
   * The processor's settings, of which the Kafka ones count: a cluster's security settings are
   * written once, for {@code run} and {@code simulate} alike.
   */
  @Mixin ConfigOptions settings;

  @Mixin SimulatorOptions simulatorOptions;

  @Mixin MessageOptions messages;

  @Override
  public Integer call() {
    messages.check(spec.commandLine());
    if (GatewayFleet.needsRegistry(messages.format) && schemaRegistryUrl == null) {
      throw new ParameterException(
          spec.commandLine(),
          "--schema-registry-url is required with --format " + messages.format.label());
    }
    final Map<String, Object> kafka = kafkaProperties();
    final ReadingGenerator readings =
        new ReadingGenerator(
            simulatorOptions.generatorOptions(start == null ? Instant.now() : start, count));
    try (KafkaProducer<byte[], byte[]> producer = producer(kafka)) {
      final ReadingSimulator simulator =
          new ReadingSimulator(
              producer,
              GatewayFleet.encoder(
                  messages.shape,
                  messages.format,
                  schemaRegistryUrl == null ? null : new SchemaRegistryClient(schemaRegistryUrl),
                  topic),
              topic);
      final PrintStream out = System.out;
      final ScheduledExecutorService progress = Executors.newSingleThreadScheduledExecutor();
      progress.scheduleAtFixedRate(
          () -> out.printf("sent %,d of %,d readings%n", simulator.acknowledged(), count),
          1,
          1,
          TimeUnit.SECONDS);
      try {
        simulator.run(readings, rate);
      } finally {
        progress.shutdownNow();
      }
      out.printf("done: %,d readings sent to %s%n", simulator.acknowledged(), topic);
    }
    return 0;
  }

  /** The settings' Kafka properties, then {@code -p}'s, then {@code --bootstrap-servers}. */
  private Map<String, Object> kafkaProperties() {
    final Map<String, Object> properties =
        new HashMap<>(settings.kafka(Optional.ofNullable(bootstrapServers)).clientProperties());
    properties.putAll(producerProperties);
    return properties;
  }

  private KafkaProducer<byte[], byte[]> producer(final Map<String, Object> kafka) {
    final Map<String, Object> properties = new HashMap<>(kafka);
    properties.putIfAbsent(ProducerConfig.LINGER_MS_CONFIG, 5);
    final TypedTopic<byte[], byte[]> input = BucketerTopics.input(topic);
    return new KafkaProducer<>(properties, input.keySerializer(), input.valueSerializer());
  }
}
