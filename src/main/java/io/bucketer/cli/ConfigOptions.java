package io.bucketer.cli;

import io.bucketer.config.BucketerConfig;
import io.bucketer.config.ConfigSources;
import io.bucketer.config.KafkaSettings;
import io.bucketer.config.SourcedSettings;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import picocli.CommandLine.Option;

/** The configuration options shared by the commands that connect to a cluster. */
final class ConfigOptions {

  @Option(
      names = {"-c", "--config"},
      paramLabel = "FILE",
      description = "Properties file with settings (see docs/configuration.md).")
  Path file;

  @Option(
      names = {"-s", "--set"},
      paramLabel = "KEY=VALUE",
      description =
          "A setting, overriding the file and BUCKETER_* environment variables;"
              + " kafka.* settings pass to the Kafka clients. An unknown setting is an error."
              + " Repeatable.")
  Map<String, String> overrides = new LinkedHashMap<>();

  /**
   * @throws org.apache.kafka.common.config.ConfigException listing every setting that is wrong,
   *     unknown ones included, with where each came from; before anything connects
   */
  BucketerConfig load() {
    final SourcedSettings settings = ConfigSources.gather(file, System.getenv(), overrides);
    return new BucketerConfig(settings.values(), settings.origins());
  }

  /**
   * The Kafka settings among the same sources as {@link #load()}'s, checked and with their secrets
   * resolved as there: for commands that only produce or consume (simulate), which need no MongoDB
   * and so cannot load the processor's whole configuration. {@code bootstrapServers}, when given,
   * comes before every source.
   *
   * @throws org.apache.kafka.common.config.ConfigException listing every Kafka setting that is
   *     wrong
   */
  KafkaSettings kafka(final Optional<String> bootstrapServers) {
    final SourcedSettings gathered = ConfigSources.gather(file, System.getenv(), overrides);
    if (bootstrapServers.isEmpty()) {
      return KafkaSettings.of(gathered);
    }
    final Map<String, String> values = new HashMap<>(gathered.values());
    final Map<String, String> origins = new HashMap<>(gathered.origins());
    values.put(KafkaSettings.BOOTSTRAP_SERVERS, bootstrapServers.get());
    origins.put(KafkaSettings.BOOTSTRAP_SERVERS, "--bootstrap-servers");
    return KafkaSettings.of(new SourcedSettings(values, origins));
  }
}
