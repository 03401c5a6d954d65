package io.bucketer.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bucketer.avro.Reading;
import io.bucketer.config.BucketerConfig;
import io.bucketer.config.InputSettings;
import io.bucketer.embedded.InProcessSchemaRegistry;
import io.bucketer.testing.CuttableTcpProxy;
import io.bucketer.testing.TestCertificates;
import io.bucketer.testing.TestCertificates.Authority;
import io.bucketer.testing.TestCertificates.Issued;
import io.bucketer.testing.TestCertificates.Purpose;
import io.bucketer.testing.TlsTerminatingProxy;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The registry over HTTPS with a private CA, a client certificate it demands, and a bearer token:
 * the in-process registry behind a TLS-terminating proxy, the client configured through the
 * settings as {@code run} configures it, the token read from a secret volume.
 *
 * <p>Not the JDK's own HTTPS server: it closes a connection whose client certificate it refuses
 * without sending the TLS alert that says so (the client sees only an empty answer), where the
 * proxy's socket, and the Jetty and Netty servers registries run on, send it.
 */
class SchemaRegistryTlsTest {

  private static final String TOKEN = "t0ken-5c1e-77aa-registry";

  /** Long enough that a retried failure would show in the time taken. */
  private static final Duration RETRY_TOTAL = Duration.ofSeconds(20);

  @TempDir Path folder;

  private final Authority registryCa = TestCertificates.ca("registry CA");
  private final Authority clientCa = TestCertificates.ca("client CA");
  private InProcessSchemaRegistry registry;
  private CuttableTcpProxy https;
  private int schemaId;

  @BeforeEach
  void startAnHttpsRegistryThatDemandsACertificateAndAToken() {
    final Issued certificate =
        TestCertificates.issue(registryCa, "registry", Purpose.SERVER, "127.0.0.1");
    registry = InProcessSchemaRegistry.startRequiring("Bearer " + TOKEN);
    https = TlsTerminatingProxy.start(certificate, clientCa, URI.create(registry.url()).getPort());
  }

  @AfterEach
  void stopRegistry() {
    https.close();
    registry.close();
  }

  private String url() {
    return "https://127.0.0.1:" + https.port();
  }

  @Test
  void shouldFetchTheSchemaWithTheRightCaClientCertificateAndToken() throws Exception {
    final Map<String, Object> settings = settings(registryCa);
    putClientCertificate(settings);
    putToken(settings, TOKEN + "\n"); // as a file holds it

    final SchemaRegistryClient client = client(settings);
    schemaId = client.register("readings-value", Reading.getClassSchema());

    assertThat(client(settings).schemaById(schemaId)).isEqualTo(Reading.getClassSchema());
  }

  @Test
  void shouldFailAtOnceNamingTlsTrustAndTheCaFileWhenTheCaIsWrong() {
    final Authority other = TestCertificates.ca("some other CA");
    final Map<String, Object> settings = settings(other);
    putClientCertificate(settings);
    putToken(settings, TOKEN);
    final SchemaRegistryClient client = client(settings);
    final long start = System.nanoTime();

    assertThatThrownBy(() -> client.schemaById(1))
        .isExactlyInstanceOf(SchemaRegistryException.class)
        .hasMessage(
            "schema registry "
                + url()
                + ": TLS trust: the server's certificate does not chain to the CAs in "
                + folder.resolve("ca.pem"));
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(RETRY_TOTAL.dividedBy(4));
  }

  @Test
  void shouldFailAtOnceSayingTheCertificateWasRefusedWithoutOne() {
    final Map<String, Object> settings = settings(registryCa);
    putToken(settings, TOKEN);
    final SchemaRegistryClient client = client(settings);
    final long start = System.nanoTime();

    assertThatThrownBy(() -> client.schemaById(1))
        .isExactlyInstanceOf(SchemaRegistryException.class)
        .hasMessageContaining("schema registry " + url() + ": certificate refused");
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(RETRY_TOTAL.dividedBy(4));
  }

  @Test
  void shouldSurfaceAMissingTokenAsOne401NeverRetriedNorQuotingATokenSent() {
    final Map<String, Object> withoutToken = settings(registryCa);
    putClientCertificate(withoutToken);
    final Map<String, Object> wrongToken = settings(registryCa);
    putClientCertificate(wrongToken);
    putToken(wrongToken, "not-" + TOKEN);

    assertThatThrownBy(() -> client(withoutToken).schemaById(1))
        .isExactlyInstanceOf(SchemaRegistryException.class)
        .hasMessage(
            "schema registry "
                + url()
                + ": authentication failed: HTTP 401 to GET /schemas/ids/1 with no credentials");
    assertThat(registry.requestCount()).isEqualTo(1);
    assertThatThrownBy(() -> client(wrongToken).schemaById(1))
        .isExactlyInstanceOf(SchemaRegistryException.class)
        .hasMessageEndingWith("with a bearer token")
        .message()
        .doesNotContain(TOKEN);
    assertThat(registry.requestCount()).isEqualTo(2);
  }

  @Test
  void shouldNeverShowTheTokenInTheSettingsObjects() {
    final Map<String, Object> settings = settings(registryCa);
    putToken(settings, TOKEN);

    final BucketerConfig config = new BucketerConfig(settings);

    assertThat(config.input().schemaRegistryAuth()).hasToString("RegistryAuth[a bearer token]");
    assertThat(config.toString()).doesNotContain(TOKEN);
    assertThat(config.values().toString()).doesNotContain(TOKEN);
  }

  private Map<String, Object> settings(final Authority trusted) {
    final Map<String, Object> settings = new HashMap<>();
    settings.put("bootstrap.servers", "broker:9092");
    settings.put("mongodb.uri", "mongodb://mongo:27017");
    settings.put(InputSettings.SCHEMA_REGISTRY_URL, url());
    settings.put(
        InputSettings.SCHEMA_REGISTRY_TLS_CA_FILE,
        trusted.writeBundle(folder.resolve("ca.pem")).toString());
    return settings;
  }

  private void putClientCertificate(final Map<String, Object> settings) {
    final Issued client = TestCertificates.issue(clientCa, "bucketer", Purpose.CLIENT);
    settings.put(
        InputSettings.SCHEMA_REGISTRY_TLS_CERT_FILE,
        client.writeChain(folder.resolve("client.pem")).toString());
    settings.put(
        InputSettings.SCHEMA_REGISTRY_TLS_KEY_FILE,
        client.writeKey(folder.resolve("client-key.pem")).toString());
  }

  /** The token in a secret volume's file, named by a ${dir:...} reference. */
  private void putToken(final Map<String, Object> settings, final String content) {
    try {
      final Path volume = Files.createDirectories(folder.resolve("secret"));
      Files.writeString(volume.resolve("registry-token"), content);
      settings.put(
          InputSettings.SCHEMA_REGISTRY_BEARER_TOKEN, "${dir:" + volume + ":registry-token}");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static SchemaRegistryClient client(final Map<String, Object> settings) {
    final InputSettings input = new BucketerConfig(settings).input();
    return new SchemaRegistryClient(
        input.schemaRegistryUrl(),
        Duration.ofSeconds(2),
        new RetryBudget(Duration.ofMillis(50), Duration.ofMillis(500), RETRY_TOTAL),
        input.schemaRegistryAuth(),
        input.schemaRegistryTls());
  }
}
