package io.bucketer.security;

import java.util.ArrayList;
import java.util.List;

/**
 * Who asks, and which series it may see: those whose sensor id starts with one of its prefixes (one
 * tenant's sensors), or every series when it has none.
 *
 * @param name the user's or token's name, for logs; never a secret
 * @param prefixes the sensor id prefixes it may see; empty: all of them
 */
public record Caller(String name, List<String> prefixes) {

  public Caller {
    prefixes = List.copyOf(prefixes);
  }

  /** A caller that may see every series. */
  public static Caller unrestricted(final String name) {
    return new Caller(name, List.of());
  }

  public boolean isRestricted() {
    return !prefixes.isEmpty();
  }

  /** True when the series of this sensor is one this caller may see. */
  public boolean maySee(final String sensorId) {
    return !isRestricted() || prefixes.stream().anyMatch(sensorId::startsWith);
  }

  /**
   * The prefixes to list when this caller asks for series starting with {@code requested}: the
   * request itself when it is inside one of the caller's prefixes, the caller's prefixes that are
   * inside the request, nothing when they do not meet.
   */
  public List<String> narrow(final String requested) {
    if (!isRestricted()) {
      return List.of(requested);
    }
    final List<String> narrowed = new ArrayList<>();
    for (final String allowed : prefixes) {
      if (requested.startsWith(allowed)) {
        return List.of(requested);
      }
      if (allowed.startsWith(requested)) {
        narrowed.add(allowed);
      }
    }
    return List.copyOf(narrowed);
  }
}
