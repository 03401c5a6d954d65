package io.bucketer.config;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.ConfigValue;

/**
 * Every setting checked before anything is built from them: unknown names, {@code kafka.*} names no
 * Kafka client takes, and values their definitions refuse, all listed in one error, each with where
 * it came from. A misspelt setting must never be ignored: a typo in an {@code http.auth.*} setting
 * would leave the data API open without a word.
 */
final class SettingsCheck {

  private SettingsCheck() {}

  /**
   * @param origins where each setting came from ("file /etc/bucketer.properties"), named in the
   *     error; settings without one are named alone
   * @throws ConfigException listing every problem, one per line
   */
  static void requireValid(
      final ConfigDef definition,
      final Map<String, ?> settings,
      final Map<String, String> origins) {
    final List<String> problems = new ArrayList<>();
    final List<String> unchecked = KafkaSettings.uncheckedPrefixes(settings);
    for (final String name : new TreeSet<>(settings.keySet())) {
      if (!definition.names().contains(name) && !passesToKafka(name, unchecked)) {
        problems.add(unknown(definition.names(), name, from(origins, name)));
      }
    }
    for (final Map.Entry<String, ?> setting : new TreeMap<>(settings).entrySet()) {
      SecretProviders.unresolved(setting.getValue())
          .ifPresent(
              reference ->
                  problems.add(
                      setting.getKey()
                          + ": "
                          + reference
                          + " found nothing: no such key, file or environment variable"
                          + from(origins, setting.getKey())));
    }
    for (final ConfigValue value :
        definition.validateAll(asStrings(definition, settings)).values()) {
      for (final String message : value.errorMessages()) {
        problems.add(message + from(origins, value.name()));
      }
    }
    if (problems.size() == 1) {
      throw new ConfigException(problems.get(0));
    }
    if (!problems.isEmpty()) {
      throw new ConfigException(
          problems.size() + " problems with the settings:\n  " + String.join("\n  ", problems));
    }
  }

  /** True for a kafka.* setting a Kafka client takes, or one left unchecked. */
  private static boolean passesToKafka(final String name, final List<String> unchecked) {
    if (!name.startsWith(KafkaSettings.CLIENT_PREFIX)) {
      return false;
    }
    final String client = name.substring(KafkaSettings.CLIENT_PREFIX.length());
    return KafkaClientNames.isKnown(client) || unchecked.stream().anyMatch(client::startsWith);
  }

  private static String unknown(final Set<String> defined, final String name, final String from) {
    final Set<String> kafkaNames = withClientPrefix(KafkaClientNames.all());
    if (name.startsWith(KafkaSettings.CLIENT_PREFIX)) {
      return "unknown Kafka client setting "
          + name
          + from
          + suggestion(name, kafkaNames)
          + " (a plugin's own settings pass when "
          + KafkaSettings.UNCHECKED_PREFIXES
          + " names their prefix)";
    }
    if (KafkaClientNames.isKnown(name)) {
      // A Kafka client's setting without the prefix that passes it on: state.dir
      return "unknown setting "
          + name
          + from
          + ": did you mean "
          + KafkaSettings.CLIENT_PREFIX
          + name
          + "?";
    }
    final Set<String> candidates = new TreeSet<>(defined);
    candidates.addAll(kafkaNames);
    return "unknown setting " + name + from + suggestion(name, candidates);
  }

  private static Set<String> withClientPrefix(final Set<String> names) {
    final Set<String> prefixed = new TreeSet<>();
    names.forEach(name -> prefixed.add(KafkaSettings.CLIENT_PREFIX + name));
    return prefixed;
  }

  private static String suggestion(final String name, final Set<String> candidates) {
    final List<String> nearest = NearestNames.to(name, candidates);
    return nearest.isEmpty() ? "" : ": did you mean " + String.join(" or ", nearest) + "?";
  }

  private static String from(final Map<String, String> origins, final String name) {
    final String origin = origins.get(name);
    return origin == null ? "" : " (from " + origin + ")";
  }

  /**
   * The defined settings as the text ConfigDef validates; a value given as an object is printed.
   */
  private static Map<String, String> asStrings(
      final ConfigDef definition, final Map<String, ?> settings) {
    final Map<String, String> strings = new HashMap<>();
    settings.forEach(
        (name, value) -> {
          final ConfigDef.ConfigKey key = definition.configKeys().get(name);
          if (key != null && value != null) {
            strings.put(
                name,
                value instanceof String text ? text : ConfigDef.convertToString(value, key.type));
          }
        });
    return strings;
  }
}
