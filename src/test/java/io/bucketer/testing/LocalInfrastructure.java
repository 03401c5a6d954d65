package io.bucketer.testing;

import io.bucketer.embedded.EmbeddedKafkaBroker;
import io.bucketer.embedded.EmbeddedMongoServer;
import io.bucketer.embedded.InProcessSchemaRegistry;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.admin.AdminClientConfig;

/**
 * What the processor needs around it, running in the test's JVM on loopback ports: a real Kafka
 * broker, the MongoDB stand-in and the Schema Registry endpoint. Processors in child JVMs reach
 * them over loopback, as they would reach a cluster.
 */
public final class LocalInfrastructure implements AutoCloseable {

  private static final Map<String, String> PROMPT_RETENTION =
      Map.of("log.initial.task.delay.ms", "1000", "log.retention.check.interval.ms", "1000");

  private final EmbeddedKafkaBroker broker;
  private final AutoCloseable kafka;
  private final Map<String, Object> kafkaClient;
  private final EmbeddedMongoServer mongo;
  private final InProcessSchemaRegistry registry;

  private LocalInfrastructure(
      final EmbeddedKafkaBroker broker,
      final AutoCloseable kafka,
      final Map<String, Object> kafkaClient,
      final EmbeddedMongoServer mongo,
      final InProcessSchemaRegistry registry) {
    this.broker = broker;
    this.kafka = kafka;
    this.kafkaClient = kafkaClient;
    this.mongo = mongo;
    this.registry = registry;
  }

  /** Starts all three with the broker's default settings. */
  public static LocalInfrastructure start() {
    return start(Map.of());
  }

  /**
   * Starts all three; {@code brokerOverrides} change the broker's settings. The broker checks its
   * topics' time retention every second from its first second, rather than every five minutes from
   * its 30th: a record a topic's retention deletes (one timestamped with a reading's time of long
   * ago) is gone within a second of being written, every run, rather than when a check happens to
   * fall within a test.
   */
  public static LocalInfrastructure start(final Map<String, String> brokerOverrides) {
    final Map<String, String> settings = new HashMap<>(PROMPT_RETENTION);
    settings.putAll(brokerOverrides);
    final EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.start(settings);
    final EmbeddedMongoServer mongo = EmbeddedMongoServer.start();
    return new LocalInfrastructure(
        broker, broker, Map.of(), mongo, InProcessSchemaRegistry.start());
  }

  /**
   * Starts the MongoDB stand-in and the registry around {@code kafka}, which it then closes with
   * them; the test's own Kafka clients connect as the secured broker's admin.
   */
  public static LocalInfrastructure around(final SecuredKafka kafka) {
    final Map<String, Object> admin = new HashMap<>(kafka.clientProperties(SecuredKafka.ADMIN));
    admin.remove(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG);
    return new LocalInfrastructure(
        kafka.broker(), kafka, admin, EmbeddedMongoServer.start(), InProcessSchemaRegistry.start());
  }

  public String bootstrapServers() {
    return broker.bootstrapServers();
  }

  public String schemaRegistryUrl() {
    return registry.url();
  }

  public String mongoUri() {
    return mongo.connectionString();
  }

  /** All three, for a run of the processor in the test's JVM. */
  public Endpoints endpoints() {
    return new Endpoints(bootstrapServers(), schemaRegistryUrl(), mongoUri(), kafkaClient);
  }

  /** The registry endpoint itself, for tests that make it fail. */
  public InProcessSchemaRegistry registry() {
    return registry;
  }

  @Override
  public void close() {
    registry.close();
    mongo.close();
    try {
      kafka.close();
    } catch (Exception e) {
      throw new IllegalStateException("cannot stop the broker", e);
    }
  }
}
