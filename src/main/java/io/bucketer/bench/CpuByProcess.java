package io.bucketer.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * Where the machine's CPU had gone at one moment, cumulative: the processor's JVM, the MongoDB
 * stand-in's, this benchmark's own JVM (the broker runs in it, and the fleet's generator), the
 * fleet's threads in it apart, and the whole machine's busy and total time from {@code /proc/stat}.
 * Two of them give the cores each took in between ({@link #since}): a processor that falls behind
 * while its cost per reading holds was given fewer cores, and this says who took them.
 *
 * <p>The fleet is the generator's thread ({@link LiveFleet#THREAD}) and its producer's I/O thread;
 * the broker is the rest of this JVM, its collector and JIT included, which the fleet shares.
 * {@code /proc/stat} counts in the kernel's {@code USER_HZ}, 1/100 s; the processes' figures are
 * the operating system's too, through {@link ProcessHandle}. Linux only, as the benchmarks are:
 * elsewhere the machine's figures read zero.
 */
record CpuByProcess(
    long processorNanos,
    long standInNanos,
    long benchNanos,
    long fleetNanos,
    long machineBusyNanos,
    long machineNanos) {

  /** The fleet's threads in this JVM, as {@code /proc} names them (cut to 15 characters). */
  static final Predicate<String> FLEET_THREADS =
      name -> name.equals(LiveFleet.THREAD) || name.startsWith("kafka-producer-");

  private static final long NANOS_PER_TICK = TimeUnit.SECONDS.toNanos(1) / 100;

  /** Reads every figure now. */
  static CpuByProcess read(final long processorPid, final ProcessHandle standIn) {
    final long[] machine = machineTicks(readProcStat());
    return new CpuByProcess(
        cpuNanos(ProcessHandle.of(processorPid).orElse(null)),
        cpuNanos(standIn),
        cpuNanos(ProcessHandle.current()),
        NamedThreadsCpu.nanos(FLEET_THREADS).orElse(0),
        machine[0] * NANOS_PER_TICK,
        machine[1] * NANOS_PER_TICK);
  }

  /**
   * The machine's busy and total ticks, all cores together, from {@code /proc/stat}'s first line
   * ({@code cpu user nice system idle iowait irq softirq steal ...}): idle and iowait are the time
   * no process wanted a core, the rest is busy. The guest columns are already in user and nice.
   */
  static long[] machineTicks(final String procStat) {
    final int end = procStat.indexOf('\n');
    final String line = end < 0 ? procStat : procStat.substring(0, end);
    if (!line.startsWith("cpu ")) {
      return new long[] {0, 0};
    }
    final String[] fields = line.substring(4).trim().split("\\s+");
    long total = 0;
    for (int column = 0; column < Math.min(fields.length, 8); column++) {
      total += Long.parseLong(fields[column]);
    }
    final long idle = Long.parseLong(fields[3]) + Long.parseLong(fields[4]);
    return new long[] {total - idle, total};
  }

  /**
   * The cores each took between {@code earlier} and this reading, {@code wall} apart: CPU time over
   * wall time. {@code idle} is the machine's cores no process wanted; {@code other} what the
   * machine's busy time holds beyond these processes (the kernel's own work, other processes).
   */
  Cores since(final CpuByProcess earlier, final Duration wall) {
    final double nanos = Math.max(1, wall.toNanos());
    final double processor = (processorNanos - earlier.processorNanos) / nanos;
    final double standIn = (standInNanos - earlier.standInNanos) / nanos;
    final double bench = (benchNanos - earlier.benchNanos) / nanos;
    final double fleet = (fleetNanos - earlier.fleetNanos) / nanos;
    final double busy = (machineBusyNanos - earlier.machineBusyNanos) / nanos;
    final double machine = (machineNanos - earlier.machineNanos) / nanos;
    return new Cores(
        processor,
        standIn,
        bench - fleet,
        fleet,
        Math.max(0, busy - processor - standIn - bench),
        Math.max(0, machine - busy));
  }

  /** Cores taken over a stretch, each a share of one core's time: 2.0 is both of two. */
  record Cores(
      double processor, double standIn, double broker, double fleet, double other, double idle) {

    static String header() {
      return String.format(
          Locale.ROOT,
          "%9s %9s %9s %9s %9s %9s",
          "processor",
          "stand-in",
          "broker",
          "fleet",
          "other",
          "idle");
    }

    String row() {
      return String.format(
          Locale.ROOT,
          "%9.2f %9.2f %9.2f %9.2f %9.2f %9.2f",
          processor,
          standIn,
          broker,
          fleet,
          other,
          idle);
    }
  }

  private static long cpuNanos(final ProcessHandle process) {
    if (process == null) {
      return 0;
    }
    return process.info().totalCpuDuration().map(Duration::toNanos).orElse(0L);
  }

  private static String readProcStat() {
    try {
      return Files.readString(Path.of("/proc/stat"), StandardCharsets.US_ASCII);
    } catch (IOException e) {
      return ""; // not Linux: the machine's figures read zero
    }
  }
}
