package io.bucketer.bench;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * Wall-clock and CPU time of one phase of the benchmark. CPU time counts this JVM (broker, producer
 * and, for bucketer, the processor) plus the child processes given (the MongoDB stand-in, the
 * connector): less sensitive than the wall clock to whatever else the machine runs at the time. It
 * also reads the CPU time this JVM's JIT compilers used during the phase: that work is part of the
 * CPU time, and a phase in which it is large measures code still being compiled, not the steady
 * state a running processor is in.
 */
final class PhaseClock {

  /**
   * What a phase took; {@code jit} is the CPU time this JVM's JIT compilers used meanwhile (a child
   * process's is not known), included in {@code cpu}.
   */
  record Measured(Duration elapsed, Duration cpu, Duration jit) {

    /** The share of the CPU time that went to compiling code. */
    double jitShare() {
      return cpu.isZero() ? 0 : jit.toNanos() / (double) cpu.toNanos();
    }
  }

  private final LongSupplier cpuNanos;
  private long startedNanos;
  private long startedCpuNanos;
  private long startedJitNanos;

  private PhaseClock(final LongSupplier cpuNanos) {
    this.cpuNanos = cpuNanos;
  }

  /**
   * A clock of this JVM's CPU time plus that of {@code others} (the MongoDB stand-in's JVM, the
   * connector's), while they live.
   */
  static PhaseClock counting(final List<ProcessHandle> others) {
    return new PhaseClock(
        () ->
            thisProcessCpuNanos()
                + others.stream()
                    .mapToLong(
                        process ->
                            process.info().totalCpuDuration().map(Duration::toNanos).orElse(0L))
                    .sum());
  }

  PhaseClock start() {
    startedNanos = System.nanoTime();
    startedCpuNanos = cpuNanos.getAsLong();
    startedJitNanos = JitCpuTime.nanos();
    return this;
  }

  Measured stop() {
    return new Measured(
        Duration.ofNanos(System.nanoTime() - startedNanos),
        Duration.ofNanos(cpuNanos.getAsLong() - startedCpuNanos),
        Duration.ofNanos(JitCpuTime.nanos() - startedJitNanos));
  }

  private static long thisProcessCpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime();
  }
}
