package io.bucketer.testing;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

/** Reads meters back from a registry, as a scrape would: tests ask the registry, not the code. */
public final class Meters {

  private Meters() {}

  /** The count of the counter {@code name} tagged {@code tag=value}; 0 when none was counted. */
  public static double count(
      final MeterRegistry registry, final String name, final String tag, final String value) {
    final Counter counter = registry.find(name).tag(tag, value).counter();
    return counter == null ? 0 : counter.count();
  }

  /** The value of the gauge {@code name}. */
  public static double gauge(final MeterRegistry registry, final String name) {
    final Gauge gauge = registry.find(name).gauge();
    if (gauge == null) {
      throw new AssertionError("no gauge " + name);
    }
    return gauge.value();
  }
}
