package io.bucketer.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.bucketer.testing.Meters;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class ReadinessGaugeTest {

  private static final Duration PERIOD = Duration.ofMillis(20);
  private static final Duration DEADLINE = Duration.ofSeconds(10);

  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

  @Test
  void shouldFollowTheReadinessCheck() {
    final AtomicBoolean ready = new AtomicBoolean(true);
    try (ReadinessGauge gauge = ReadinessGauge.start(registry, ready::get, PERIOD)) {
      await().atMost(DEADLINE).until(() -> Meters.gauge(registry, ReadinessGauge.READY) == 1);

      ready.set(false);

      await().atMost(DEADLINE).until(() -> Meters.gauge(registry, ReadinessGauge.READY) == 0);
    }
  }

  /** A scrape reads the last result at once, however long the check takes (a MongoDB ping). */
  @Test
  void shouldAnswerAScrapeWhileTheCheckIsStillWaiting() throws Exception {
    final CountDownLatch checkStarted = new CountDownLatch(1);
    final CountDownLatch release = new CountDownLatch(1);
    try (ReadinessGauge gauge =
        ReadinessGauge.start(
            registry,
            () -> {
              checkStarted.countDown();
              try {
                return release.await(DEADLINE.toMillis(), TimeUnit.MILLISECONDS);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
              }
            },
            PERIOD)) {
      assertThat(checkStarted.await(DEADLINE.toMillis(), TimeUnit.MILLISECONDS)).isTrue();

      final long startedNanos = System.nanoTime();
      assertThat(Meters.gauge(registry, ReadinessGauge.READY)).isZero();
      // The check holds for up to DEADLINE: a read that waited for it would take that long.
      assertThat(Duration.ofNanos(System.nanoTime() - startedNanos))
          .isLessThan(Duration.ofSeconds(1));

      release.countDown();
      await().atMost(DEADLINE).until(() -> Meters.gauge(registry, ReadinessGauge.READY) == 1);
    }
  }

  @Test
  void shouldReadAFailingCheckAsNotReadyAndAskAgain() {
    final AtomicInteger calls = new AtomicInteger();
    try (ReadinessGauge gauge =
        ReadinessGauge.start(
            registry,
            () -> {
              if (calls.incrementAndGet() == 1) {
                throw new IllegalStateException("the client is closed");
              }
              return true;
            },
            PERIOD)) {
      await().atMost(DEADLINE).until(() -> Meters.gauge(registry, ReadinessGauge.READY) == 1);
      assertThat(calls.get()).isGreaterThan(1);
    }
  }

  @Test
  void shouldStopCheckingOnceClosed() {
    final AtomicInteger calls = new AtomicInteger();
    final ReadinessGauge gauge =
        ReadinessGauge.start(
            registry,
            () -> {
              calls.incrementAndGet();
              return true;
            },
            PERIOD);
    await().atMost(DEADLINE).until(() -> calls.get() > 0);

    gauge.close();
    final int afterClose = calls.get();

    // Several periods later, at most the check that was running when it closed has counted.
    await()
        .pollDelay(PERIOD.multipliedBy(10))
        .atMost(DEADLINE)
        .until(() -> calls.get() <= afterClose + 1);
  }
}
