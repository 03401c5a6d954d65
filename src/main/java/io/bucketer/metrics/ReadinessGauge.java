package io.bucketer.metrics;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@value #READY}: 1 while the processor is ready, 0 while it is not, from the same check that
 * {@code /ready} answers with, so that an alert sees what the orchestrator sees.
 *
 * <p>The check runs on a thread of its own every {@code period}, and a scrape only reads its last
 * result: the check may wait for a MongoDB ping (up to its timeout when MongoDB does not answer),
 * and a scrape must not. Nobody needs to call {@code /ready} for the gauge to follow.
 */
public final class ReadinessGauge implements AutoCloseable {

  public static final String READY = "bucketer.ready";

  private static final Logger LOG = LoggerFactory.getLogger(ReadinessGauge.class);

  // The registry holds its gauges weakly: this reference keeps the value alive.
  private final AtomicInteger ready = new AtomicInteger();
  private final BooleanSupplier isReady;
  private final ScheduledExecutorService checks =
      Executors.newSingleThreadScheduledExecutor(
          runnable -> {
            final Thread thread = new Thread(runnable, "bucketer-readiness-gauge");
            thread.setDaemon(true);
            return thread;
          });

  private ReadinessGauge(final BooleanSupplier isReady) {
    this.isReady = isReady;
  }

  /**
   * Registers the gauge at 0 (not ready) and checks {@code isReady} now and then every {@code
   * period}.
   */
  public static ReadinessGauge start(
      final MeterRegistry registry, final BooleanSupplier isReady, final Duration period) {
    final ReadinessGauge gauge = new ReadinessGauge(isReady);
    Gauge.builder(READY, gauge.ready, AtomicInteger::get).register(registry);
    gauge.checks.scheduleWithFixedDelay(gauge::check, 0, period.toMillis(), TimeUnit.MILLISECONDS);
    return gauge;
  }

  private void check() {
    try {
      ready.set(isReady.getAsBoolean() ? 1 : 0);
    } catch (RuntimeException e) {
      // A check that cannot say "ready" is a no; the next period asks again.
      ready.set(0);
      LOG.debug("the readiness check failed", e);
    }
  }

  @Override
  public void close() {
    checks.shutdownNow();
  }
}
