package io.bucketer.bench;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;

/**
 * Wall-clock and CPU time of one phase of the benchmark. CPU time counts this JVM (broker, producer
 * and, for bucketer, the processor) plus the child processes given (the MongoDB stand-in, the
 * connector): less sensitive than the wall clock to whatever else the machine runs at the time.
 *
 * <p>Two parts of that CPU time are also kept apart, because they are not the processor's cost per
 * reading in production. The MongoDB server's: in production it is another machine, and here it is
 * a stand-in whose costs are not MongoDB's (it decodes every document into Java maps and collects
 * them on its heap). And this JVM's JIT compilers': a phase in which they work hard measures code
 * still being compiled, not the steady state a running processor is in.
 */
final class PhaseClock {

  /**
   * What a phase took. {@code cpu} counts every process; {@code jit}, the CPU time this JVM's JIT
   * compilers used meanwhile (a child process's is not known), and {@code mongo}, the MongoDB
   * server's, are both parts of it.
   */
  record Measured(Duration elapsed, Duration cpu, Duration jit, Duration mongo) {

    /** The share of the CPU time that went to compiling code. */
    double jitShare() {
      return cpu.isZero() ? 0 : jit.toNanos() / (double) cpu.toNanos();
    }

    /** The CPU time of every process but the MongoDB server. */
    Duration cpuWithoutMongo() {
      return cpu.minus(mongo);
    }

    /** ... and without this JVM's JIT compilers: the steady state's cost. */
    Duration cpuWithoutMongoOrJit() {
      return cpu.minus(mongo).minus(jit);
    }
  }

  private final ProcessHandle mongoServer;
  private final List<ProcessHandle> others;
  private long startedNanos;
  private long startedCpuNanos;
  private long startedJitNanos;
  private long startedMongoNanos;

  private PhaseClock(final ProcessHandle mongoServer, final List<ProcessHandle> others) {
    this.mongoServer = mongoServer;
    this.others = others;
  }

  /**
   * A clock of this JVM's CPU time plus that of the MongoDB server's process (the stand-in's JVM),
   * while it lives.
   */
  static PhaseClock counting(final ProcessHandle mongoServer) {
    return new PhaseClock(mongoServer, List.of());
  }

  /** The same clock, counting another process's CPU time too (the connector's JVM). */
  PhaseClock alsoCounting(final ProcessHandle other) {
    return new PhaseClock(mongoServer, Stream.concat(others.stream(), Stream.of(other)).toList());
  }

  PhaseClock start() {
    startedNanos = System.nanoTime();
    startedMongoNanos = cpuNanos(mongoServer);
    startedCpuNanos = allCpuNanos(startedMongoNanos);
    startedJitNanos = JitCpuTime.nanos();
    return this;
  }

  Measured stop() {
    final long mongoNanos = cpuNanos(mongoServer);
    return new Measured(
        Duration.ofNanos(System.nanoTime() - startedNanos),
        Duration.ofNanos(allCpuNanos(mongoNanos) - startedCpuNanos),
        Duration.ofNanos(JitCpuTime.nanos() - startedJitNanos),
        Duration.ofNanos(mongoNanos - startedMongoNanos));
  }

  private long allCpuNanos(final long mongoNanos) {
    return thisProcessCpuNanos()
        + mongoNanos
        + others.stream().mapToLong(PhaseClock::cpuNanos).sum();
  }

  /** A process's CPU time; once it has ended, 0, as the JDK cannot read it any more. */
  private static long cpuNanos(final ProcessHandle process) {
    return process.info().totalCpuDuration().map(Duration::toNanos).orElse(0L);
  }

  private static long thisProcessCpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime();
  }
}
