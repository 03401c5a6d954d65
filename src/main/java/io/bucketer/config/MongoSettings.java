package io.bucketer.config;

import static io.bucketer.config.SettingValidators.span;

import com.mongodb.ConnectionString;
import com.mongodb.MongoCredential;
import io.bucketer.buckets.BucketDocumentNames;
import io.bucketer.buckets.TimeSpans;
import io.bucketer.security.ClientTls;
import io.bucketer.sink.MongoConnection;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
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
  public static final String USERNAME = "mongodb.username";
  public static final String PASSWORD = "mongodb.password";
  public static final String TLS_CA_FILE = "mongodb.tls.ca.file";
  public static final String TLS_CERT_FILE = "mongodb.tls.cert.file";
  public static final String TLS_KEY_FILE = "mongodb.tls.key.file";
  public static final String TLS_KEY_PASSWORD = "mongodb.tls.key.password";
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
              "MongoDB connection string: hosts, database options, authSource, authMechanism,"
                  + " tls=true; a user and password may go here too, or in mongodb.username and"
                  + " mongodb.password. Never printed.")
          .define(
              USERNAME,
              Type.STRING,
              "",
              Importance.HIGH,
              "User bucketer logs in to MongoDB as, with mongodb.password: SCRAM-SHA-256, or"
                  + " SCRAM-SHA-1 with a server that offers no other; defined in the database of"
                  + " mongodb.uri's authSource, else of its path, else admin. Set, mongodb.uri must"
                  + " hold no user of its own. Empty: mongodb.uri's user, if any.")
          .define(
              PASSWORD,
              Type.PASSWORD,
              null,
              Importance.HIGH,
              "Password of mongodb.username, kept out of the connection string: give it as"
                  + " ${file:...} or ${dir:...} to read it from a mounted secret (a final line"
                  + " break is dropped). Never printed.")
          .define(
              TLS_CA_FILE,
              Type.STRING,
              "",
              Importance.HIGH,
              "PEM bundle of the CAs MongoDB's certificates must chain to, instead of the JVM's"
                  + " trust store; set, the client speaks TLS whatever mongodb.uri says. Read at"
                  + " start.")
          .define(
              TLS_CERT_FILE,
              Type.STRING,
              "",
              Importance.MEDIUM,
              "PEM file of the client certificate chain, leaf first, shown to a MongoDB that"
                  + " asks for one (a mongod with net.tls.CAFile): with"
                  + " authMechanism=MONGODB-X509 in mongodb.uri, bucketer logs in as the"
                  + " certificate's subject. Needs mongodb.tls.key.file; turns TLS on. Read at"
                  + " start.")
          .define(
              TLS_KEY_FILE,
              Type.STRING,
              "",
              Importance.MEDIUM,
              "PEM file of the client certificate's private key: PKCS#8, PKCS#1 (RSA) or SEC1"
                  + " (EC), encrypted or not.")
          .define(
              TLS_KEY_PASSWORD,
              Type.PASSWORD,
              null,
              Importance.LOW,
              "Password of an encrypted mongodb.tls.key.file (never printed; give it as"
                  + " ${file:...}).")
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
              "How long one batch may wait for MongoDB before what it has not acknowledged of"
                  + " it is retried. Unless mongodb.uri sets them, also the MongoDB client's"
                  + " socket read timeout and (up to 30s) its"
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
  private final MongoConnection connection;

  /**
   * @throws ConfigException when the settings do not fit together, or a TLS file cannot be used
   */
  MongoSettings(final AbstractConfig values) {
    this.values = values;
    this.connection = readConnection();
  }

  public String uri() {
    return values.getPassword(URI).value();
  }

  /** The connection string with the TLS files and the login, the files read and checked. */
  public MongoConnection connection() {
    return connection;
  }

  private MongoConnection readConnection() {
    final ConnectionString uri = new ConnectionString(uri());
    final MongoCredential uriCredential = uri.getCredential();
    final boolean loginSet =
        !values.getString(USERNAME).isBlank() || values.getPassword(PASSWORD) != null;
    if (loginSet
        && uriCredential != null
        && MongoCredential.MONGODB_X509_MECHANISM.equals(uriCredential.getMechanism())) {
      throw new ConfigException(
          USERNAME
              + " and "
              + PASSWORD
              + " do not go with authMechanism=MONGODB-X509 in "
              + URI
              + ": X.509 logs in as the client certificate's subject");
    }
    return new MongoConnection(uri(), tls(uri), login(uri));
  }

  private Optional<ClientTls> tls(final ConnectionString uri) {
    final Optional<ClientTls> tls = ClientTlsFiles.read(values, "mongodb.tls");
    if (tls.isPresent() && Boolean.FALSE.equals(uri.getSslEnabled())) {
      throw new ConfigException(
          URI + " turns TLS off (tls=false), but mongodb.tls.* files are set: remove one");
    }
    return tls;
  }

  private Optional<MongoConnection.Login> login(final ConnectionString uri) {
    final String username = values.getString(USERNAME);
    final Password password = values.getPassword(PASSWORD);
    if (username.isBlank() && password == null) {
      return Optional.empty();
    }
    if (username.isBlank() || password == null) {
      throw new ConfigException(
          (username.isBlank() ? USERNAME : PASSWORD)
              + " must be set too: "
              + (username.isBlank() ? PASSWORD : USERNAME)
              + " is");
    }
    if (uri.getCredential() != null) {
      throw new ConfigException(
          URI
              + " holds credentials already (a user or authMechanism): keep them in one place,"
              + " there or in "
              + USERNAME
              + " and "
              + PASSWORD);
    }
    // A file's content comes with its final line break, which would become part of the password.
    final String withoutLineBreak = password.value().replaceAll("[\\r\\n]+$", "");
    return Optional.of(
        new MongoConnection.Login(username, authSource(uri), withoutLineBreak.toCharArray()));
  }

  /**
   * Where the user is defined, as the driver reads it for a user in the connection string: its
   * authSource option, else the database in its path, else admin. The driver does not expose the
   * option without a user in the string, hence this reading of its query.
   */
  static String authSource(final ConnectionString uri) {
    final String text = uri.getConnectionString();
    final int query = text.indexOf('?');
    if (query >= 0) {
      for (final String option : text.substring(query + 1).split("[&;]")) {
        final int equals = option.indexOf('=');
        if (equals > 0 && option.substring(0, equals).equalsIgnoreCase("authSource")) {
          return URLDecoder.decode(option.substring(equals + 1), StandardCharsets.UTF_8);
        }
      }
    }
    return uri.getDatabase() != null ? uri.getDatabase() : "admin";
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
