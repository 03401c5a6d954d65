package io.bucketer.config;

import io.bucketer.buckets.TimeSpans;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigException;

/**
 * How bucketer uses Kafka: the cluster, the application's identity, the topics it creates and how
 * the state is partitioned and held; and their typed values, read through {@link
 * BucketerConfig#kafka()}. Settings prefixed {@value #CLIENT_PREFIX} are passed, without the
 * prefix, to the Kafka Streams, consumer, producer and admin clients.
 */
public final class KafkaSettings {

  /** Prefix of the settings passed to Kafka's clients without it. */
  public static final String CLIENT_PREFIX = "kafka.";

  /** {@link #INPUT_PARTITIONING}: any record key; readings are repartitioned by series. */
  public static final String PARTITIONING_ANY = "any";

  /** {@link #INPUT_PARTITIONING}: records keyed by sensor id, Kafka's default partitioner. */
  public static final String PARTITIONING_BY_SENSOR = "by-sensor";

  public static final String BOOTSTRAP_SERVERS = "bootstrap.servers";
  public static final String APPLICATION_ID = "application.id";
  public static final String INSTANCE_ID = "instance.id";
  public static final String SINK_GROUP_ID = "sink.group.id";
  public static final String BUCKETS_TOPIC = "buckets.topic";
  public static final String DEAD_LETTER_TOPIC = "dead.letter.topic";
  public static final String SERIES_PARTITIONS = "series.partitions";
  public static final String INPUT_PARTITIONING = "input.partitioning";
  public static final String TOPIC_REPLICATION_FACTOR = "topic.replication.factor";
  public static final String ROCKSDB_MEMORY_BYTES = "rocksdb.memory.bytes";
  public static final String UNCHECKED_PREFIXES = "kafka.unchecked.prefixes";
  public static final String SHUTDOWN_TIMEOUT = "shutdown.timeout";

  static final ConfigDef DEFINITION =
      new ConfigDef()
          .define(
              BOOTSTRAP_SERVERS,
              Type.LIST,
              ConfigDef.NO_DEFAULT_VALUE,
              Importance.HIGH,
              "Kafka brokers to connect to, host:port, comma-separated.")
          .define(
              APPLICATION_ID,
              Type.STRING,
              "bucketer",
              Importance.HIGH,
              "Kafka Streams application id: consumer group, and prefix of internal topics and"
                  + " state; the sink's consumer group is <application.id>-sink unless"
                  + " sink.group.id says otherwise.")
          .define(
              SINK_GROUP_ID,
              Type.STRING,
              "",
              Importance.LOW,
              "The sink's consumer group, whose committed offsets on buckets.topic mark what"
                  + " MongoDB acknowledged. Empty: <application.id>-sink. bucketer rescale sets it"
                  + " on the new layout to the replaced deployment's, so that during the handover"
                  + " the two share the sink's work and each bucket is written to MongoDB once.")
          .define(
              INSTANCE_ID,
              Type.STRING,
              "",
              new StaticMemberId(),
              Importance.MEDIUM,
              "Stable name of this instance, unique among those of its application.id, such as"
                  + " a StatefulSet pod's name. Set, the instance is a static member of its"
                  + " consumer groups (group.instance.id <instance.id>-<n> for Kafka Streams'"
                  + " stream thread n, <instance.id>-sink for the sink): restarted, it takes its"
                  + " partitions back at once instead of waiting for its predecessor's session to"
                  + " expire. A static member does not leave its groups when it stops, cleanly or"
                  + " not: its partitions wait for it for kafka.session.timeout.ms, which bucketer"
                  + " leaves at Kafka's 45 s, longer than a pod takes to restart (a rolling update"
                  + " moves no task); that is also how long the partitions of an instance removed"
                  + " for good stay unprocessed. Needs Kafka Streams' default"
                  + " group.protocol=classic. Empty: dynamic members, which leave their groups"
                  + " when they stop cleanly; an instance restarted after a crash waits for its"
                  + " predecessor's session to expire.")
          .define(
              BUCKETS_TOPIC,
              Type.STRING,
              "iot.buckets",
              Importance.MEDIUM,
              "Compacted topic of closed buckets between the topology and the MongoDB sink;"
                  + " created at start if missing.")
          .define(
              DEAD_LETTER_TOPIC,
              Type.STRING,
              "iot.readings.dlq",
              Importance.MEDIUM,
              "Dead-letter topic: records that cannot become part of a bucket, with a reason"
                  + " header; created at start if missing.")
          .define(
              SERIES_PARTITIONS,
              Type.INT,
              6,
              ConfigDef.Range.atLeast(1),
              Importance.HIGH,
              "Partitions of the internal topic that holds readings by series: the most"
                  + " instances that can share the work. Fixed once deployed (state depends on it).")
          .define(
              INPUT_PARTITIONING,
              Type.STRING,
              PARTITIONING_ANY,
              ConfigDef.ValidString.in(PARTITIONING_ANY, PARTITIONING_BY_SENSOR),
              Importance.HIGH,
              "any: records may have any key; every reading is repartitioned by series into"
                  + " series.partitions partitions (in batches: one Kafka record per partition and"
                  + " commit, holding each of its series' readings). by-sensor:"
                  + " the gateways key each record by its sensor id and let Kafka's default"
                  + " partitioner place it; the state is kept per input partition and nothing is"
                  + " repartitioned. A record on another partition than its sensor id maps to goes"
                  + " to the dead-letter topic (wrong-partition); the input topic's partition count"
                  + " must then never change under it (the processor refuses to start if it did):"
                  + " to grow it, bucketer rescale hands over to a layout that repartitions. See"
                  + " 'Scaling'.")
          .define(
              TOPIC_REPLICATION_FACTOR,
              Type.SHORT,
              (short) -1,
              Importance.MEDIUM,
              "Replication factor of the topics bucketer creates (-1: the broker's default).")
          .define(
              ROCKSDB_MEMORY_BYTES,
              Type.LONG,
              256L * 1024 * 1024,
              ConfigDef.Range.atLeast(16L * 1024 * 1024),
              Importance.MEDIUM,
              "Native memory all state stores of the process share (RocksDB block cache, index"
                  + " and filter blocks, and memtables, up to half of it); comes on top of the"
                  + " Java heap when sizing a container.")
          .define(
              SHUTDOWN_TIMEOUT,
              Type.STRING,
              "60s",
              SettingValidators.spanOfAtLeast(1_000),
              Importance.MEDIUM,
              "How long a stop (SIGTERM) may take, whatever the state: Kafka Streams commits and"
                  + " the sink finishes the batch MongoDB is writing, side by side, within it. What"
                  + " is left uncommitted then is logged, and processed again at the next start:"
                  + " nothing is lost. Keep it below the orchestrator's grace period (the"
                  + " StatefulSet's terminationGracePeriodSeconds, 120).")
          .define(
              UNCHECKED_PREFIXES,
              Type.LIST,
              "",
              Importance.LOW,
              "Prefixes of kafka.* settings (named without kafka.) passed to the Kafka clients"
                  + " unchecked, comma-separated, for a plugin's own settings: a login callback"
                  + " handler's options, a config provider's config.providers.<name>.param.*."
                  + " Every other kafka.* setting must be one Kafka Streams, the producer, the"
                  + " consumer or the admin client defines (also prefixed as Kafka Streams takes"
                  + " them: producer., consumer., main.consumer., restore.consumer.,"
                  + " global.consumer., admin., topic.), or bucketer refuses to start. Not"
                  + " passed to the clients itself.");

  private final AbstractConfig values;
  private final Map<String, Object> clientProperties;

  KafkaSettings(final AbstractConfig values) {
    this.values = values;
    final Map<String, Object> clients = new HashMap<>(values.originalsWithPrefix(CLIENT_PREFIX));
    // bucketer's own kafka.* settings are not the clients'.
    DEFINITION.names().stream()
        .filter(name -> name.startsWith(CLIENT_PREFIX))
        .forEach(name -> clients.remove(name.substring(CLIENT_PREFIX.length())));
    clients.put(BOOTSTRAP_SERVERS, String.join(",", values.getList(BOOTSTRAP_SERVERS)));
    this.clientProperties = Map.copyOf(clients);
  }

  /**
   * The Kafka settings alone, for a command that talks to Kafka only ({@code simulate}): those of
   * {@code settings} this concern defines and every {@code kafka.*}, resolved and checked as {@link
   * BucketerConfig} does. The others are left out unread: they are {@code run}'s, which a shared
   * file also holds.
   *
   * @throws ConfigException listing every Kafka setting that is wrong
   */
  public static KafkaSettings of(final SourcedSettings settings) {
    final Map<String, String> kafka = new HashMap<>();
    settings
        .values()
        .forEach(
            (name, value) -> {
              if (name.startsWith(CLIENT_PREFIX) || DEFINITION.names().contains(name)) {
                kafka.put(name, value);
              }
            });
    final Map<String, Object> resolved = SecretProviders.resolve(kafka);
    SettingsCheck.requireValid(DEFINITION, resolved, settings.origins());
    return new KafkaSettings(new AbstractConfig(DEFINITION, resolved, false));
  }

  /** Properties for every Kafka client, bootstrap servers included. */
  public Map<String, Object> clientProperties() {
    return clientProperties;
  }

  public String applicationId() {
    return values.getString(APPLICATION_ID);
  }

  /** This instance's stable name, when it is a static member of its consumer groups. */
  public Optional<String> instanceId() {
    final String id = values.getString(INSTANCE_ID);
    return id.isEmpty() ? Optional.empty() : Optional.of(id);
  }

  /** The sink's consumer group: see {@link #SINK_GROUP_ID}. */
  public String sinkGroupId() {
    final String configured = values.getString(SINK_GROUP_ID);
    return configured.isEmpty() ? applicationId() + "-sink" : configured;
  }

  public String bucketsTopic() {
    return values.getString(BUCKETS_TOPIC);
  }

  public String deadLetterTopic() {
    return values.getString(DEAD_LETTER_TOPIC);
  }

  public int seriesPartitions() {
    return values.getInt(SERIES_PARTITIONS);
  }

  /** True when the input is trusted to be keyed by sensor id: no repartition. */
  public boolean inputKeyedBySensor() {
    return PARTITIONING_BY_SENSOR.equals(values.getString(INPUT_PARTITIONING));
  }

  public short topicReplicationFactor() {
    return values.getShort(TOPIC_REPLICATION_FACTOR);
  }

  /** How long a stop may take: see {@link #SHUTDOWN_TIMEOUT}. */
  public Duration shutdownTimeout() {
    return TimeSpans.parse(values.getString(SHUTDOWN_TIMEOUT));
  }

  public long rocksDbMemoryBytes() {
    return values.getLong(ROCKSDB_MEMORY_BYTES);
  }

  /** The kafka.* names, without kafka., that pass to the clients unchecked. */
  static List<String> uncheckedPrefixes(final Map<String, ?> settings) {
    final Object value = settings.get(UNCHECKED_PREFIXES);
    if (value == null) {
      return List.of();
    }
    @SuppressWarnings("unchecked") // a LIST setting's value
    final List<String> prefixes =
        (List<String>) ConfigDef.parseType(UNCHECKED_PREFIXES, value, Type.LIST);
    return prefixes.stream()
        .map(
            prefix ->
                prefix.startsWith(CLIENT_PREFIX)
                    ? prefix.substring(CLIENT_PREFIX.length())
                    : prefix)
        .filter(prefix -> !prefix.isEmpty())
        .toList();
  }

  /**
   * Empty, or a name Kafka takes as a {@code group.instance.id} once a suffix is added: Kafka
   * allows letters, digits, '.', '_' and '-', up to 249 characters.
   */
  private static final class StaticMemberId implements ConfigDef.Validator {
    private static final Pattern LEGAL = Pattern.compile("[a-zA-Z0-9._-]{0,200}");

    @Override
    public void ensureValid(final String name, final Object value) {
      if (value == null || !LEGAL.matcher(value.toString()).matches()) {
        throw new ConfigException(
            name, value, "only letters, digits, '.', '_' and '-', at most 200 of them");
      }
    }

    @Override
    public String toString() {
      return "empty, or up to 200 letters, digits, '.', '_' and '-'";
    }
  }
}
