package io.bucketer.config;

import com.mongodb.ConnectionString;
import io.bucketer.buckets.BucketDocumentNames;
import io.bucketer.buckets.BucketLayout;
import io.bucketer.buckets.BucketLimits;
import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.Retention;
import io.bucketer.buckets.TimeSpans;
import io.bucketer.ingest.FieldPath;
import io.bucketer.ingest.InputFormat;
import io.bucketer.ingest.ReadingMapping;
import io.bucketer.query.QueryLimits;
import io.bucketer.windows.DuplicateTimestamps;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.types.Password;

/**
 * The one definition of bucketer's settings: names, types, defaults, checks and documentation
 * (Kafka's {@link ConfigDef}, so settings read, validate and print like a Kafka client's). Settings
 * prefixed {@code kafka.} are passed, without the prefix, to the Kafka Streams, consumer, producer
 * and admin clients untouched. Values holding secrets are {@link Type#PASSWORD}, which Kafka never
 * prints.
 */
public final class BucketerConfig extends AbstractConfig {

  public static final String KAFKA_PREFIX = "kafka.";

  public static final String BOOTSTRAP_SERVERS = "bootstrap.servers";
  public static final String SCHEMA_REGISTRY_URL = "schema.registry.url";
  public static final String SCHEMA_REGISTRY_USER_INFO = "schema.registry.basic.auth.user.info";
  public static final String MONGODB_URI = "mongodb.uri";
  public static final String MONGODB_DATABASE = "mongodb.database";
  public static final String COLLECTION_PREFIX = "mongodb.collection.prefix";
  public static final String APPLICATION_ID = "application.id";
  public static final String INSTANCE_ID = "instance.id";
  public static final String INPUT_TOPIC = "input.topic";
  public static final String INPUT_FORMAT = "input.format";
  public static final String INPUT_SENSOR_ID_FIELD = "input.sensor.id.field";
  public static final String INPUT_TIME_FIELD = "input.time.field";
  public static final String INPUT_METRIC_FIELD = "input.metric.field";
  public static final String INPUT_UTC_OFFSET_FIELD = "input.utc.offset.field";
  public static final String INPUT_VALUE_FIELDS = "input.value.fields";
  public static final String BUCKETS_TOPIC = "buckets.topic";
  public static final String DEAD_LETTER_TOPIC = "dead.letter.topic";
  public static final String GRANULARITIES = "granularities";
  public static final String GRACE = "grace";
  public static final String IDLE_TIMEOUT = "idle.timeout";
  public static final String LATENESS_HORIZON = "lateness.horizon";
  public static final String DUPLICATE_TIMESTAMPS = "duplicate.timestamps";
  public static final String BUCKET_MAX_MEASUREMENTS = "bucket.max.measurements";
  public static final String BUCKET_MAX_BYTES = "bucket.max.bytes";
  public static final String RETENTION = "retention";
  public static final String BUCKET_MEASUREMENTS_GRANULARITIES =
      "bucket.measurements.granularities";
  public static final String SERIES_PARTITIONS = "series.partitions";
  public static final String INPUT_PARTITIONING = "input.partitioning";

  /** {@link #INPUT_PARTITIONING}: any record key; readings are repartitioned by series. */
  public static final String PARTITIONING_ANY = "any";

  /** {@link #INPUT_PARTITIONING}: records keyed by sensor id, Kafka's default partitioner. */
  public static final String PARTITIONING_BY_SENSOR = "by-sensor";

  public static final String TOPIC_REPLICATION_FACTOR = "topic.replication.factor";
  public static final String SINK_BATCH_SIZE = "sink.batch.size";
  public static final String SINK_WRITES_IN_FLIGHT = "sink.max.writes.in.flight";
  public static final String SINK_WRITE_TIMEOUT = "sink.write.timeout";
  public static final String TIMESTAMP_FLOOR = "timestamp.floor";
  public static final String MAX_FUTURE_SKEW = "max.future.skew";
  public static final String MAX_READING_BYTES = "max.reading.bytes";
  public static final String SCHEMA_REGISTRY_RETRY_TIMEOUT = "schema.registry.retry.timeout";
  public static final String SINK_RETRY_BACKOFF_MAX = "sink.retry.backoff.max";
  public static final String ROCKSDB_MEMORY_BYTES = "rocksdb.memory.bytes";
  public static final String WINDOW_CACHE_MAX_BYTES = "window.cache.max.bytes";
  public static final String HTTP_PORT = "http.port";
  public static final String HTTP_BIND_ADDRESS = "http.bind.address";
  public static final String HTTP_ADVERTISED_HOST = "http.advertised.host";
  public static final String QUERY_MAX_RANGE = "query.max.range";
  public static final String QUERY_MAX_POINTS = "query.max.points";
  public static final String QUERY_TIMEOUT = "query.timeout";

  public static final ConfigDef DEFINITION =
      new ConfigDef()
          .define(
              BOOTSTRAP_SERVERS,
              Type.LIST,
              ConfigDef.NO_DEFAULT_VALUE,
              Importance.HIGH,
              "Kafka brokers to connect to, host:port, comma-separated.")
          .define(
              SCHEMA_REGISTRY_URL,
              Type.STRING,
              "",
              Importance.HIGH,
              "Schema Registry REST endpoint(s) holding the readings' writer schemas. Required"
                  + " with input.format=avro; unused with json.")
          .define(
              SCHEMA_REGISTRY_USER_INFO,
              Type.PASSWORD,
              null,
              Importance.MEDIUM,
              "user:password for the registry's HTTP basic authentication, if it needs one.")
          .define(
              SCHEMA_REGISTRY_RETRY_TIMEOUT,
              Type.STRING,
              "30s",
              new SpanOfAtLeast(1_000),
              Importance.LOW,
              "How long a schema lookup retries an unreachable registry (connection errors, 5xx,"
                  + " 429) before giving up; the stream thread is then replaced and resumes from its"
                  + " last commit, after a pause of about the consumer's session.timeout.ms."
                  + " Readings are never dead-lettered for it. Keep it under max.poll.interval.ms.")
          .define(
              MONGODB_URI,
              Type.PASSWORD,
              ConfigDef.NO_DEFAULT_VALUE,
              new MongoUri(),
              Importance.HIGH,
              "MongoDB connection string; TLS and credentials go here (never printed).")
          .define(MONGODB_DATABASE, Type.STRING, "iot", Importance.HIGH, "Database of the buckets.")
          .define(
              COLLECTION_PREFIX,
              Type.STRING,
              BucketDocumentNames.DEFAULT_COLLECTION_PREFIX,
              Importance.MEDIUM,
              "Bucket collections are named prefix + granularity: buckets_1m, buckets_1h.")
          .define(
              APPLICATION_ID,
              Type.STRING,
              "bucketer",
              Importance.HIGH,
              "Kafka Streams application id: consumer group, and prefix of internal topics and"
                  + " state; the sink's consumer group is <application.id>-sink.")
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
              INPUT_TOPIC,
              Type.STRING,
              "iot.readings",
              Importance.HIGH,
              "Topic of the readings (see input.format).")
          .define(
              INPUT_FORMAT,
              Type.STRING,
              InputFormat.AVRO.label(),
              ConfigDef.ValidString.in(InputFormat.AVRO.label(), InputFormat.JSON.label()),
              Importance.HIGH,
              "What the input records' values are. avro: Schema Registry framed Avro (magic byte"
                  + " 0, schema id, Avro binary) of any writer schema; the input.*.field settings"
                  + " say which fields make the readings, located in each writer schema once per"
                  + " schema id. json: one UTF-8 JSON object per record, no registry; a value that"
                  + " is not one goes to the dead-letter topic (malformed-json).")
          .define(
              INPUT_SENSOR_ID_FIELD,
              Type.STRING,
              "sensor_id",
              new FieldPathSetting(false),
              Importance.MEDIUM,
              "Field of the input records holding the sensor id: a string, or an integer taken as"
                  + " its decimal digits. Dotted for a field of a nested record (meta.deviceId), as"
                  + " are all input.*.field settings; in Avro a field is found by its name or, once"
                  + " renamed, by an alias the writer schema gives it. A record without it goes to"
                  + " the dead-letter topic (missing-field), as does every record of a writer"
                  + " schema that lacks it.")
          .define(
              INPUT_TIME_FIELD,
              Type.STRING,
              "timestamp",
              new FieldPathSetting(false),
              Importance.MEDIUM,
              "Field holding the readings' event time: in Avro a long of timestamp-millis,"
                  + " timestamp-micros (converted to milliseconds) or plain epoch milliseconds; in"
                  + " JSON an ISO-8601 instant with its offset (2025-06-01T09:00:00Z) or an integer"
                  + " of epoch milliseconds. Missing: missing-field; of another kind: not-a-time.")
          .define(
              INPUT_METRIC_FIELD,
              Type.STRING,
              "metric",
              new FieldPathSetting(true),
              Importance.MEDIUM,
              "Field naming what was measured (a string; absent or null: no metric). Empty: no"
                  + " metric field, and the readings of each value field take the field's own name"
                  + " (its last segment) as their metric, for records that hold several values."
                  + " With a metric field, input.value.fields must name exactly one field.")
          .define(
              INPUT_UTC_OFFSET_FIELD,
              Type.STRING,
              "utc_offset_minutes",
              new FieldPathSetting(true),
              Importance.LOW,
              "Field holding the gateway's offset from UTC in minutes (an int), kept in the"
                  + " bucket documents; empty: none.")
          .define(
              INPUT_VALUE_FIELDS,
              Type.LIST,
              "value",
              new FieldPathList(),
              Importance.MEDIUM,
              "Fields holding the measured values, comma-separated: in Avro int, long, float or"
                  + " double (or a union of one with null), in JSON numbers. Each one a record holds"
                  + " gives one reading; a null or absent one is skipped (a value field a writer"
                  + " schema lacks too), and a record with no value goes to the dead-letter topic"
                  + " (no-values). A value that is not a number: not-a-number, the whole record.")
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
              TIMESTAMP_FLOOR,
              Type.STRING,
              "2000-01-01T00:00:00Z",
              new IsoInstant(),
              Importance.LOW,
              "Readings timestamped before this instant go to the dead-letter topic"
                  + " (timestamp-before-floor): a gateway whose clock was never set sends times"
                  + " near 1970.")
          .define(
              MAX_FUTURE_SKEW,
              Type.STRING,
              "1h",
              new Span(),
              Importance.LOW,
              "Readings timestamped further than this ahead of the processor's wall clock go to"
                  + " the dead-letter topic (timestamp-in-future): accepted, they would move their"
                  + " series' event time ahead and close its open windows early.")
          .define(
              MAX_READING_BYTES,
              Type.INT,
              65_536,
              ConfigDef.Range.atLeast(64),
              Importance.LOW,
              "Input records whose value is larger than this many bytes go to the dead-letter"
                  + " topic (record-too-large) without being decoded: a reading takes well under"
                  + " a hundred bytes.")
          .define(
              GRANULARITIES,
              Type.STRING,
              "1m,1h",
              new GranularityList(),
              Importance.HIGH,
              "Window sizes, comma-separated (units ms, s, m, h, d). Each size gets a"
                  + " collection; a coarser size is rolled up from a finer one that divides it.")
          .define(
              GRACE,
              Type.STRING,
              "10s",
              new Span(),
              Importance.HIGH,
              "How long after a window's end (in event time) readings are still accepted;"
                  + " the bucket is written when event time passes end + grace.")
          .define(
              IDLE_TIMEOUT,
              Type.STRING,
              "30s",
              new Span(),
              Importance.MEDIUM,
              "When a series has sent no reading for this long (wall clock), its windows whose"
                  + " end + grace has passed on the wall clock are closed; later readings for them"
                  + " are too late.")
          .define(
              LATENESS_HORIZON,
              Type.STRING,
              "24h",
              new Span(),
              Importance.HIGH,
              "How long after a window closes (in its series' event time) a late reading is"
                  + " still merged in: the window is written again, whole, with a higher revision."
                  + " Later readings go to the dead-letter topic (too-late). Closed windows and"
                  + " their readings stay in the state store this long; 0s turns merging off.")
          .define(
              DUPLICATE_TIMESTAMPS,
              Type.STRING,
              DuplicateTimestamps.KEEP_LAST.label(),
              ConfigDef.ValidString.in(
                  DuplicateTimestamps.KEEP_LAST.label(), DuplicateTimestamps.KEEP_FIRST.label()),
              Importance.MEDIUM,
              "A series and an event time identify a reading. A reading whose series already"
                  + " holds one at its time with the same value is a resend (MQTT QoS 1, a gateway"
                  + " replaying its buffer): it counts once, and a closed window is not written"
                  + " again. With another value: keep-last replaces the earlier value, and a"
                  + " closed window is written again with a higher revision (InfluxDB's rule for a"
                  + " point written twice); keep-first keeps the earlier value and drops the later"
                  + " reading (an insert under a unique index). Either holds within the lateness"
                  + " horizon, across restarts. Counted in bucketer_readings_total"
                  + " (outcome=resent|replaced|kept-first).")
          .define(
              BUCKET_MAX_MEASUREMENTS,
              Type.INT,
              1000,
              ConfigDef.Range.between(1, 100_000),
              Importance.MEDIUM,
              "Most measurements in one bucket document; a fuller window is written as several"
                  + " documents (seq 0, 1, ...), each with its own computed fields and the"
                  + " window's totals.")
          .define(
              BUCKET_MAX_BYTES,
              Type.INT,
              BucketLimits.DEFAULT_MAX_BYTES,
              ConfigDef.Range.between(16_384, 8_388_608),
              Importance.LOW,
              "Approximate largest bucket document in bytes (MongoDB's own buckets stop near"
                  + " 125 KiB); lowers the measurements per document when it binds.")
          .define(
              RETENTION,
              Type.STRING,
              "",
              new RetentionList(),
              Importance.MEDIUM,
              "How long MongoDB keeps each granularity's documents after their window ends,"
                  + " comma-separated, such as 1m=30d,1h=400d; a granularity not named keeps them"
                  + " for ever. Each named one gets a TTL index on end_date (expireAfterSeconds),"
                  + " created at start and changed in place (collMod) when this changes; one no"
                  + " longer named loses it. The query API refuses a range that reaches past what"
                  + " is kept.")
          .define(
              BUCKET_MEASUREMENTS_GRANULARITIES,
              Type.STRING,
              "",
              new OptionalGranularityList(),
              Importance.MEDIUM,
              "Granularities whose documents keep every raw measurement, comma-separated; empty"
                  + " (the default) means the finest only. The documents of the others hold a"
                  + " summary (count, sum, min, max, first, last, spread) of each finer window"
                  + " they are rolled up from: 60 per hour document at any reading rate. A"
                  + " granularity that no finer one divides keeps its measurements, having no"
                  + " finer windows.")
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
                  + " series.partitions partitions (each series' readings in batches, one Kafka"
                  + " record per series and commit). by-sensor:"
                  + " the gateways key each record by its sensor id and let Kafka's default"
                  + " partitioner place it; the state is kept per input partition and nothing is"
                  + " repartitioned. A record on another partition than its sensor id maps to goes"
                  + " to the dead-letter topic (wrong-partition); the input topic's partition count"
                  + " must then never change (the processor refuses to start if it did). See"
                  + " 'Scaling'.")
          .define(
              TOPIC_REPLICATION_FACTOR,
              Type.SHORT,
              (short) -1,
              Importance.MEDIUM,
              "Replication factor of the topics bucketer creates (-1: the broker's default).")
          .define(
              SINK_BATCH_SIZE,
              Type.INT,
              500,
              ConfigDef.Range.atLeast(1),
              Importance.MEDIUM,
              "Most bucket documents in one MongoDB bulk write.")
          .define(
              SINK_WRITES_IN_FLIGHT,
              Type.INT,
              4,
              ConfigDef.Range.atLeast(1),
              Importance.MEDIUM,
              "Most bulk writes waiting for MongoDB's acknowledgement at once.")
          .define(
              SINK_WRITE_TIMEOUT,
              Type.STRING,
              "30s",
              new Span(),
              Importance.LOW,
              "How long one batch may wait for MongoDB before it is retried. Unless mongodb.uri"
                  + " sets them, also the MongoDB client's socket read timeout and (up to 30s) its"
                  + " server selection timeout.")
          .define(
              SINK_RETRY_BACKOFF_MAX,
              Type.STRING,
              "10s",
              new Span(),
              Importance.LOW,
              "Longest wait between two attempts at a batch MongoDB did not acknowledge; the wait"
                  + " doubles from 200ms up to it, which bounds how long the sink takes to notice"
                  + " that MongoDB is back.")
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
              WINDOW_CACHE_MAX_BYTES,
              Type.LONG,
              256L * 1024 * 1024,
              ConfigDef.Range.atLeast(0),
              Importance.MEDIUM,
              "Heap the open windows of all tasks may take as objects, each charged its largest"
                  + " size: 1.25 KiB for a window that holds readings, 256 bytes for one of sums,"
                  + " so 1.5 KiB per series with 1m and 1h windows (the default fits 170,000"
                  + " series). A cached window reaches RocksDB and the changelog once per commit,"
                  + " however many readings it took. Windows that find it spent are written and"
                  + " read back for every reading, as without the cache. Count it in -Xmx.")
          .define(
              HTTP_PORT,
              Type.INT,
              8080,
              ConfigDef.Range.between(0, 65_535),
              Importance.MEDIUM,
              "Port of the operations endpoints (/metrics, /health, /ready); 0 picks a free"
                  + " port.")
          .define(
              HTTP_BIND_ADDRESS,
              Type.STRING,
              "0.0.0.0",
              new NonBlank(),
              Importance.LOW,
              "Address the operations endpoints listen on; 0.0.0.0 is every interface.")
          .define(
              HTTP_ADVERTISED_HOST,
              Type.STRING,
              "",
              Importance.MEDIUM,
              "Host name or address under which the other instances reach this one's http.port:"
                  + " a query for a series another instance holds is forwarded there (Kafka"
                  + " Streams' application.server). Empty: this machine's host name.")
          .define(
              QUERY_MAX_RANGE,
              Type.STRING,
              "366d",
              new Span(),
              Importance.LOW,
              "Longest range one query may cover; longer ones are refused with 400.")
          .define(
              QUERY_MAX_POINTS,
              Type.INT,
              2_000,
              ConfigDef.Range.atLeast(1),
              Importance.LOW,
              "Most windows one chart query (/buckets) may cover; more are refused with 400.")
          .define(
              QUERY_TIMEOUT,
              Type.STRING,
              "30s",
              new Span(),
              Importance.LOW,
              "How long a query waits for MongoDB, or for the instance it was forwarded to.");

  private final Map<String, Object> kafkaProperties;
  private final ReadingMapping readingMapping;

  public BucketerConfig(final Map<String, ?> settings) {
    super(DEFINITION, settings, false);
    if (inputFormat() == InputFormat.AVRO && schemaRegistryUrl().isBlank()) {
      throw new ConfigException(
          SCHEMA_REGISTRY_URL, schemaRegistryUrl(), "must be set with input.format=avro");
    }
    this.readingMapping = buildReadingMapping();
    final Map<String, Object> kafka = new HashMap<>();
    settings.forEach(
        (key, value) -> {
          if (key.startsWith(KAFKA_PREFIX)) {
            kafka.put(key.substring(KAFKA_PREFIX.length()), value);
          }
        });
    kafka.put(BOOTSTRAP_SERVERS, String.join(",", getList(BOOTSTRAP_SERVERS)));
    this.kafkaProperties = Map.copyOf(kafka);
  }

  /** Properties for every Kafka client, bootstrap servers included. */
  public Map<String, Object> kafkaProperties() {
    return kafkaProperties;
  }

  public String schemaRegistryUrl() {
    return getString(SCHEMA_REGISTRY_URL);
  }

  public String schemaRegistryUserInfo() {
    final Password userInfo = getPassword(SCHEMA_REGISTRY_USER_INFO);
    return userInfo == null ? null : userInfo.value();
  }

  public String mongoUri() {
    return getPassword(MONGODB_URI).value();
  }

  public String mongoDatabase() {
    return getString(MONGODB_DATABASE);
  }

  public String collectionPrefix() {
    return getString(COLLECTION_PREFIX);
  }

  public String applicationId() {
    return getString(APPLICATION_ID);
  }

  /** This instance's stable name, when it is a static member of its consumer groups. */
  public Optional<String> instanceId() {
    final String id = getString(INSTANCE_ID);
    return id.isEmpty() ? Optional.empty() : Optional.of(id);
  }

  public String inputTopic() {
    return getString(INPUT_TOPIC);
  }

  public InputFormat inputFormat() {
    return InputFormat.of(getString(INPUT_FORMAT));
  }

  /** Which fields of an input record make its readings. */
  public ReadingMapping readingMapping() {
    return readingMapping;
  }

  /** Checked when the settings are read: a mapping that cannot work must stop the start. */
  private ReadingMapping buildReadingMapping() {
    final List<String> values = getList(INPUT_VALUE_FIELDS);
    try {
      return new ReadingMapping(
          FieldPath.parse(getString(INPUT_SENSOR_ID_FIELD)),
          FieldPath.parse(getString(INPUT_TIME_FIELD)),
          optionalFieldPath(INPUT_METRIC_FIELD),
          optionalFieldPath(INPUT_UTC_OFFSET_FIELD),
          values.stream().map(FieldPath::parse).toList());
    } catch (IllegalArgumentException e) {
      throw new ConfigException(
          INPUT_VALUE_FIELDS,
          String.join(",", values),
          e.getMessage() + " (" + INPUT_METRIC_FIELD + "=" + getString(INPUT_METRIC_FIELD) + ")");
    }
  }

  private Optional<FieldPath> optionalFieldPath(final String name) {
    final String path = getString(name);
    return path.isBlank() ? Optional.empty() : Optional.of(FieldPath.parse(path));
  }

  public String bucketsTopic() {
    return getString(BUCKETS_TOPIC);
  }

  public String deadLetterTopic() {
    return getString(DEAD_LETTER_TOPIC);
  }

  public List<Granularity> granularities() {
    return Granularity.parseList(getString(GRANULARITIES));
  }

  public Duration grace() {
    return TimeSpans.parse(getString(GRACE));
  }

  public Duration idleTimeout() {
    return TimeSpans.parse(getString(IDLE_TIMEOUT));
  }

  public Duration latenessHorizon() {
    return TimeSpans.parse(getString(LATENESS_HORIZON));
  }

  /** Measurements per bucket document under both caps. */
  public int measurementsPerBucket() {
    return BucketLimits.measurementsPerBucket(
        getInt(BUCKET_MAX_MEASUREMENTS), getInt(BUCKET_MAX_BYTES));
  }

  /**
   * What the documents of each granularity hold, and how many entries one may.
   *
   * @throws ConfigException when a granularity named to keep measurements is not configured
   */
  public BucketLayout bucketLayout() {
    final String named = getString(BUCKET_MEASUREMENTS_GRANULARITIES);
    final Set<Granularity> keep = new HashSet<>();
    if (!named.isBlank()) {
      final List<Granularity> configured = granularities();
      for (final Granularity granularity : Granularity.parseList(named)) {
        final Granularity same =
            configured.stream()
                .filter(g -> g.sizeMillis() == granularity.sizeMillis())
                .findFirst()
                .orElseThrow(
                    () ->
                        new ConfigException(
                            BUCKET_MEASUREMENTS_GRANULARITIES,
                            named,
                            granularity + " is not one of the granularities " + configured));
        keep.add(same);
      }
    }
    return new BucketLayout(
        measurementsPerBucket(), BucketLimits.summariesPerBucket(getInt(BUCKET_MAX_BYTES)), keep);
  }

  /**
   * How long each granularity's documents are kept.
   *
   * @throws ConfigException when it names a granularity that is not configured
   */
  public Retention retention() {
    try {
      return Retention.parse(getString(RETENTION), granularities());
    } catch (IllegalArgumentException e) {
      throw new ConfigException(RETENTION, getString(RETENTION), e.getMessage());
    }
  }

  /** True when the input is trusted to be keyed by sensor id: no repartition. */
  public boolean inputKeyedBySensor() {
    return PARTITIONING_BY_SENSOR.equals(getString(INPUT_PARTITIONING));
  }

  public int seriesPartitions() {
    return getInt(SERIES_PARTITIONS);
  }

  public short topicReplicationFactor() {
    return getShort(TOPIC_REPLICATION_FACTOR);
  }

  public long rocksDbMemoryBytes() {
    return getLong(ROCKSDB_MEMORY_BYTES);
  }

  public DuplicateTimestamps duplicateTimestamps() {
    return DuplicateTimestamps.parse(getString(DUPLICATE_TIMESTAMPS));
  }

  public long windowCacheMaxBytes() {
    return getLong(WINDOW_CACHE_MAX_BYTES);
  }

  public int sinkBatchSize() {
    return getInt(SINK_BATCH_SIZE);
  }

  public int sinkWritesInFlight() {
    return getInt(SINK_WRITES_IN_FLIGHT);
  }

  public Duration sinkWriteTimeout() {
    return TimeSpans.parse(getString(SINK_WRITE_TIMEOUT));
  }

  public Instant timestampFloor() {
    return Instant.parse(getString(TIMESTAMP_FLOOR));
  }

  public Duration maxFutureSkew() {
    return TimeSpans.parse(getString(MAX_FUTURE_SKEW));
  }

  public int maxReadingBytes() {
    return getInt(MAX_READING_BYTES);
  }

  public Duration schemaRegistryRetryTimeout() {
    return TimeSpans.parse(getString(SCHEMA_REGISTRY_RETRY_TIMEOUT));
  }

  public Duration sinkRetryBackoffMax() {
    return TimeSpans.parse(getString(SINK_RETRY_BACKOFF_MAX));
  }

  /** Where the operations endpoints listen. */
  public InetSocketAddress httpAddress() {
    return new InetSocketAddress(getString(HTTP_BIND_ADDRESS), getInt(HTTP_PORT));
  }

  /** This instance's query endpoint as the other instances reach it. */
  public String httpAdvertisedHost() {
    final String configured = getString(HTTP_ADVERTISED_HOST);
    if (!configured.isBlank()) {
      return configured;
    }
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (UnknownHostException e) {
      throw new ConfigException(
          HTTP_ADVERTISED_HOST, configured, "this machine's host name is unknown: set it");
    }
  }

  public QueryLimits queryLimits() {
    return new QueryLimits(
        TimeSpans.parse(getString(QUERY_MAX_RANGE)),
        getInt(QUERY_MAX_POINTS),
        TimeSpans.parse(getString(QUERY_TIMEOUT)));
  }

  /** A dotted field path; {@code optional}: or empty, for none. */
  private static final class FieldPathSetting implements ConfigDef.Validator {
    private final boolean optional;

    FieldPathSetting(final boolean optional) {
      this.optional = optional;
    }

    @Override
    public void ensureValid(final String name, final Object value) {
      final String path = value == null ? "" : value.toString();
      if (optional && path.isBlank()) {
        return;
      }
      try {
        FieldPath.parse(path);
      } catch (IllegalArgumentException e) {
        throw new ConfigException(name, value, e.getMessage());
      }
    }

    @Override
    public String toString() {
      return (optional ? "empty, or a" : "a") + " field name, dotted for a nested field";
    }
  }

  private static final class FieldPathList implements ConfigDef.Validator {
    @Override
    public void ensureValid(final String name, final Object value) {
      @SuppressWarnings("unchecked") // a LIST setting's value
      final List<String> paths = (List<String>) value;
      if (paths == null || paths.isEmpty()) {
        throw new ConfigException(name, value, "at least one value field is needed");
      }
      for (final String path : paths) {
        new FieldPathSetting(false).ensureValid(name, path);
      }
    }

    @Override
    public String toString() {
      return "comma-separated field names, dotted for nested fields";
    }
  }

  private static final class NonBlank implements ConfigDef.Validator {
    @Override
    public void ensureValid(final String name, final Object value) {
      if (value == null || value.toString().isBlank()) {
        throw new ConfigException(name, value, "must not be empty");
      }
    }

    @Override
    public String toString() {
      return "a non-empty value";
    }
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

  private static final class MongoUri implements ConfigDef.Validator {
    @Override
    public void ensureValid(final String name, final Object value) {
      final String uri = value == null ? "" : ((Password) value).value();
      try {
        new ConnectionString(uri);
      } catch (IllegalArgumentException e) {
        // The message may quote the URI, credentials included: keep only the reason's first part.
        throw new ConfigException(name + " is not a MongoDB connection string (mongodb://...)");
      }
    }

    @Override
    public String toString() {
      return "a mongodb:// or mongodb+srv:// connection string";
    }
  }

  private static final class GranularityList implements ConfigDef.Validator {
    @Override
    public void ensureValid(final String name, final Object value) {
      try {
        Granularity.parseList(String.valueOf(value));
      } catch (IllegalArgumentException | ArithmeticException e) {
        throw new ConfigException(name, value, e.getMessage());
      }
    }

    @Override
    public String toString() {
      return "comma-separated spans, e.g. 1m,1h";
    }
  }

  private static final class OptionalGranularityList implements ConfigDef.Validator {
    @Override
    public void ensureValid(final String name, final Object value) {
      if (!String.valueOf(value).isBlank()) {
        new GranularityList().ensureValid(name, value);
      }
    }

    @Override
    public String toString() {
      return "empty, or comma-separated spans, e.g. 1m,1h";
    }
  }

  private static final class RetentionList implements ConfigDef.Validator {
    @Override
    public void ensureValid(final String name, final Object value) {
      final String text = String.valueOf(value);
      try {
        // The granularities are checked against the configured ones by retention(): here, the form.
        final List<Granularity> named = new ArrayList<>();
        for (final String part : text.split(",")) {
          if (part.contains("=")) {
            named.add(Granularity.parse(part.split("=", 2)[0].trim()));
          }
        }
        Retention.parse(text, named);
      } catch (IllegalArgumentException | ArithmeticException e) {
        throw new ConfigException(name, value, e.getMessage());
      }
    }

    @Override
    public String toString() {
      return "empty, or <granularity>=<span> pairs, e.g. 1m=30d,1h=400d";
    }
  }

  private static final class IsoInstant implements ConfigDef.Validator {
    @Override
    public void ensureValid(final String name, final Object value) {
      try {
        Instant.parse(String.valueOf(value));
      } catch (DateTimeParseException e) {
        throw new ConfigException(name, value, "not an ISO-8601 instant: " + e.getMessage());
      }
    }

    @Override
    public String toString() {
      return "an ISO-8601 instant in UTC, e.g. 2000-01-01T00:00:00Z";
    }
  }

  /** A span no shorter than a minimum, for timeouts that would be meaningless below it. */
  private static final class SpanOfAtLeast implements ConfigDef.Validator {
    private final long minMillis;

    SpanOfAtLeast(final long minMillis) {
      this.minMillis = minMillis;
    }

    @Override
    public void ensureValid(final String name, final Object value) {
      new Span().ensureValid(name, value);
      if (TimeSpans.parseMillis(String.valueOf(value)) < minMillis) {
        throw new ConfigException(name, value, "must be at least " + TimeSpans.format(minMillis));
      }
    }

    @Override
    public String toString() {
      return "a span of at least " + TimeSpans.format(minMillis) + ", such as 30s";
    }
  }

  private static final class Span implements ConfigDef.Validator {
    @Override
    public void ensureValid(final String name, final Object value) {
      try {
        TimeSpans.parseMillis(String.valueOf(value));
      } catch (IllegalArgumentException | ArithmeticException e) {
        throw new ConfigException(name, value, e.getMessage());
      }
    }

    @Override
    public String toString() {
      return "a span such as 500ms, 10s, 5m";
    }
  }
}
