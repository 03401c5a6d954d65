package io.bucketer.cli;

import io.bucketer.config.BucketerConfig;
import io.bucketer.config.ConfigSources;
import io.bucketer.config.SourcedSettings;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Option;

/** The configuration options shared by the commands that connect to a cluster. */
final class ConfigOptions {

  @Option(
      names = {"-c", "--config"},
      paramLabel = "FILE",
      description = "Properties file with settings (see the README's configuration reference).")
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
}
