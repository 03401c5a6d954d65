package io.bucketer.config;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import org.apache.kafka.common.config.ConfigException;

/**
 * Gathers settings from, lowest precedence first: a properties file, environment variables named
 * {@code BUCKETER_<KEY>} (dots become underscores: {@code BUCKETER_MONGODB_URI}, {@code
 * BUCKETER_KAFKA_SECURITY_PROTOCOL}), and command-line overrides; and remembers where each came
 * from, for the errors.
 */
public final class ConfigSources {

  public static final String ENV_PREFIX = "BUCKETER_";

  /**
   * Environment variables that start with {@link #ENV_PREFIX} but are read elsewhere, not settings:
   * the log format, which logback reads before any setting is.
   */
  static final Set<String> NOT_SETTINGS = Set.of("BUCKETER_LOG_FORMAT");

  private ConfigSources() {}

  public static Map<String, String> merge(
      final Path file, final Map<String, String> environment, final Map<String, String> flags) {
    return gather(file, environment, flags).values();
  }

  /** The settings of all three sources, each with the origin whose value won. */
  public static SourcedSettings gather(
      final Path file, final Map<String, String> environment, final Map<String, String> flags) {
    final Map<String, String> settings = new HashMap<>();
    final Map<String, String> origins = new HashMap<>();
    if (file != null) {
      readFile(file)
          .forEach(
              (name, value) -> {
                settings.put(name, value);
                origins.put(name, "file " + file);
              });
    }
    environment.forEach(
        (variable, value) ->
            settingName(variable)
                .ifPresent(
                    name -> {
                      settings.put(name, value);
                      origins.put(name, "environment variable " + variable);
                    }));
    flags.forEach(
        (name, value) -> {
          settings.put(name, value);
          origins.put(name, "-s");
        });
    return new SourcedSettings(settings, origins);
  }

  private static Optional<String> settingName(final String variable) {
    if (!variable.startsWith(ENV_PREFIX)
        || variable.length() == ENV_PREFIX.length()
        || NOT_SETTINGS.contains(variable)) {
      return Optional.empty();
    }
    return Optional.of(
        variable.substring(ENV_PREFIX.length()).toLowerCase(Locale.ROOT).replace('_', '.'));
  }

  private static Map<String, String> readFile(final Path file) {
    final Properties properties = new Properties();
    try (Reader reader = Files.newBufferedReader(file)) {
      properties.load(reader);
    } catch (IOException e) {
      throw new ConfigException("cannot read configuration file " + file + ": " + e.getMessage());
    }
    final Map<String, String> settings = new HashMap<>();
    properties
        .stringPropertyNames()
        .forEach(name -> settings.put(name, properties.getProperty(name)));
    return settings;
  }
}
