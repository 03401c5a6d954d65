package io.bucketer.config;

import java.util.stream.Collectors;
import org.apache.kafka.common.config.ConfigDef;

/**
 * The configuration reference of docs/configuration.md, generated from {@link
 * BucketerConfig#DEFINITION} so the two cannot drift: a test checks that the README contains
 * exactly this table body.
 */
public final class ConfigReference {

  private ConfigReference() {}

  /** One Markdown table row per setting: name, default, meaning (with its accepted values). */
  public static String markdownRows() {
    return BucketerConfig.DEFINITION.configKeys().values().stream()
        .map(ConfigReference::row)
        .collect(Collectors.joining("\n"));
  }

  private static String row(final ConfigDef.ConfigKey key) {
    final String defaultValue;
    if (!key.hasDefault()) {
      defaultValue = "(required)";
    } else if (key.defaultValue == null) {
      defaultValue = "(none)";
    } else if (ConfigDef.convertToString(key.defaultValue, key.type).isEmpty()) {
      // An empty string, or an empty list.
      defaultValue = "(empty)";
    } else {
      defaultValue = "`" + ConfigDef.convertToString(key.defaultValue, key.type) + "`";
    }
    final String accepted = key.validator == null ? "" : " Accepts " + key.validator + ".";
    return "| `" + key.name + "` | " + defaultValue + " | " + key.documentation + accepted + " |";
  }
}
