package io.bucketer.sink;

import static io.bucketer.buckets.TestBuckets.MINUTE;
import static io.bucketer.buckets.TestBuckets.START;
import static io.bucketer.buckets.TestBuckets.minute;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.mongodb.reactivestreams.client.MongoClient;
import com.mongodb.reactivestreams.client.MongoClients;
import io.bucketer.buckets.ClosedBucket;
import io.bucketer.buckets.Retention;
import io.bucketer.config.BucketerConfig;
import io.bucketer.config.MongoSettings;
import io.bucketer.security.ClientTls;
import io.bucketer.testing.TestCertificates;
import io.bucketer.testing.TestCertificates.Authority;
import io.bucketer.testing.TestCertificates.Issued;
import io.bucketer.testing.TestCertificates.Purpose;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.bson.BsonDocument;
import org.bson.BsonString;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;
import org.testcontainers.utility.DockerImageName;
import org.testcontainers.utility.MountableFile;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * What the stand-in behind a TLS proxy cannot show (MongoTlsTest), against a real mongod wherever
 * Docker runs (reported as skipped without it): a mongod that requires TLS and a client certificate
 * from a private CA, X.509 authentication as the certificate's subject, and a SCRAM user whose
 * password comes from a file, and a wrong password said as such. Authorization stays off: the users
 * are created over the same TLS before the tests, and mongod checks credentials all the same.
 */
@Testcontainers(disabledWithoutDocker = true)
@Timeout(180)
class ContainersMongoTlsIT {

  private static final Duration TIMEOUT = Duration.ofSeconds(30);
  private static final String PASSWORD = "scr4m-Pa55-0c3d";
  private static final Path FILES = temporaryFolder();
  private static final Authority CA = TestCertificates.ca("mongodb CA");
  private static final Issued SERVER =
      TestCertificates.issue(CA, "mongod", Purpose.SERVER, "localhost", "127.0.0.1");
  private static final Issued CLIENT = TestCertificates.issue(CA, "bucketer", Purpose.CLIENT);

  @Container
  static final GenericContainer<?> MONGO =
      new GenericContainer<>(DockerImageName.parse("mongo:8.0"))
          .withExposedPorts(27017)
          // mongod reads its key and certificate from one PEM file, in either order
          .withCopyFileToContainer(
              MountableFile.forHostPath(SERVER.writeKeyStore(FILES.resolve("server.pem")), 0644),
              "/etc/tls/server.pem")
          .withCopyFileToContainer(
              MountableFile.forHostPath(CA.writeBundle(FILES.resolve("ca.pem")), 0644),
              "/etc/tls/ca.pem")
          .withCommand(
              "mongod",
              "--bind_ip_all",
              "--tlsMode",
              "requireTLS",
              "--tlsCertificateKeyFile",
              "/etc/tls/server.pem",
              "--tlsCAFile",
              "/etc/tls/ca.pem")
          .waitingFor(Wait.forLogMessage(".*Waiting for connections.*", 1));

  @BeforeAll
  static void createTheUsers() {
    final MongoConnection admin =
        new MongoConnection(uri(""), Optional.of(clientTls()), Optional.empty());
    try (MongoClient client =
        MongoClients.create(WriterClientSettings.of(admin, TIMEOUT, MongoFailures.unknown()))) {
      run(
          client,
          "$external",
          "{createUser: 'CN=bucketer', roles: [{role: 'readWrite', db: 'iot'}]}");
      run(
          client,
          "admin",
          "{createUser: 'sink', pwd: '" + PASSWORD + "', roles: [{role: 'readWrite', db: 'iot'}]}");
    }
  }

  @Test
  void shouldWriteAsTheClientCertificatesSubjectWithX509() {
    final Map<String, Object> settings = settings("authMechanism=MONGODB-X509");

    assertWritesAndReadsBack(settings, "sensor-x509");
  }

  @Test
  void shouldWriteAsAScramUserWhosePasswordComesFromAFile() throws IOException {
    final Map<String, Object> settings = settings("");
    settings.put(MongoSettings.USERNAME, "sink");
    settings.put(MongoSettings.PASSWORD, "${dir:" + passwordVolume(PASSWORD) + ":password}");

    assertWritesAndReadsBack(settings, "sensor-scram");
  }

  @Test
  void shouldSayAuthenticationFailedForAWrongPasswordWithoutQuotingIt() throws IOException {
    final Map<String, Object> settings = settings("");
    settings.put(MongoSettings.USERNAME, "sink");
    settings.put(
        MongoSettings.PASSWORD, "${dir:" + passwordVolume("not-" + PASSWORD) + ":password}");

    try (MongoBucketWriter writer = connect(settings)) {
      assertThatThrownBy(() -> writer.ensureIndexes(TIMEOUT))
          .isInstanceOf(MongoUnusableException.class)
          .hasMessageContaining("authentication failed for user sink of admin")
          .message()
          .doesNotContain(PASSWORD);
    }
  }

  private static void assertWritesAndReadsBack(
      final Map<String, Object> settings, final String sensor) {
    try (MongoBucketWriter writer = connect(settings)) {
      final ClosedBucket bucket = minute(sensor, START);
      writer.ensureIndexes(TIMEOUT);
      writer.write(List.of(bucket), TIMEOUT);

      final List<BsonDocument> stored =
          Flux.from(
                  writer
                      .database()
                      .getCollection("buckets_1m", BsonDocument.class)
                      .find(new BsonDocument("sensor_id", new BsonString(sensor))))
              .collectList()
              .block(TIMEOUT);
      assertThat(stored).containsExactly(BucketDocuments.toDocument(bucket));
    }
  }

  private static Map<String, Object> settings(final String options) {
    final Map<String, Object> settings = new HashMap<>();
    settings.put("bootstrap.servers", "broker:9092");
    settings.put("input.format", "json");
    settings.put(MongoSettings.URI, uri(options));
    settings.put(MongoSettings.DATABASE, "iot");
    settings.put(MongoSettings.TLS_CA_FILE, FILES.resolve("ca.pem").toString());
    settings.put(
        MongoSettings.TLS_CERT_FILE, CLIENT.writeChain(FILES.resolve("client.pem")).toString());
    settings.put(
        MongoSettings.TLS_KEY_FILE, CLIENT.writeKey(FILES.resolve("client-key.pem")).toString());
    return settings;
  }

  private static String uri(final String options) {
    return "mongodb://localhost:"
        + MONGO.getMappedPort(27017)
        + "/?directConnection=true&serverSelectionTimeoutMS=5000"
        + (options.isEmpty() ? "" : "&" + options);
  }

  private static ClientTls clientTls() {
    return new ClientTls(
        FILES.resolve("ca.pem"),
        CLIENT.writeChain(FILES.resolve("client.pem")),
        CLIENT.writeKey(FILES.resolve("client-key.pem")),
        null);
  }

  private static Path passwordVolume(final String password) throws IOException {
    final Path volume = Files.createTempDirectory(FILES, "secret");
    Files.writeString(volume.resolve("password"), password + "\n");
    return volume;
  }

  private static MongoBucketWriter connect(final Map<String, Object> settings) {
    final BucketerConfig config = new BucketerConfig(settings);
    return MongoBucketWriter.connect(
        config.mongo().connection(),
        config.mongoDatabase(),
        "buckets_",
        List.of(MINUTE),
        Retention.NONE,
        10,
        2,
        TIMEOUT);
  }

  private static void run(final MongoClient client, final String database, final String command) {
    Mono.from(client.getDatabase(database).runCommand(BsonDocument.parse(command))).block(TIMEOUT);
  }

  private static Path temporaryFolder() {
    try {
      return Files.createTempDirectory("bucketer-mongodb-tls");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
