package io.bucketer.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The machine a benchmark ran on, as its output states it: figures mean little without the CPU, its
 * cores, the memory, the JVM, and how busy the machine was. The load average is printed at a run's
 * start and end: a run that began or ended on a busy machine says so itself.
 */
final class Machine {

  private Machine() {}

  /** One line: CPU model, cores, memory, JVM, operating system. */
  static String describe() {
    final com.sun.management.OperatingSystemMXBean os = os();
    return String.format(
        Locale.ROOT,
        "machine: %s, %d cores, %.1f GiB; %s %s (%s); %s %s",
        cpuModel().orElse("CPU model unknown"),
        Runtime.getRuntime().availableProcessors(),
        os.getTotalMemorySize() / (double) (1L << 30),
        System.getProperty("java.vm.name"),
        System.getProperty("java.runtime.version"),
        System.getProperty("java.vm.vendor"),
        System.getProperty("os.name"),
        System.getProperty("os.version"));
  }

  /** The operating system's load average over the last minute, for a run's first and last line. */
  static String load(final String when) {
    final double load = os().getSystemLoadAverage();
    return load < 0
        ? "load average " + when + ": not known on this system"
        : String.format(
            Locale.ROOT,
            "load average %s: %.2f over the last minute, on %d cores",
            when,
            load,
            Runtime.getRuntime().availableProcessors());
  }

  /** The CPU's model name from {@code /proc/cpuinfo}: Linux only, which is what these run on. */
  private static Optional<String> cpuModel() {
    try (Stream<String> lines = Files.lines(Path.of("/proc/cpuinfo"))) {
      return lines
          .filter(line -> line.startsWith("model name"))
          .map(line -> line.substring(line.indexOf(':') + 1).trim())
          .findFirst();
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
  }

  private static com.sun.management.OperatingSystemMXBean os() {
    return (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
  }
}
