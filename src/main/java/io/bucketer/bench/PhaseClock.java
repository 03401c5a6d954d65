package io.bucketer.bench;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.function.LongSupplier;

/**
 * Wall-clock and CPU time of one phase of the benchmark. CPU time counts this JVM (broker, MongoDB
 * stand-in and, for bucketer, the processor) plus any child process given: less sensitive than the
 * wall clock to whatever else the machine runs at the time.
 */
final class PhaseClock {

  /** What a phase took. */
  record Measured(Duration elapsed, Duration cpu) {}

  private final LongSupplier cpuNanos;
  private long startedNanos;
  private long startedCpuNanos;

  private PhaseClock(final LongSupplier cpuNanos) {
    this.cpuNanos = cpuNanos;
  }

  /** A clock of this JVM's CPU time. */
  static PhaseClock thisProcess() {
    return new PhaseClock(PhaseClock::thisProcessCpuNanos);
  }

  /** A clock of this JVM's CPU time plus that of {@code child}, while it lives. */
  static PhaseClock withChild(final ProcessHandle child) {
    return new PhaseClock(
        () ->
            thisProcessCpuNanos()
                + child.info().totalCpuDuration().map(Duration::toNanos).orElse(0L));
  }

  PhaseClock start() {
    startedNanos = System.nanoTime();
    startedCpuNanos = cpuNanos.getAsLong();
    return this;
  }

  Measured stop() {
    return new Measured(
        Duration.ofNanos(System.nanoTime() - startedNanos),
        Duration.ofNanos(cpuNanos.getAsLong() - startedCpuNanos));
  }

  private static long thisProcessCpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime();
  }
}
