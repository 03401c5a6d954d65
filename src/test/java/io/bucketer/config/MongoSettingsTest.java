package io.bucketer.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.mongodb.ConnectionString;
import io.bucketer.security.ClientTls;
import io.bucketer.sink.MongoConnection;
import io.bucketer.testing.TestCertificates;
import io.bucketer.testing.TestCertificates.Authority;
import io.bucketer.testing.TestCertificates.Issued;
import io.bucketer.testing.TestCertificates.Purpose;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * MongoDB's TLS files and login: read into the connection when they fit, refused at start, naming
 * the setting and never the password, when they do not.
 */
class MongoSettingsTest {

  private static final String PASSWORD = "m0ngo-Pa55-7e21";

  @TempDir Path folder;

  private static Map<String, Object> required(final String uri) {
    final Map<String, Object> settings = new HashMap<>();
    settings.put("bootstrap.servers", "broker:9092");
    settings.put("input.format", "json");
    settings.put(MongoSettings.URI, uri);
    return settings;
  }

  private static MongoConnection connection(final Map<String, Object> settings) {
    return new BucketerConfig(settings).mongo().connection();
  }

  @Test
  void shouldConnectAsTheConnectionStringSaysWhenNothingElseIsSet() {
    final MongoConnection connection = connection(required("mongodb://u:p@mongo:27017/?tls=true"));

    assertThat(connection.uri()).isEqualTo("mongodb://u:p@mongo:27017/?tls=true");
    assertThat(connection.tls()).isEmpty();
    assertThat(connection.login()).isEmpty();
  }

  @Test
  void shouldTakeThePasswordFromASecretVolumeAndTheUsersDatabaseFromTheConnectionString()
      throws Exception {
    final Path volume = Files.createDirectories(folder.resolve("secret"));
    Files.writeString(volume.resolve("mongodb-password"), PASSWORD + "\n"); // as editors save it
    final Map<String, Object> settings = required("mongodb://mongo:27017/iot?authSource=users");
    settings.put(MongoSettings.USERNAME, "sink");
    settings.put(MongoSettings.PASSWORD, "${dir:" + volume + ":mongodb-password}");

    final MongoConnection connection = connection(settings);

    final MongoConnection.Login login = connection.login().orElseThrow();
    assertThat(login.username()).isEqualTo("sink");
    assertThat(login.source()).isEqualTo("users");
    assertThat(login.password()).isEqualTo(PASSWORD.toCharArray());
    assertThat(connection.toString()).doesNotContain(PASSWORD);
    assertThat(login.toString()).doesNotContain(PASSWORD);
  }

  @Test
  void shouldFindTheUsersDatabaseAsTheDriverDoes() {
    assertThat(MongoSettings.authSource(new ConnectionString("mongodb://h/?authSource=a%2Db")))
        .isEqualTo("a-b");
    assertThat(MongoSettings.authSource(new ConnectionString("mongodb://h/iot?tls=true")))
        .isEqualTo("iot");
    assertThat(MongoSettings.authSource(new ConnectionString("mongodb://h/?AUTHSOURCE=x;tls=true")))
        .isEqualTo("x");
    assertThat(MongoSettings.authSource(new ConnectionString("mongodb://h"))).isEqualTo("admin");
  }

  @Test
  void shouldRefuseTwoLoginsWithoutQuotingEitherPassword() {
    final Map<String, Object> settings = required("mongodb://other:uriS3cret@mongo:27017");
    settings.put(MongoSettings.USERNAME, "sink");
    settings.put(MongoSettings.PASSWORD, PASSWORD);

    assertThatThrownBy(() -> connection(settings))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("mongodb.uri holds credentials already")
        .message()
        .doesNotContain(PASSWORD)
        .doesNotContain("uriS3cret");
  }

  @Test
  void shouldRefuseAPasswordWithoutAUserAndAUserWithoutAPassword() {
    final Map<String, Object> passwordOnly = required("mongodb://mongo:27017");
    passwordOnly.put(MongoSettings.PASSWORD, PASSWORD);
    final Map<String, Object> userOnly = required("mongodb://mongo:27017");
    userOnly.put(MongoSettings.USERNAME, "sink");

    assertThatThrownBy(() -> connection(passwordOnly))
        .hasMessageContaining("mongodb.username must be set too")
        .message()
        .doesNotContain(PASSWORD);
    assertThatThrownBy(() -> connection(userOnly))
        .hasMessageContaining("mongodb.password must be set too");
  }

  @Test
  void shouldRefuseAPasswordForX509WhichLogsInAsTheCertificate() {
    final Map<String, Object> settings =
        required("mongodb://mongo:27017/?authMechanism=MONGODB-X509&tls=true");
    settings.put(MongoSettings.USERNAME, "CN=bucketer");
    settings.put(MongoSettings.PASSWORD, PASSWORD);

    assertThatThrownBy(() -> connection(settings))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("X.509 logs in as the client certificate's subject")
        .message()
        .doesNotContain(PASSWORD);
  }

  @Test
  void shouldReadTheCaAndTheClientCertificateIntoTheConnection() {
    final Authority ca = TestCertificates.ca("mongodb CA");
    final Issued client = TestCertificates.issue(ca, "bucketer", Purpose.CLIENT);
    final Map<String, Object> settings =
        required("mongodb://mongo:27017/?authMechanism=MONGODB-X509");
    settings.put(MongoSettings.TLS_CA_FILE, ca.writeBundle(folder.resolve("ca.pem")).toString());
    settings.put(
        MongoSettings.TLS_CERT_FILE, client.writeChain(folder.resolve("client.pem")).toString());
    settings.put(MongoSettings.TLS_KEY_FILE, client.writeKey(folder.resolve("key.pem")).toString());

    final ClientTls tls = connection(settings).tls().orElseThrow();

    assertThat(tls.caFile()).contains(folder.resolve("ca.pem"));
    assertThat(tls.certificateFile()).contains(folder.resolve("client.pem"));
  }

  @Test
  void shouldRefuseACertificateWithoutItsKey() {
    final Issued client =
        TestCertificates.issue(TestCertificates.ca("ca"), "bucketer", Purpose.CLIENT);
    final Map<String, Object> settings = required("mongodb://mongo:27017");
    settings.put(
        MongoSettings.TLS_CERT_FILE, client.writeChain(folder.resolve("client.pem")).toString());

    assertThatThrownBy(() -> connection(settings))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("mongodb.tls.key.file must be set too");
  }

  @Test
  void shouldRefuseTlsFilesWhenTheConnectionStringTurnsTlsOff() {
    final Map<String, Object> settings = required("mongodb://mongo:27017/?tls=false");
    settings.put(
        MongoSettings.TLS_CA_FILE,
        TestCertificates.ca("ca").writeBundle(folder.resolve("ca.pem")).toString());

    assertThatThrownBy(() -> connection(settings))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("turns TLS off (tls=false)");
  }

  @Test
  void shouldNameTheFileThatIsNoCaBundleWithoutQuotingIt() throws Exception {
    final Path notPem = Files.writeString(folder.resolve("ca.pem"), "password=" + PASSWORD);
    final Map<String, Object> settings = required("mongodb://mongo:27017");
    settings.put(MongoSettings.TLS_CA_FILE, notPem.toString());

    assertThatThrownBy(() -> connection(settings))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("mongodb.tls.*: " + notPem)
        .message()
        .doesNotContain(PASSWORD);
  }
}
