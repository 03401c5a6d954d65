package io.bucketer.config;

import io.bucketer.buckets.BucketLayout;
import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.Handover;
import io.bucketer.buckets.Retention;
import io.bucketer.ingest.InputFormat;
import io.bucketer.ingest.ReadingMapping;
import io.bucketer.topics.BucketsTopicCleanup;
import io.bucketer.windows.DuplicateTimestamps;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigException;

/**
 * All of bucketer's settings, read and checked at once: the composition of the settings each
 * concern declares ({@link KafkaSettings}, {@link InputSettings}, {@link WindowSettings}, {@link
 * MongoSettings}, {@link HttpSettings}), as each Kafka client composes its own {@link ConfigDef}.
 * So settings read, validate and print like a Kafka client's. Values holding secrets are {@link
 * Type#PASSWORD}, which Kafka never prints, and any value may come from a file, a directory or an
 * environment variable ({@link SecretProviders}). Nothing here logs a setting.
 *
 * <p>Each concern's values are read through it ({@link #http()}); the accessors here are the ones
 * the pipeline has always read, each handing on to its concern.
 */
public final class BucketerConfig extends AbstractConfig {

  /** Every setting, concern by concern: the order of the configuration reference. */
  public static final ConfigDef DEFINITION =
      compose(
          KafkaSettings.DEFINITION,
          InputSettings.DEFINITION,
          WindowSettings.DEFINITION,
          MongoSettings.DEFINITION,
          HttpSettings.DEFINITION,
          RescaleSettings.DEFINITION);

  private final KafkaSettings kafka;
  private final InputSettings input;
  private final WindowSettings windows;
  private final MongoSettings mongo;
  private final HttpSettings http;
  private final Handover handover;

  /**
   * @throws ConfigException listing every setting that is wrong
   */
  public BucketerConfig(final Map<String, ?> settings) {
    this(settings, Map.of());
  }

  /**
   * @param origins where each setting came from, named in errors
   * @throws ConfigException listing every setting that is wrong: unknown names included
   */
  public BucketerConfig(final Map<String, ?> settings, final Map<String, String> origins) {
    super(DEFINITION, checked(settings, origins), false);
    this.input = new InputSettings(this);
    this.kafka = new KafkaSettings(this);
    this.windows = new WindowSettings(this);
    this.mongo = new MongoSettings(this);
    this.http = new HttpSettings(this);
    this.handover = new RescaleSettings(this).handover(windows.granularities());
    if (handover.side() == Handover.Side.FROM && kafka.inputKeyedBySensor()) {
      throw new ConfigException(
          KafkaSettings.INPUT_PARTITIONING,
          KafkaSettings.PARTITIONING_BY_SENSOR,
          "the new layout of a rescale (rescale.from) needs input.partitioning=any: keyed by"
              + " sensor, its state would follow the input's partitions, which the replaced"
              + " deployment's late readings may still arrive on (docs/sizing.md)");
    }
    if (input.format() == InputFormat.SPARKPLUG_B && kafka.inputKeyedBySensor()) {
      throw new ConfigException(
          KafkaSettings.INPUT_PARTITIONING,
          KafkaSettings.PARTITIONING_BY_SENSOR,
          "input.format=sparkplug-b repartitions the input by edge node: use "
              + KafkaSettings.INPUT_PARTITIONING
              + "="
              + KafkaSettings.PARTITIONING_ANY);
    }
  }

  /** The settings with their ${provider:path:key} references resolved, once all are checked. */
  private static Map<String, ?> checked(
      final Map<String, ?> settings, final Map<String, String> origins) {
    final Map<String, Object> resolved = SecretProviders.resolve(settings);
    SettingsCheck.requireValid(DEFINITION, resolved, origins);
    return resolved;
  }

  /** One definition holding the keys of all, in their order; a name defined twice is refused. */
  private static ConfigDef compose(final ConfigDef... concerns) {
    final ConfigDef all = new ConfigDef();
    for (final ConfigDef concern : concerns) {
      concern.configKeys().values().forEach(all::define);
    }
    return all;
  }

  public KafkaSettings kafka() {
    return kafka;
  }

  public InputSettings input() {
    return input;
  }

  public WindowSettings windows() {
    return windows;
  }

  public MongoSettings mongo() {
    return mongo;
  }

  public HttpSettings http() {
    return http;
  }

  /** This deployment's side of a rescale under way, or {@link Handover#NONE}. */
  public Handover handover() {
    return handover;
  }

  /** Properties for every Kafka client, bootstrap servers included. */
  public Map<String, Object> kafkaProperties() {
    return kafka.clientProperties();
  }

  public String applicationId() {
    return kafka.applicationId();
  }

  /** This instance's stable name, when it is a static member of its consumer groups. */
  public Optional<String> instanceId() {
    return kafka.instanceId();
  }

  public String bucketsTopic() {
    return kafka.bucketsTopic();
  }

  public String deadLetterTopic() {
    return kafka.deadLetterTopic();
  }

  public int seriesPartitions() {
    return kafka.seriesPartitions();
  }

  /** True when the input is trusted to be keyed by sensor id: no repartition. */
  public boolean inputKeyedBySensor() {
    return kafka.inputKeyedBySensor();
  }

  public short topicReplicationFactor() {
    return kafka.topicReplicationFactor();
  }

  public long rocksDbMemoryBytes() {
    return kafka.rocksDbMemoryBytes();
  }

  public String inputTopic() {
    return input.topic();
  }

  public InputFormat inputFormat() {
    return input.format();
  }

  /** Which fields of an input record make its readings. */
  public ReadingMapping readingMapping() {
    return input.readingMapping();
  }

  public String schemaRegistryUrl() {
    return input.schemaRegistryUrl();
  }

  public String schemaRegistryUserInfo() {
    return input.schemaRegistryUserInfo();
  }

  public Duration schemaRegistryRetryTimeout() {
    return input.schemaRegistryRetryTimeout();
  }

  public Instant timestampFloor() {
    return input.timestampFloor();
  }

  public Duration maxFutureSkew() {
    return input.maxFutureSkew();
  }

  public int maxReadingBytes() {
    return input.maxReadingBytes();
  }

  public List<Granularity> granularities() {
    return windows.granularities();
  }

  public Duration grace() {
    return windows.grace();
  }

  public Duration idleTimeout() {
    return windows.idleTimeout();
  }

  public Duration latenessHorizon() {
    return windows.latenessHorizon();
  }

  public DuplicateTimestamps duplicateTimestamps() {
    return windows.duplicateTimestamps();
  }

  /** Measurements per bucket document under both caps. */
  public int measurementsPerBucket() {
    return windows.measurementsPerBucket();
  }

  /**
   * What the documents of each granularity hold, and how many entries one may.
   *
   * @throws ConfigException when a granularity named to keep measurements is not configured
   */
  public BucketLayout bucketLayout() {
    return windows.bucketLayout();
  }

  /**
   * How long each granularity's documents are kept.
   *
   * @throws ConfigException when it names a granularity that is not configured
   */
  public Retention retention() {
    return windows.retention();
  }

  public long windowCacheMaxBytes() {
    return windows.windowCacheMaxBytes();
  }

  /**
   * How the buckets topic must be cleaned to keep every bucket MongoDB keeps: for the granularities
   * and their retention, with the grace and the lateness horizon as a margin.
   */
  public BucketsTopicCleanup bucketsTopicCleanup() {
    return BucketsTopicCleanup.of(granularities(), retention(), grace().plus(latenessHorizon()));
  }

  public String mongoUri() {
    return mongo.uri();
  }

  public String mongoDatabase() {
    return mongo.database();
  }

  public String collectionPrefix() {
    return mongo.collectionPrefix();
  }

  public int sinkBatchSize() {
    return mongo.sinkBatchSize();
  }

  public int sinkWritesInFlight() {
    return mongo.sinkWritesInFlight();
  }

  public Duration sinkWriteTimeout() {
    return mongo.sinkWriteTimeout();
  }

  public Duration sinkRetryBackoffMax() {
    return mongo.sinkRetryBackoffMax();
  }
}
