package io.bucketer.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Level;
import io.bucketer.testing.CapturedLog;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Settings from files, directories and environment variables through Kafka's config providers, and
 * secrets that reach no error, no reference and no log line, however they were given.
 */
class SecretProvidersTest {

  private static final String MONGO_PASSWORD = "mongo-Pa55-6b1f";
  private static final String JAAS_PASSWORD = "jaas-Pa55-d2c4";
  private static final String REGISTRY_PASSWORD = "registry-Pa55-01e7";
  @TempDir Path dir;

  private static Map<String, Object> required() {
    final Map<String, Object> settings = new HashMap<>();
    settings.put("bootstrap.servers", "broker:9092");
    settings.put("schema.registry.url", "http://registry:8081");
    settings.put("mongodb.uri", "mongodb://mongo:27017");
    return settings;
  }

  private static String jaas(final String password) {
    return "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"bucketer\""
        + " password=\""
        + password
        + "\";";
  }

  /** Secrets as a deployment keeps them: a properties file, and a Kubernetes secret volume. */
  private Map<String, Object> settingsFromSecretFiles() throws Exception {
    final Path properties = dir.resolve("kafka.properties");
    // Properties syntax: the JAAS line's quotes need no escaping, its backslashes would.
    Files.writeString(properties, "jaas=" + jaas(JAAS_PASSWORD) + "\n");
    final Path volume = Files.createDirectories(dir.resolve("secret-volume"));
    Files.writeString(
        volume.resolve("mongodb-uri"), "mongodb://bucketer:" + MONGO_PASSWORD + "@mongo:27017");
    Files.writeString(volume.resolve("registry-user-info"), "reader:" + REGISTRY_PASSWORD);
    final Map<String, Object> settings = required();
    settings.put("kafka.sasl.jaas.config", "${file:" + properties + ":jaas}");
    settings.put("mongodb.uri", "${dir:" + volume + ":mongodb-uri}");
    settings.put(
        "schema.registry.basic.auth.user.info", "${dir:" + volume + ":registry-user-info}");
    return settings;
  }

  @Test
  void shouldResolveFileDirectoryAndEnvironmentReferencesInAnySetting() throws Exception {
    final Map<String, Object> settings = settingsFromSecretFiles();
    // Any variable the test's JVM has: PATH is always there.
    settings.put("input.topic", "${env:PATH}");

    final BucketerConfig config = new BucketerConfig(settings);

    assertThat(config.kafkaProperties()).containsEntry("sasl.jaas.config", jaas(JAAS_PASSWORD));
    assertThat(config.mongoUri())
        .isEqualTo("mongodb://bucketer:" + MONGO_PASSWORD + "@mongo:27017");
    assertThat(config.schemaRegistryUserInfo()).isEqualTo("reader:" + REGISTRY_PASSWORD);
    assertThat(config.inputTopic()).isEqualTo(System.getenv("PATH"));
  }

  /** Kafka 4 lets that property restrict providers; bucketer's three are given, not named. */
  @Test
  void shouldResolveReferencesWhateverKafkasAutomaticProvidersPropertyAllows() throws Exception {
    final String property = "org.apache.kafka.automatic.config.providers";
    final String before = System.getProperty(property);
    System.setProperty(property, "");
    try {
      assertThat(new BucketerConfig(settingsFromSecretFiles()).kafkaProperties())
          .containsEntry("sasl.jaas.config", jaas(JAAS_PASSWORD));
    } finally {
      if (before == null) {
        System.clearProperty(property);
      } else {
        System.setProperty(property, before);
      }
    }
  }

  @Test
  void shouldNameAReferenceThatFindsNothingWithoutResolvingIt() {
    final Map<String, Object> settings = required();
    settings.put("kafka.sasl.jaas.config", "${env:BUCKETER_TEST_NO_SUCH_VARIABLE}");
    settings.put("mongodb.uri", "${dir:" + dir + ":no-such-file}");

    assertThatThrownBy(() -> new BucketerConfig(settings))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining(
            "kafka.sasl.jaas.config: ${env:BUCKETER_TEST_NO_SUCH_VARIABLE} found nothing")
        .hasMessageContaining("mongodb.uri: ${dir:" + dir + ":no-such-file} found nothing");
  }

  @Test
  void shouldKeepPlantedSecretsOutOfErrorsTheReferenceAndTheLog() throws Exception {
    final Map<String, Object> invalid = settingsFromSecretFiles();
    // Wrong, each of them, so that the error has something to say about every secret setting.
    final Path volume = dir.resolve("secret-volume");
    Files.writeString(
        volume.resolve("mongodb-uri"), "postgres://bucketer:" + MONGO_PASSWORD + "@db");
    invalid.put("granularities", "1m,1w");
    invalid.put("kafka.sasl.jaas.confg", jaas(JAAS_PASSWORD));

    final CapturedLog captured = CapturedLog.of(Level.DEBUG, "io.bucketer", "org.apache.kafka");
    final String error;
    final String log;
    try {
      error =
          catchMessage(() -> new BucketerConfig(invalid))
              + catchMessage(() -> new BucketerConfig(Map.of("mongodb.uri", MONGO_PASSWORD)));
      final BucketerConfig valid = new BucketerConfig(settingsFromSecretFiles());
      // Kafka's configs, as the app builds them, log every value at INFO.
      final Map<String, Object> streams = new HashMap<>(valid.kafkaProperties());
      streams.put(StreamsConfig.APPLICATION_ID_CONFIG, valid.applicationId());
      new StreamsConfig(streams);
      // The clients' own settings, the JAAS config among them, are logged by each client's config.
      final Map<String, Object> consumer = new HashMap<>(valid.kafkaProperties());
      consumer.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
      consumer.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
      new ConsumerConfig(consumer);
      log = captured.text();
    } finally {
      captured.close();
    }

    assertThat(error).contains("mongodb.uri").contains("granularities").contains("sasl.jaas.confg");
    assertThat(log)
        .contains("StreamsConfig values")
        .contains("ConsumerConfig values")
        .contains("sasl.jaas.config = [hidden]")
        .doesNotContain("No pattern for environment variables");
    for (final String secret : List.of(MONGO_PASSWORD, JAAS_PASSWORD, REGISTRY_PASSWORD)) {
      assertThat(error).doesNotContain(secret);
      assertThat(log).doesNotContain(secret);
      assertThat(ConfigReference.markdownRows()).doesNotContain(secret);
    }
  }

  private static String catchMessage(final Runnable build) {
    try {
      build.run();
    } catch (ConfigException e) {
      return e.getMessage() + "\n";
    }
    throw new AssertionError("the settings were accepted");
  }
}
