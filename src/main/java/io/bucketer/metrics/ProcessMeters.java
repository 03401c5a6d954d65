package io.bucketer.metrics;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;

/** The JVM's and the process's meters: memory, GC, threads, classes, CPU and uptime. */
public final class ProcessMeters {

  private ProcessMeters() {}

  /**
   * Binds them to {@code registry}.
   *
   * @return the GC meters' listener, to close when the registry is no longer scraped
   */
  public static AutoCloseable bindTo(final MeterRegistry registry) {
    new JvmMemoryMetrics().bindTo(registry);
    new JvmThreadMetrics().bindTo(registry);
    new ClassLoaderMetrics().bindTo(registry);
    new ProcessorMetrics().bindTo(registry);
    new UptimeMetrics().bindTo(registry);
    final JvmGcMetrics gc = new JvmGcMetrics();
    gc.bindTo(registry);
    return gc;
  }
}
