package io.bucketer.config;

import static io.bucketer.config.SettingValidators.span;

import com.mongodb.ConnectionString;
import io.bucketer.buckets.BucketDocumentNames;
import io.bucketer.buckets.TimeSpans;
import java.time.Duration;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.types.Password;

/**
 * Where the buckets are stored ({@code mongodb.*}) and how the sink writes them ({@code sink.*}),
 * and their typed values, read through {@link BucketerConfig#mongo()}.
 */
public final class MongoSettings {

  public static final String URI = "mongodb.uri";
  public static final String DATABASE = "mongodb.database";
  public static final String COLLECTION_PREFIX = "mongodb.collection.prefix";
  public static final String SINK_BATCH_SIZE = "sink.batch.size";
  public static final String SINK_WRITES_IN_FLIGHT = "sink.max.writes.in.flight";
  public static final String SINK_WRITE_TIMEOUT = "sink.write.timeout";
  public static final String SINK_RETRY_BACKOFF_MAX = "sink.retry.backoff.max";

  static final ConfigDef DEFINITION =
      new ConfigDef()
          .define(
              URI,
              Type.PASSWORD,
              ConfigDef.NO_DEFAULT_VALUE,
              new MongoUri(),
              Importance.HIGH,
              "MongoDB connection string; TLS and credentials go here (never printed).")
          .define(DATABASE, Type.STRING, "iot", Importance.HIGH, "Database of the buckets.")
          .define(
              COLLECTION_PREFIX,
              Type.STRING,
              BucketDocumentNames.DEFAULT_COLLECTION_PREFIX,
              Importance.MEDIUM,
              "Bucket collections are named prefix + granularity: buckets_1m, buckets_1h.")
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
              span(),
              Importance.LOW,
              "How long one batch may wait for MongoDB before it is retried. Unless mongodb.uri"
                  + " sets them, also the MongoDB client's socket read timeout and (up to 30s) its"
                  + " server selection timeout.")
          .define(
              SINK_RETRY_BACKOFF_MAX,
              Type.STRING,
              "10s",
              span(),
              Importance.LOW,
              "Longest wait between two attempts at a batch MongoDB did not acknowledge; the wait"
                  + " doubles from 200ms up to it, which bounds how long the sink takes to notice"
                  + " that MongoDB is back.");

  private final AbstractConfig values;

  MongoSettings(final AbstractConfig values) {
    this.values = values;
  }

  public String uri() {
    return values.getPassword(URI).value();
  }

  public String database() {
    return values.getString(DATABASE);
  }

  public String collectionPrefix() {
    return values.getString(COLLECTION_PREFIX);
  }

  public int sinkBatchSize() {
    return values.getInt(SINK_BATCH_SIZE);
  }

  public int sinkWritesInFlight() {
    return values.getInt(SINK_WRITES_IN_FLIGHT);
  }

  public Duration sinkWriteTimeout() {
    return TimeSpans.parse(values.getString(SINK_WRITE_TIMEOUT));
  }

  public Duration sinkRetryBackoffMax() {
    return TimeSpans.parse(values.getString(SINK_RETRY_BACKOFF_MAX));
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
}
