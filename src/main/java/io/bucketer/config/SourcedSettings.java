package io.bucketer.config;

import java.util.Map;

/**
 * Settings as gathered, with where each one came from: "file /etc/bucketer.properties",
 * "environment variable BUCKETER_GRACE", "-s". An error names the origin, never the value.
 */
public record SourcedSettings(Map<String, String> values, Map<String, String> origins) {

  public SourcedSettings {
    values = Map.copyOf(values);
    origins = Map.copyOf(origins);
  }
}
