package io.bucketer.cli;

import io.bucketer.config.BucketerConfig;
import io.bucketer.config.ConfigSources;
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
              + " kafka.* settings pass to the Kafka clients. Repeatable.")
  Map<String, String> overrides = new LinkedHashMap<>();

  BucketerConfig load() {
    return new BucketerConfig(ConfigSources.merge(file, System.getenv(), overrides));
  }
}
