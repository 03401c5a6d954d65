package io.bucketer.embedded;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import kafka.tools.StorageTool;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.security.auth.SecurityProtocol;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.common.utils.Utils;

/**
 * A real Apache Kafka broker running inside this JVM: one KRaft node acting as broker and
 * controller, listening on free loopback ports, with its log directory in a temporary folder that
 * {@link #close()} deletes. Several instances may run at once; each has its own ports and folder.
 *
 * <p>Its settings suit one node running Kafka Streams with {@code exactly_once_v2} (see {@link
 * BrokerProperties}); {@link #start(Map)} can override them.
 */
public final class EmbeddedKafkaBroker implements AutoCloseable {

  private static final Duration TIMEOUT = Duration.ofSeconds(30);
  private static final int START_ATTEMPTS = 3;

  private final Path logDir;
  private final KafkaRaftServer server;
  private final String bootstrapServers;
  private final String saslSslBootstrapServers;
  private final Admin admin;
  private final AtomicBoolean closed = new AtomicBoolean();

  private EmbeddedKafkaBroker(
      final Path logDir,
      final KafkaRaftServer server,
      final String bootstrapServers,
      final String saslSslBootstrapServers,
      final Map<String, Object> adminSecurity) {
    this.logDir = logDir;
    this.server = server;
    this.bootstrapServers = bootstrapServers;
    this.saslSslBootstrapServers = saslSslBootstrapServers;
    final Properties adminProps = new Properties();
    adminProps.putAll(adminSecurity);
    adminProps.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    adminProps.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) TIMEOUT.toMillis());
    this.admin = Admin.create(adminProps);
  }

  /** Starts a broker with the default settings and returns once it answers requests. */
  public static EmbeddedKafkaBroker start() {
    return start(Map.of());
  }

  /**
   * Starts a broker whose settings are the defaults overridden by {@code extraBrokerProps}, and
   * returns once an Admin client gets an answer to describeCluster.
   */
  public static EmbeddedKafkaBroker start(final Map<String, String> extraBrokerProps) {
    return start(extraBrokerProps, Optional.empty(), false);
  }

  /**
   * Starts a secured broker: its client listener is {@code secured}, and {@link #createTopic} runs
   * as its admin user. {@code extraBrokerProps} override the settings, as in {@link #start(Map)}.
   */
  public static EmbeddedKafkaBroker start(
      final Map<String, String> extraBrokerProps, final SaslSslListener secured) {
    return start(extraBrokerProps, Optional.of(secured), false);
  }

  /**
   * Starts a broker with its PLAINTEXT listener and, beside it, the SASL_SSL listener {@code
   * secured} ({@link #saslSslBootstrapServers()}), to compare the two on one broker and the same
   * topics: a benchmark's. PLAINTEXT clients, {@link #createTopic} among them, are {@code
   * User:ANONYMOUS}, a super user; SASL_SSL clients get what ACLs allow them.
   */
  public static EmbeddedKafkaBroker startWithSaslSslBeside(final SaslSslListener secured) {
    return start(Map.of(), Optional.of(secured), true);
  }

  private static EmbeddedKafkaBroker start(
      final Map<String, String> extraBrokerProps,
      final Optional<SaslSslListener> secured,
      final boolean besidePlaintext) {
    RuntimeException last = null;
    // The free ports may be taken by someone else before the broker binds them: try again.
    for (int attempt = 0; attempt < START_ATTEMPTS; attempt++) {
      try {
        return launch(extraBrokerProps, secured, besidePlaintext);
      } catch (RuntimeException e) {
        last = e;
        if (Thread.currentThread().isInterrupted()) {
          break;
        }
      }
    }
    throw last;
  }

  private static EmbeddedKafkaBroker launch(
      final Map<String, String> extraBrokerProps,
      final Optional<SaslSslListener> secured,
      final boolean besidePlaintext) {
    final List<Integer> ports = LoopbackPorts.free(besidePlaintext ? 3 : 2);
    final String plaintext = SecurityProtocol.PLAINTEXT.name;
    final String saslSsl = SecurityProtocol.SASL_SSL.name;
    // The first port is the one this class's admin client uses; the second the controller's.
    final String first = secured.isPresent() && !besidePlaintext ? saslSsl : plaintext;
    final Map<String, Integer> listeners = new HashMap<>(Map.of(first, ports.get(0)));
    if (besidePlaintext) {
      listeners.put(saslSsl, ports.get(2));
    }
    final Path dir = createTempDir();
    KafkaRaftServer server = null;
    try {
      final Map<String, String> overrides = new HashMap<>();
      secured.ifPresent(listener -> overrides.putAll(listener.brokerProperties()));
      overrides.putAll(extraBrokerProps);
      final Properties props =
          BrokerProperties.of(listeners, first, ports.get(1), dir.resolve("data"), overrides);
      format(dir, props, secured.map(SaslSslListener::formatArguments).orElse(List.of()));
      server = new KafkaRaftServer(KafkaConfig.fromProps(props, false), Time.SYSTEM);
      server.startup();
    } catch (RuntimeException e) {
      if (server != null) {
        stop(server);
      }
      deleteQuietly(dir);
      throw e;
    }
    final EmbeddedKafkaBroker broker =
        new EmbeddedKafkaBroker(
            dir,
            server,
            LoopbackPorts.HOST + ":" + ports.get(0),
            listeners.containsKey(saslSsl)
                ? LoopbackPorts.HOST + ":" + listeners.get(saslSsl)
                : null,
            first.equals(saslSsl)
                ? secured.map(listener -> listener.clientProperties(listener.admin())).orElseThrow()
                : Map.of());
    try {
      broker.awaitReady();
      return broker;
    } catch (RuntimeException e) {
      broker.close();
      throw e;
    }
  }

  /**
   * Runs {@code kafka-storage.sh format} in-process: it writes meta.properties and the bootstrap
   * metadata, and a KRaft node refuses to start on an unformatted directory. The tool (rather than
   * its Formatter class) keeps us on kafka_2.13's compile-scope API: kafka-metadata is
   * runtime-only. {@code more} are further arguments: the SCRAM users of a secured broker.
   */
  private static void format(final Path dir, final Properties props, final List<String> more) {
    final Path file = dir.resolve("server.properties");
    final List<String> command =
        new ArrayList<>(
            List.of(
                "format",
                "--cluster-id",
                Uuid.randomUuid().toString(),
                "--config",
                file.toString()));
    command.addAll(more);
    final String[] args = command.toArray(String[]::new);
    try {
      try (Writer writer = Files.newBufferedWriter(file)) {
        props.store(writer, "embedded broker");
      }
      // the tool reports progress on the stream; nobody reads it
      final int exitCode =
          StorageTool.execute(args, new PrintStream(OutputStream.nullOutputStream()));
      if (exitCode != 0) {
        throw new IllegalStateException("kafka-storage format exited with " + exitCode);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("could not format Kafka log dir " + dir, e);
    }
  }

  private void awaitReady() {
    try {
      final var nodes =
          admin.describeCluster().nodes().get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
      if (nodes.isEmpty()) {
        throw new IllegalStateException("broker answered describeCluster without nodes");
      }
    } catch (InterruptedException | ExecutionException | TimeoutException e) {
      throw failure("broker did not become ready", e);
    }
  }

  /** The {@code bootstrap.servers} value for clients, e.g. {@code 127.0.0.1:40123}. */
  public String bootstrapServers() {
    return bootstrapServers;
  }

  /**
   * The {@code bootstrap.servers} of its SASL_SSL listener, the same as {@link #bootstrapServers()}
   * when it has no other.
   *
   * @throws IllegalStateException when it has no SASL_SSL listener
   */
  public String saslSslBootstrapServers() {
    if (saslSslBootstrapServers == null) {
      throw new IllegalStateException("this broker has no SASL_SSL listener");
    }
    return saslSslBootstrapServers;
  }

  /**
   * Creates a topic with replication factor 1 and returns once every partition has a leader, so a
   * client started right after does not see an unknown topic.
   */
  public void createTopic(
      final String name, final int partitions, final Map<String, String> topicConfigs) {
    final NewTopic topic = new NewTopic(name, partitions, (short) 1).configs(topicConfigs);
    try {
      admin.createTopics(List.of(topic)).all().get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
      awaitLeaders(name, partitions);
    } catch (InterruptedException | ExecutionException | TimeoutException e) {
      throw failure("could not create topic " + name, e);
    }
  }

  // The controller has committed the topic, but the broker's metadata cache may lag behind.
  private void awaitLeaders(final String name, final int partitions)
      throws InterruptedException, ExecutionException, TimeoutException {
    final long deadline = System.nanoTime() + TIMEOUT.toNanos();
    while (!hasLeaders(name, partitions)) {
      if (System.nanoTime() > deadline) {
        throw new TimeoutException("partitions of " + name + " have no leader yet");
      }
      TimeUnit.MILLISECONDS.sleep(20);
    }
  }

  private boolean hasLeaders(final String name, final int partitions)
      throws InterruptedException, ExecutionException {
    try {
      final TopicDescription description =
          admin.describeTopics(List.of(name)).allTopicNames().get().get(name);
      return description.partitions().size() == partitions
          && description.partitions().stream().allMatch(p -> p.leader() != null);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof UnknownTopicOrPartitionException) {
        return false;
      }
      throw e;
    }
  }

  /** Stops the broker and deletes its log directory. Safe to call more than once. */
  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    admin.close(Duration.ofSeconds(5));
    stop(server);
    deleteQuietly(logDir);
  }

  private static void stop(final KafkaRaftServer server) {
    server.shutdown();
    server.awaitShutdown();
  }

  private static Path createTempDir() {
    try {
      return Files.createTempDirectory("bucketer-kafka-");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void deleteQuietly(final Path dir) {
    try {
      Utils.delete(dir.toFile());
    } catch (IOException e) {
      // a leftover temp folder is harmless; failing close() over it would hide the real outcome
    }
  }

  private static RuntimeException failure(final String message, final Exception cause) {
    if (cause instanceof InterruptedException) {
      Thread.currentThread().interrupt();
    }
    return new IllegalStateException(message, cause);
  }
}
