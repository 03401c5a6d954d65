package io.bucketer.testing;

import static org.awaitility.Awaitility.await;

import io.bucketer.buckets.Granularity;
import io.bucketer.cli.BucketerCli;
import io.bucketer.config.BucketerConfig;
import io.bucketer.config.InputSettings;
import io.bucketer.config.KafkaSettings;
import io.bucketer.embedded.ProcessorProcess;
import io.bucketer.query.StoredDocuments;
import io.bucketer.topics.DeadLetterTopic;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.awaitility.core.ConditionTimeoutException;

/**
 * One isolated run of the processor against {@link LocalInfrastructure}: its own application id,
 * topics and MongoDB database, so tests never see each other's data, and processors in child JVMs
 * whose state and logs live under the test's folder.
 */
public final class IsolatedRun implements AutoCloseable {

  public static final Duration DEADLINE = Duration.ofSeconds(90);

  private final LocalInfrastructure infrastructure;
  private final Path dir;
  private final String id = RunSettings.newId();
  private final Map<String, String> settings = new LinkedHashMap<>();
  private final Admin admin;
  private final StoredDocuments store;
  private final ConsumerGroupWatch group;
  private final List<ProcessorProcess> processors = new ArrayList<>();
  private final Map<String, Integer> startsByInstance = new HashMap<>();

  /**
   * Creates the input topic with {@code inputPartitions} partitions. {@code overrides} are bucketer
   * settings on top of the run's own (ids, topics, database, three series partitions).
   */
  public IsolatedRun(
      final LocalInfrastructure infrastructure,
      final Path dir,
      final int inputPartitions,
      final Map<String, String> overrides)
      throws InterruptedException, ExecutionException, TimeoutException {
    this.infrastructure = infrastructure;
    this.dir = dir;
    settings.putAll(RunSettings.of(id, infrastructure.endpoints()));
    settings.putAll(overrides);
    final Properties adminProperties = new Properties();
    adminProperties.put(
        AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, infrastructure.bootstrapServers());
    this.admin = Admin.create(adminProperties);
    admin
        .createTopics(List.of(new NewTopic(inputTopic(), inputPartitions, (short) 1)))
        .all()
        .get(30, TimeUnit.SECONDS);
    this.store =
        new StoredDocuments(
            infrastructure.mongoUri(),
            id,
            new BucketerConfig(new HashMap<String, Object>(settings)).collectionPrefix());
    this.group = new ConsumerGroupWatch(admin, id, inputTopic());
  }

  /** The Kafka Streams application id; the sink's group is this plus {@code -sink}. */
  public String applicationId() {
    return id;
  }

  public String inputTopic() {
    return settings.get(InputSettings.TOPIC);
  }

  /** The internal topic of readings keyed by series, whose partitions hold the open buckets. */
  public String readingsBySeriesTopic() {
    return id + "-readings-by-series-repartition";
  }

  public String bucketsTopic() {
    return settings.get(KafkaSettings.BUCKETS_TOPIC);
  }

  /** The run's bucketer settings, as every processor of it starts with them. */
  public Map<String, String> settings() {
    return Map.copyOf(settings);
  }

  public String deadLetterTopic() {
    return settings.get(KafkaSettings.DEAD_LETTER_TOPIC);
  }

  public Admin admin() {
    return admin;
  }

  /** The run's MongoDB database, read back. */
  public StoredDocuments store() {
    return store;
  }

  /** The processors' consumer group (the Kafka Streams application id). */
  public ConsumerGroupWatch group() {
    return group;
  }

  /**
   * Starts a processor for {@code instance} in a child JVM. Its state directory depends on the
   * instance only, so a restarted instance finds the state its predecessor left, like a pod that
   * keeps its volume; each start logs to a file of its own.
   */
  public ProcessorProcess startProcessor(final String instance) {
    return startProcessor(instance, Map.of());
  }

  /** As {@link #startProcessor(String)}, with settings of this instance's own (its port, say). */
  public ProcessorProcess startProcessor(final String instance, final Map<String, String> own) {
    final int start = startsByInstance.merge(instance, 1, Integer::sum);
    final String name = instance + "-" + start;
    final Map<String, String> processorSettings = new LinkedHashMap<>(settings);
    processorSettings.put(
        KafkaSettings.CLIENT_PREFIX + "state.dir",
        dir.resolve(instance).resolve("state").toString());
    // A client id per start tells this start's group members from those of a killed predecessor.
    processorSettings.put(KafkaSettings.CLIENT_PREFIX + "client.id", id + "-" + name);
    processorSettings.putAll(own);
    final ProcessorProcess processor =
        ProcessorProcess.start(
            BucketerCli.class, name, processorSettings, dir.resolve(name + ".log"));
    processors.add(processor);
    return processor;
  }

  /**
   * Waits until the group is stable and consists of exactly these processors, which share every
   * input partition between them: they are consuming. Fails at once if a processor died on its own.
   */
  public void awaitConsumingBy(final ProcessorProcess... members) {
    final List<String> clientIds = Stream.of(members).map(ProcessorProcess::clientId).toList();
    await("group " + id + " stable with exactly " + clientIds + " consuming the input")
        .atMost(DEADLINE)
        .pollInterval(Duration.ofMillis(200))
        .failFast(this::assertNoProcessorDiedOnItsOwn)
        .until(() -> group.isStableAndConsumingAll(clientIds));
  }

  /**
   * Waits until the buckets of each granularity hold at least {@code readings} readings (more would
   * be readings counted twice, which the caller's comparison then shows). On timeout it fails with
   * the counts and the dead-letter topic's content, which tell lost readings from late ones.
   */
  public void awaitReadingsInBuckets(final long readings, final Granularity... granularities) {
    try {
      await("every reading in a bucket of " + List.of(granularities))
          .atMost(DEADLINE)
          .pollInterval(Duration.ofMillis(250))
          .failFast(this::assertNoProcessorDiedOnItsOwn)
          .until(
              () -> Stream.of(granularities).allMatch(g -> store.readingsInBuckets(g) >= readings));
    } catch (ConditionTimeoutException e) {
      final Map<String, Long> counts = new LinkedHashMap<>();
      for (final Granularity granularity : granularities) {
        counts.put(granularity.label(), store.readingsInBuckets(granularity));
      }
      throw new AssertionError(
          "expected "
              + readings
              + " readings in the buckets of each granularity, found "
              + counts
              + "; dead letters by reason: "
              + DeadLetterTopic.countByReason(infrastructure.bootstrapServers(), deadLetterTopic())
              + "; processors: "
              + processors,
          e);
    }
  }

  /**
   * Waits until the processors' group has committed, for every input partition, the offset at its
   * end: every reading sent so far has been read and its effects are in the state stores.
   */
  public void awaitInputConsumed() {
    await("the group committed the end of every input partition")
        .atMost(DEADLINE)
        .pollInterval(Duration.ofMillis(250))
        .failFast(this::assertNoProcessorDiedOnItsOwn)
        .until(group::hasCommittedTheEndOfTheInput);
  }

  /**
   * Fails, with the end of its log, if a processor that was neither killed nor stopped is gone: it
   * crashed on its own. For awaitility's {@code failFast}, so that a wait ends at once.
   */
  public void assertNoProcessorDiedOnItsOwn() {
    for (final ProcessorProcess processor : processors) {
      if (processor.diedOnItsOwn()) {
        throw new AssertionError(processor + " died on its own:\n" + processor.logTail(40));
      }
    }
  }

  /** Kills every processor still running, then closes the clients. */
  @Override
  public void close() {
    processors.forEach(ProcessorProcess::close);
    store.close();
    admin.close(Duration.ofSeconds(5));
  }
}
