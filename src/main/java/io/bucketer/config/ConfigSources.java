package io.bucketer.config;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.common.config.ConfigException;

/**
 * Gathers settings from, lowest precedence first: a properties file, environment variables named
 * {@code BUCKETER_<KEY>} (dots become underscores: {@code BUCKETER_MONGODB_URI}, {@code
 * BUCKETER_KAFKA_SECURITY_PROTOCOL}), and command-line overrides.
 */
public final class ConfigSources {

  public static final String ENV_PREFIX = "BUCKETER_";

  private ConfigSources() {}

  public static Map<String, String> merge(
      final Path file, final Map<String, String> environment, final Map<String, String> flags) {
    final Map<String, String> settings = new HashMap<>();
    if (file != null) {
      settings.putAll(readFile(file));
    }
    settings.putAll(fromEnvironment(environment));
    settings.putAll(flags);
    return settings;
  }

  static Map<String, String> fromEnvironment(final Map<String, String> environment) {
    final Map<String, String> settings = new HashMap<>();
    environment.forEach(
        (name, value) -> {
          if (name.startsWith(ENV_PREFIX) && name.length() > ENV_PREFIX.length()) {
            final String key =
                name.substring(ENV_PREFIX.length()).toLowerCase(Locale.ROOT).replace('_', '.');
            settings.put(key, value);
          }
        });
    return settings;
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
