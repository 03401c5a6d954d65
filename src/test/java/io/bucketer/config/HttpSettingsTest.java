package io.bucketer.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bucketer.http.HttpSecurity;
import io.bucketer.http.HttpSecurity.AuthMode;
import io.bucketer.http.HttpSecurity.ClientAuth;
import io.bucketer.http.HttpSecurity.MetricsAccess;
import io.bucketer.security.PasswordHashes;
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

/** The HTTP listener's security settings: safe when absent, refused when they do not fit. */
class HttpSettingsTest {

  @TempDir Path folder;

  private static Map<String, Object> required() {
    final Map<String, Object> settings = new HashMap<>();
    settings.put("bootstrap.servers", "broker:9092");
    settings.put("input.format", "json");
    settings.put("mongodb.uri", "mongodb://mongo:27017");
    return settings;
  }

  private static HttpSecurity security(final Map<String, Object> settings) {
    return new BucketerConfig(settings).http().security();
  }

  @Test
  void shouldKeepTheDataForThisHostWhenNothingIsConfigured() {
    final HttpSecurity security = security(required());

    assertThat(security.tls()).isEmpty();
    assertThat(security.access().mode()).isEqualTo(AuthMode.LOOPBACK);
    assertThat(security.access().peerToken()).isEmpty();
    assertThat(security.metrics()).isEqualTo(MetricsAccess.API);
    assertThat(security.limits()).isEqualTo(HttpSecurity.Limits.DEFAULT);
  }

  @Test
  void shouldReadTlsAndCredentialsFiles() throws Exception {
    final Authority ca = TestCertificates.ca("test CA");
    final Issued server = TestCertificates.issue(ca, "bucketer", Purpose.SERVER, "localhost");
    final Map<String, Object> settings = required();
    settings.put(
        HttpSettings.TLS_CERT_FILE, server.writeChain(folder.resolve("cert.pem")).toString());
    settings.put(HttpSettings.TLS_KEY_FILE, server.writeKey(folder.resolve("key.pem")).toString());
    settings.put(HttpSettings.TLS_CLIENT_AUTH, "required");
    settings.put(
        HttpSettings.TLS_CLIENT_CA_FILE, ca.writeBundle(folder.resolve("ca.pem")).toString());
    settings.put(HttpSettings.AUTH_MODE, "credentials");
    settings.put(
        HttpSettings.AUTH_USERS_FILE,
        Files.writeString(
                folder.resolve("users"), "a:" + PasswordHashes.pbkdf2("pw".toCharArray()) + "\n")
            .toString());
    settings.put(HttpSettings.METRICS_ACCESS, "open");

    final HttpSecurity security = security(settings);

    assertThat(security.tls())
        .hasValueSatisfying(tls -> assertThat(tls.clientAuth()).isEqualTo(ClientAuth.REQUIRED));
    assertThat(security.access().mode()).isEqualTo(AuthMode.CREDENTIALS);
    assertThat(security.access().credentials().orElseThrow().password("a", "pw".toCharArray()))
        .isPresent();
    assertThat(security.metrics()).isEqualTo(MetricsAccess.OPEN);
  }

  @Test
  void shouldRefuseSettingsThatDoNotFitTogether() throws Exception {
    final Path users =
        Files.writeString(
            folder.resolve("users"), "a:" + PasswordHashes.pbkdf2("pw".toCharArray()));
    final Path token = Files.writeString(folder.resolve("peer"), "a-token-of-at-least-16-chars");
    assertRefused(
        Map.of(HttpSettings.TLS_CERT_FILE, "/etc/cert.pem"), "http.tls.key.file must be set too");
    assertRefused(Map.of(HttpSettings.TLS_CLIENT_AUTH, "required"), "needs TLS");
    // A users file without the mode would leave the API as it was: refused, not ignored.
    assertRefused(
        Map.of(HttpSettings.AUTH_USERS_FILE, users.toString()), "http.auth.mode=credentials");
    assertRefused(Map.of(HttpSettings.AUTH_MODE, "credentials"), "needs http.auth.users.file");
    assertRefused(
        Map.of(HttpSettings.AUTH_MODE, "open", HttpSettings.AUTH_PEER_TOKEN_FILE, token.toString()),
        "only with http.auth.mode=loopback");
    assertRefused(Map.of(HttpSettings.AUTH_MODE, "everyone"), HttpSettings.AUTH_MODE);
    assertRefused(Map.of(HttpSettings.METRICS_ACCESS, "public"), HttpSettings.METRICS_ACCESS);
  }

  @Test
  void shouldNameAFileThatCannotBeUsedWithoutQuotingIt() throws Exception {
    final Path notAKey = Files.writeString(folder.resolve("key.pem"), "s3cret-not-a-key");
    final Path notACert = Files.writeString(folder.resolve("cert.pem"), "s3cret-not-a-cert");
    final Path plainUsers = Files.writeString(folder.resolve("users"), "alice:s3cret-plain\n");
    final Path shortToken = Files.writeString(folder.resolve("peer"), "s3cret");

    assertRefused(
        Map.of(
            HttpSettings.TLS_CERT_FILE,
            notACert.toString(),
            HttpSettings.TLS_KEY_FILE,
            notAKey.toString()),
        notACert.toString());
    assertRefused(
        Map.of(
            HttpSettings.AUTH_MODE,
            "credentials",
            HttpSettings.AUTH_USERS_FILE,
            plainUsers.toString()),
        plainUsers + " line 1");
    assertRefused(Map.of(HttpSettings.AUTH_PEER_TOKEN_FILE, shortToken.toString()), "at least 16");
    for (final Map<String, Object> settings :
        java.util.List.<Map<String, Object>>of(
            Map.of(
                HttpSettings.TLS_CERT_FILE,
                notACert.toString(),
                HttpSettings.TLS_KEY_FILE,
                notAKey.toString()),
            Map.of(
                HttpSettings.AUTH_MODE,
                "credentials",
                HttpSettings.AUTH_USERS_FILE,
                plainUsers.toString()),
            Map.of(HttpSettings.AUTH_PEER_TOKEN_FILE, shortToken.toString()))) {
      final Map<String, Object> all = required();
      all.putAll(settings);
      assertThatThrownBy(() -> new BucketerConfig(all)).hasMessageNotContaining("s3cret");
    }
  }

  private static void assertRefused(final Map<String, Object> more, final String message) {
    final Map<String, Object> settings = required();
    settings.putAll(more);
    assertThatThrownBy(() -> new BucketerConfig(settings))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining(message);
  }
}
