package io.bucketer.sink;

import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.MongoClientSettings;
import com.mongodb.MongoCredential;
import io.bucketer.security.ClientTls;
import io.bucketer.testing.TestCertificates;
import io.bucketer.testing.TestCertificates.Authority;
import io.bucketer.testing.TestCertificates.Issued;
import io.bucketer.testing.TestCertificates.Purpose;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WriterClientSettingsTest {

  private static final String SECRET = "pl4nted-m0ngo-secret";

  // Moved from MongoBucketWriterTest, with the settings.
  @Test
  void shouldSetTheClientTimeoutsTheConnectionStringLeavesOpenFromTheWriteTimeout() {
    final MongoClientSettings defaults =
        WriterClientSettings.of("mongodb://db.example:27017", Duration.ofSeconds(5));
    final MongoClientSettings explicit =
        WriterClientSettings.of(
            "mongodb://db.example:27017/?socketTimeoutMS=700&serverSelectionTimeoutMS=800",
            Duration.ofSeconds(5));
    final MongoClientSettings longWrites =
        WriterClientSettings.of("mongodb://db.example:27017", Duration.ofMinutes(2));

    assertThat(defaults.getSocketSettings().getReadTimeout(TimeUnit.MILLISECONDS)).isEqualTo(5000);
    assertThat(defaults.getClusterSettings().getServerSelectionTimeout(TimeUnit.MILLISECONDS))
        .isEqualTo(5000);
    assertThat(explicit.getSocketSettings().getReadTimeout(TimeUnit.MILLISECONDS)).isEqualTo(700);
    assertThat(explicit.getClusterSettings().getServerSelectionTimeout(TimeUnit.MILLISECONDS))
        .isEqualTo(800);
    // Server selection never waits longer than the driver's own default, 30 s.
    assertThat(longWrites.getClusterSettings().getServerSelectionTimeout(TimeUnit.MILLISECONDS))
        .isEqualTo(30_000);
  }

  @Test
  void shouldLeaveEveryTimeoutToTheConnectionStringWhenItSetsTimeoutMs() {
    final MongoClientSettings settings =
        WriterClientSettings.of(
            "mongodb://db.example:27017/?timeoutMS=1500", Duration.ofSeconds(5));

    assertThat(settings.getTimeout(TimeUnit.MILLISECONDS)).isEqualTo(1500);
    assertThat(settings.getSocketSettings().getReadTimeout(TimeUnit.MILLISECONDS)).isZero();
    assertThat(settings.getClusterSettings().getServerSelectionTimeout(TimeUnit.MILLISECONDS))
        .isEqualTo(30_000);
  }

  @Test
  void shouldKeepThePoolAndCredentialsOfTheConnectionString() {
    final MongoClientSettings settings =
        WriterClientSettings.of(
            "mongodb://user:secret@db.example:27017/?authSource=admin&maxPoolSize=7",
            Duration.ofSeconds(5));

    assertThat(settings.getConnectionPoolSettings().getMaxSize()).isEqualTo(7);
    assertThat(settings.getCredential().getUserName()).isEqualTo("user");
    assertThat(settings.getCredential().getSource()).isEqualTo("admin");
  }

  @Test
  void shouldLogInWithTheUserAndPasswordKeptApartFromTheConnectionString() {
    final MongoConnection connection =
        new MongoConnection(
            "mongodb://db.example:27017/?authSource=iot",
            Optional.empty(),
            Optional.of(new MongoConnection.Login("sink", "iot", SECRET.toCharArray())));

    final MongoClientSettings settings =
        WriterClientSettings.of(connection, Duration.ofSeconds(5), MongoFailures.unknown());

    final MongoCredential credential = settings.getCredential();
    assertThat(credential.getUserName()).isEqualTo("sink");
    assertThat(credential.getSource()).isEqualTo("iot");
    assertThat(credential.getPassword()).isEqualTo(SECRET.toCharArray());
    // null: the driver negotiates SCRAM-SHA-256, or SCRAM-SHA-1 with a server that lacks it
    assertThat(credential.getMechanism()).isNull();
    assertThat(settings.getSslSettings().isEnabled()).isFalse();
    assertThat(settings.toString()).doesNotContain(SECRET);
    assertThat(connection.toString()).doesNotContain(SECRET).contains("user sink of iot");
  }

  @Test
  void shouldLogInWithTheClientCertificateForX509AndTurnTlsOnWithItsContext(
      @TempDir final Path folder) {
    final Authority ca = TestCertificates.ca("mongodb CA");
    final Issued client = TestCertificates.issue(ca, "bucketer", Purpose.CLIENT);
    final ClientTls tls =
        new ClientTls(
            ca.writeBundle(folder.resolve("ca.pem")),
            client.writeChain(folder.resolve("client.pem")),
            client.writeKey(folder.resolve("client-key.pem")),
            null);
    final MongoConnection connection =
        new MongoConnection(
            "mongodb://db.example:27017/?authMechanism=MONGODB-X509",
            Optional.of(tls),
            Optional.empty());

    final MongoClientSettings settings =
        WriterClientSettings.of(connection, Duration.ofSeconds(5), MongoFailures.unknown());

    assertThat(settings.getCredential().getMechanism())
        .isEqualTo(MongoCredential.MONGODB_X509_MECHANISM);
    assertThat(settings.getCredential().getUserName()).isNull(); // the certificate's subject
    assertThat(settings.getSslSettings().isEnabled()).isTrue();
    assertThat(settings.getSslSettings().getContext()).isNotNull();
    assertThat(connection.toString())
        .isEqualTo(
            "MongoDB (connection string hidden, TLS trusting the CAs in "
                + folder.resolve("ca.pem")
                + ", client certificate "
                + folder.resolve("client.pem")
                + ")");
  }

  @Test
  void shouldKeepTheConnectionStringsHostNameCheckWhenTheFilesTurnTlsOn(
      @TempDir final Path folder) {
    final Authority ca = TestCertificates.ca("mongodb CA");
    final MongoConnection connection =
        new MongoConnection(
            "mongodb://db.example:27017/?tlsAllowInvalidHostnames=true",
            Optional.of(new ClientTls(ca.writeBundle(folder.resolve("ca.pem")), null, null, null)),
            Optional.empty());

    final MongoClientSettings settings =
        WriterClientSettings.of(connection, Duration.ofSeconds(5), MongoFailures.unknown());

    assertThat(settings.getSslSettings().isEnabled()).isTrue();
    assertThat(settings.getSslSettings().isInvalidHostNameAllowed()).isTrue();
  }
}
