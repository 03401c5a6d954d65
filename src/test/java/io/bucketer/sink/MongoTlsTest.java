package io.bucketer.sink;

import static io.bucketer.buckets.TestBuckets.MINUTE;
import static io.bucketer.buckets.TestBuckets.START;
import static io.bucketer.buckets.TestBuckets.minute;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.backend.memory.MemoryBackend;
import io.bucketer.buckets.ClosedBucket;
import io.bucketer.buckets.Retention;
import io.bucketer.config.BucketerConfig;
import io.bucketer.config.MongoSettings;
import io.bucketer.testing.CuttableTcpProxy;
import io.bucketer.testing.TestCertificates;
import io.bucketer.testing.TestCertificates.Authority;
import io.bucketer.testing.TestCertificates.Issued;
import io.bucketer.testing.TestCertificates.Purpose;
import io.bucketer.testing.TlsTerminatingProxy;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.bson.BsonDocument;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import reactor.core.publisher.Flux;

/**
 * MongoDB over TLS with bucketer's own CA and client certificate files, not the JVM's stores: the
 * in-JVM stand-in behind a TLS-terminating proxy that shows a certificate from a private CA and
 * demands a client certificate from another. The stand-in has no authentication, so X.509 and SCRAM
 * logins are checked as far as the client's settings (WriterClientSettingsTest).
 */
class MongoTlsTest {

  private static final Duration TIMEOUT = Duration.ofSeconds(10);

  @TempDir Path folder;

  private final Authority serverCa = TestCertificates.ca("mongodb CA");
  private final Authority clientCa = TestCertificates.ca("client CA");
  private MongoServer mongo;
  private CuttableTcpProxy proxy;

  @BeforeEach
  void startTheStandInBehindTls() {
    mongo = new MongoServer(new MemoryBackend());
    final int port = mongo.bind().getPort();
    final Issued certificate =
        TestCertificates.issue(serverCa, "mongodb", Purpose.SERVER, "127.0.0.1", "localhost");
    proxy = TlsTerminatingProxy.start(certificate, clientCa, port);
  }

  @AfterEach
  void stop() {
    proxy.close();
    mongo.shutdownNow();
  }

  @Test
  void shouldWriteAndReadBackWithTheRightCaAndClientCertificate() {
    final Map<String, Object> settings = settings();
    settings.put(MongoSettings.TLS_CA_FILE, serverCaFile());
    putClientCertificate(settings, clientCa);

    try (MongoBucketWriter writer = connect(settings)) {
      final ClosedBucket bucket = minute("sensor-1", START);
      writer.ensureIndexes(TIMEOUT);
      writer.write(List.of(bucket), TIMEOUT);

      // The query API reads through the writer's database: the same client, the same TLS.
      final List<BsonDocument> stored =
          Flux.from(writer.database().getCollection("buckets_1m", BsonDocument.class).find())
              .collectList()
              .block(TIMEOUT);
      assertThat(stored).containsExactly(BucketDocuments.toDocument(bucket));
    }
  }

  @Test
  void shouldFailFastNamingTlsTrustAndTheCaFileWhenTheCaIsWrong() {
    final Authority other = TestCertificates.ca("some other CA");
    final String otherCa = other.writeBundle(folder.resolve("other-ca.pem")).toString();
    final Map<String, Object> settings = settings();
    settings.put(MongoSettings.TLS_CA_FILE, otherCa);
    putClientCertificate(settings, clientCa);

    try (MongoBucketWriter writer = connect(settings)) {
      final long start = System.nanoTime();
      // Retrying cannot fix it: the sink ends the processor with this line.
      assertThatThrownBy(() -> writer.ensureIndexes(TIMEOUT))
          .isInstanceOf(MongoUnusableException.class)
          .hasMessage(
              "MongoDB 127.0.0.1:"
                  + proxy.port()
                  + ": TLS trust: the server's certificate does not chain to the CAs in "
                  + otherCa);
      // bounded by the connection string's server selection timeout, not the index timeout
      assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
    }
  }

  @Test
  void shouldBeRefusedClearlyWithoutAClientCertificate() {
    final Map<String, Object> settings = settings();
    settings.put(MongoSettings.TLS_CA_FILE, serverCaFile());

    try (MongoBucketWriter writer = connect(settings)) {
      assertThatThrownBy(() -> writer.write(List.of(minute("sensor-1", START)), TIMEOUT))
          .isInstanceOf(BucketWriteException.class)
          .hasMessageContaining("MongoDB 127.0.0.1:" + proxy.port())
          .hasMessageContaining(
              "certificate refused: the server demands a client certificate and refused to go"
                  + " without one (none is configured)");
    }
  }

  @Test
  void shouldBeRefusedClearlyWithAClientCertificateFromAnotherCa() {
    final Map<String, Object> settings = settings();
    settings.put(MongoSettings.TLS_CA_FILE, serverCaFile());
    final String certificate = putClientCertificate(settings, TestCertificates.ca("stranger"));

    try (MongoBucketWriter writer = connect(settings)) {
      assertThatThrownBy(() -> writer.ensureIndexes(TIMEOUT))
          .isInstanceOf(MongoUnusableException.class)
          .hasMessageContaining("certificate refused")
          .hasMessageContaining("refused the one in " + certificate);
    }
  }

  private Map<String, Object> settings() {
    final Map<String, Object> settings = new HashMap<>();
    settings.put("bootstrap.servers", "broker:9092");
    settings.put("input.format", "json");
    settings.put(
        MongoSettings.URI,
        "mongodb://127.0.0.1:"
            + proxy.port()
            + "/?serverSelectionTimeoutMS=1500&connectTimeoutMS=1000&socketTimeoutMS=3000");
    return settings;
  }

  private String serverCaFile() {
    return serverCa.writeBundle(folder.resolve("mongodb-ca.pem")).toString();
  }

  /** A client certificate from {@code ca}, in the settings; returns its file. */
  private String putClientCertificate(final Map<String, Object> settings, final Authority ca) {
    final Issued client = TestCertificates.issue(ca, "bucketer", Purpose.CLIENT);
    final String certificate = client.writeChain(folder.resolve("client.pem")).toString();
    settings.put(MongoSettings.TLS_CERT_FILE, certificate);
    settings.put(
        MongoSettings.TLS_KEY_FILE, client.writeKey(folder.resolve("client-key.pem")).toString());
    return certificate;
  }

  private static MongoBucketWriter connect(final Map<String, Object> settings) {
    final BucketerConfig config = new BucketerConfig(settings);
    return MongoBucketWriter.connect(
        config.mongo().connection(),
        "bucketer",
        "buckets_",
        List.of(MINUTE),
        Retention.NONE,
        10,
        2,
        config.sinkWriteTimeout());
  }
}
