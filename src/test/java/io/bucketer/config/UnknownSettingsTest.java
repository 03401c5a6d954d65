package io.bucketer.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A setting nobody defines is an error naming it, where it came from and what was meant. */
class UnknownSettingsTest {

  private static Map<String, String> required() {
    final Map<String, String> flags = new HashMap<>();
    flags.put("bootstrap.servers", "broker:9092");
    flags.put("schema.registry.url", "http://registry:8081");
    flags.put("mongodb.uri", "mongodb://mongo:27017");
    return flags;
  }

  private static BucketerConfig load(
      final Path file, final Map<String, String> environment, final Map<String, String> flags) {
    final SourcedSettings settings = ConfigSources.gather(file, environment, flags);
    return new BucketerConfig(settings.values(), settings.origins());
  }

  private static Map<String, String> requiredAnd(final String name, final String value) {
    final Map<String, String> flags = required();
    flags.put(name, value);
    return flags;
  }

  @Test
  void shouldRefuseAMisspeltFlagNamingTheFlagAndTheNearestSetting() {
    assertThatThrownBy(() -> load(null, Map.of(), requiredAnd("http.prot", "8081")))
        .isInstanceOf(ConfigException.class)
        .hasMessage("unknown setting http.prot (from -s): did you mean http.port?");
  }

  @Test
  void shouldRefuseAMisspeltSettingInTheFileNamingTheFile(@TempDir final Path dir)
      throws Exception {
    final Path file = dir.resolve("bucketer.properties");
    Files.writeString(file, "lateness.horizn=2h\n");

    assertThatThrownBy(() -> load(file, Map.of(), required()))
        .isInstanceOf(ConfigException.class)
        .hasMessage(
            "unknown setting lateness.horizn (from file "
                + file
                + "): did you mean lateness.horizon?");
  }

  @Test
  void shouldRefuseAMisspeltEnvironmentVariableNamingItButNotTheLogFormat() {
    final Map<String, String> environment =
        Map.of(
            "BUCKETER_MONGODB_DATABSE", "iot",
            "BUCKETER_LOG_FORMAT", "json",
            "PATH", "/bin");

    assertThatThrownBy(() -> load(null, environment, required()))
        .isInstanceOf(ConfigException.class)
        .hasMessage(
            "unknown setting mongodb.databse (from environment variable"
                + " BUCKETER_MONGODB_DATABSE): did you mean mongodb.database?");
    assertThat(load(null, Map.of("BUCKETER_LOG_FORMAT", "json"), required()).mongoDatabase())
        .isEqualTo("iot");
  }

  @Test
  void shouldRefuseAKafkaSettingNoKafkaClientDefines() {
    assertThatThrownBy(() -> load(null, Map.of(), requiredAnd("kafka.sesion.timeout.ms", "10000")))
        .isInstanceOf(ConfigException.class)
        .hasMessageStartingWith(
            "unknown Kafka client setting kafka.sesion.timeout.ms (from -s): did you mean"
                + " kafka.session.timeout.ms?")
        .hasMessageContaining("kafka.unchecked.prefixes");
  }

  @Test
  void shouldPassEveryNameAKafkaClientTakesAsKafkaStreamsTakesIt() {
    final Map<String, String> flags = required();
    flags.put("kafka.session.timeout.ms", "10000");
    flags.put("kafka.num.stream.threads", "2");
    flags.put("kafka.sasl.mechanism", "SCRAM-SHA-512");
    flags.put("kafka.main.consumer.max.poll.records", "500");
    flags.put("kafka.producer.linger.ms", "5");
    flags.put("kafka.admin.retries", "3");
    flags.put("kafka.topic.min.insync.replicas", "2");
    flags.put("kafka.client.tag.zone", "eu-west-1a");

    assertThat(load(null, Map.of(), flags).kafkaProperties())
        .containsEntry("main.consumer.max.poll.records", "500")
        .containsEntry("topic.min.insync.replicas", "2")
        .containsEntry("client.tag.zone", "eu-west-1a");
  }

  @Test
  void shouldSuggestTheKafkaPrefixForAKafkaSettingWithoutIt() {
    assertThatThrownBy(() -> load(null, Map.of(), requiredAnd("state.dir", "/var/lib/bucketer")))
        .hasMessage("unknown setting state.dir (from -s): did you mean kafka.state.dir?");
  }

  @Test
  void shouldListEveryWrongSettingAtOnce(@TempDir final Path dir) throws Exception {
    final Path file = dir.resolve("bucketer.properties");
    Files.writeString(file, "granularities=1m,1w\n");
    final Map<String, String> flags = requiredAnd("http.prot", "8081");
    flags.put("kafka.sesion.timeout.ms", "10000");

    assertThatThrownBy(() -> load(file, Map.of("BUCKETER_GRAC", "5s"), flags))
        .isInstanceOf(ConfigException.class)
        .hasMessageStartingWith("4 problems with the settings:\n")
        .hasMessageContaining("unknown setting http.prot (from -s)")
        .hasMessageContaining("unknown Kafka client setting kafka.sesion.timeout.ms (from -s)")
        .hasMessageContaining(
            "unknown setting grac (from environment variable BUCKETER_GRAC): did you mean grace?")
        .hasMessageContaining("granularities")
        .hasMessageContaining("(from file " + file + ")");
  }

  @Test
  void shouldLetAPluginsOwnSettingsThroughUnderAnUncheckedPrefix() {
    final Map<String, String> flags = required();
    flags.put("kafka.config.providers", "vault");
    flags.put("kafka.config.providers.vault.class", "com.example.VaultConfigProvider");
    flags.put("kafka.config.providers.vault.param.address", "https://vault:8200");

    assertThatThrownBy(() -> load(null, Map.of(), flags))
        .hasMessageContaining("kafka.config.providers.vault.class")
        .hasMessageContaining("kafka.config.providers.vault.param.address");

    flags.put("kafka.unchecked.prefixes", "config.providers.vault.");
    assertThat(load(null, Map.of(), flags).kafkaProperties())
        .containsEntry("config.providers.vault.param.address", "https://vault:8200")
        .doesNotContainKey("unchecked.prefixes");
  }

  @Test
  void shouldMeasureTheDistanceBetweenNamesAsLevenshteinDid() {
    assertThat(NearestNames.distance("kitten", "sitting")).isEqualTo(3);
    assertThat(NearestNames.distance("", "abc")).isEqualTo(3);
    assertThat(NearestNames.distance("http.port", "http.port")).isZero();
    assertThat(NearestNames.to("qwertyuiop", List.of("http.port"))).isEmpty();
  }
}
