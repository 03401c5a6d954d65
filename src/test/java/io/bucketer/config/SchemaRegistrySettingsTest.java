package io.bucketer.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bucketer.testing.TestCertificates;
import io.bucketer.testing.TestCertificates.Issued;
import io.bucketer.testing.TestCertificates.Purpose;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The registry's credentials and TLS files: one kind of credential, files that fit the URLs. */
class SchemaRegistrySettingsTest {

  private static final String TOKEN = "t0ken-a9f3-registry";

  @TempDir Path folder;

  private static Map<String, Object> required(final String registryUrl) {
    final Map<String, Object> settings = new HashMap<>();
    settings.put("bootstrap.servers", "broker:9092");
    settings.put("mongodb.uri", "mongodb://mongo:27017");
    settings.put(InputSettings.SCHEMA_REGISTRY_URL, registryUrl);
    return settings;
  }

  private static InputSettings input(final Map<String, Object> settings) {
    return new BucketerConfig(settings).input();
  }

  @Test
  void shouldSendNoCredentialsAndTrustTheJvmWhenNothingIsSet() {
    final InputSettings input = input(required("https://registry:8081"));

    assertThat(input.schemaRegistryAuth().describe()).isEqualTo("no credentials");
    assertThat(input.schemaRegistryTls()).isEmpty();
  }

  @Test
  void shouldRefuseBasicCredentialsAndABearerTokenTogetherWithoutQuotingEither() {
    final Map<String, Object> settings = required("https://registry:8081");
    settings.put(InputSettings.SCHEMA_REGISTRY_USER_INFO, "reader:b4sicS3cret");
    settings.put(InputSettings.SCHEMA_REGISTRY_BEARER_TOKEN, TOKEN);

    assertThatThrownBy(() -> input(settings))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("are both set")
        .message()
        .doesNotContain(TOKEN)
        .doesNotContain("b4sicS3cret");
  }

  @Test
  void shouldRefuseATokenOfSeveralWordsWithoutQuotingIt() {
    final Map<String, Object> settings = required("https://registry:8081");
    settings.put(InputSettings.SCHEMA_REGISTRY_BEARER_TOKEN, "Bearer " + TOKEN);

    assertThatThrownBy(() -> input(settings))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("must be one token")
        .message()
        .doesNotContain(TOKEN);
  }

  @Test
  void shouldRefuseTlsFilesForAPlainHttpRegistry() {
    final Map<String, Object> settings = required("https://a:8081, http://b:8081");
    settings.put(
        InputSettings.SCHEMA_REGISTRY_TLS_CA_FILE,
        TestCertificates.ca("ca").writeBundle(folder.resolve("ca.pem")).toString());

    assertThatThrownBy(() -> input(settings))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("names a plain http:// registry");
  }

  @Test
  void shouldRefuseAKeyWithoutItsCertificate() {
    final Issued client =
        TestCertificates.issue(TestCertificates.ca("ca"), "bucketer", Purpose.CLIENT);
    final Map<String, Object> settings = required("https://registry:8081");
    settings.put(
        InputSettings.SCHEMA_REGISTRY_TLS_KEY_FILE,
        client.writeKey(folder.resolve("key.pem")).toString());

    assertThatThrownBy(() -> input(settings))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("schema.registry.tls.cert.file must be set too");
  }

  @Test
  void shouldDropTheLineBreakAFileGivesTheBasicCredentials() {
    final Map<String, Object> settings = required("https://registry:8081");
    settings.put(InputSettings.SCHEMA_REGISTRY_USER_INFO, "reader:pw\n");

    assertThat(input(settings).schemaRegistryUserInfo()).isEqualTo("reader:pw");
    assertThat(input(settings).schemaRegistryAuth().describe())
        .isEqualTo("basic credentials of user reader");
  }
}
