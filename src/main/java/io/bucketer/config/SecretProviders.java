package io.bucketer.config;

import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigTransformer;
import org.apache.kafka.common.config.provider.DirectoryConfigProvider;
import org.apache.kafka.common.config.provider.EnvVarConfigProvider;
import org.apache.kafka.common.config.provider.FileConfigProvider;

/**
 * Settings whose values live elsewhere, with the syntax of Kafka's config providers (KIP-297) and
 * Kafka's own provider classes: {@code ${file:/etc/bucketer/secrets.properties:jaas}} (a key of a
 * properties file), {@code ${dir:/etc/bucketer/mongodb:uri}} (a file of a directory, as a
 * Kubernetes secret volume holds one file per key) and {@code ${env:MONGODB_URI}} (an environment
 * variable). Any setting may use them, {@code kafka.*} ones included; the values are resolved
 * before anything reads or checks them.
 */
final class SecretProviders {

  static final String FILE = "file";
  static final String DIRECTORY = "dir";
  static final String ENVIRONMENT = "env";

  /**
   * The providers, given to {@link AbstractConfig} as its {@code configProviderProps}. Given so,
   * Kafka instantiates them whatever the {@code org.apache.kafka.automatic.config.providers} system
   * property allows (that property restricts only providers named in the settings themselves), so
   * the three work out of the box; a {@code config.providers} setting is not one of bucketer's.
   */
  private static final Map<String, String> PROVIDERS =
      Map.of(
          AbstractConfig.CONFIG_PROVIDERS_CONFIG,
          String.join(",", FILE, DIRECTORY, ENVIRONMENT),
          classOf(FILE),
          FileConfigProvider.class.getName(),
          classOf(DIRECTORY),
          DirectoryConfigProvider.class.getName(),
          classOf(ENVIRONMENT),
          EnvVarConfigProvider.class.getName(),
          // Every variable, as without a pattern, but said: without one the provider logs at INFO
          // that it uses this default, on every start.
          AbstractConfig.CONFIG_PROVIDERS_CONFIG + "." + ENVIRONMENT + ".param.allowlist.pattern",
          ".*");

  private static final Set<String> NAMES = Set.of(FILE, DIRECTORY, ENVIRONMENT);

  private SecretProviders() {}

  private static String classOf(final String provider) {
    return AbstractConfig.CONFIG_PROVIDERS_CONFIG + "." + provider + ".class";
  }

  /**
   * The settings with each {@code ${provider:[path:]key}} replaced by what it names, resolved by
   * Kafka's {@link AbstractConfig} itself. A reference that finds nothing is left as written: see
   * {@link #unresolved}.
   *
   * @throws org.apache.kafka.common.config.ConfigException when a file cannot be read (naming the
   *     file, never a value)
   */
  static Map<String, Object> resolve(final Map<String, ?> settings) {
    // An empty definition: nothing is parsed or logged here, only the references replaced.
    return new AbstractConfig(new ConfigDef(), settings, PROVIDERS, false).originals();
  }

  /**
   * A reference to one of the providers left in a resolved value: the key, file or variable it
   * names does not exist. The reference is safe to print; what it would have found is not known.
   */
  static Optional<String> unresolved(final Object value) {
    if (!(value instanceof String text)) {
      return Optional.empty();
    }
    final Matcher reference = ConfigTransformer.DEFAULT_PATTERN.matcher(text);
    while (reference.find()) {
      if (NAMES.contains(reference.group(1))) {
        return Optional.of(reference.group());
      }
    }
    return Optional.empty();
  }
}
