package io.bucketer.bench;

import java.io.IOException;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * CPU time this JVM's JIT compiler threads have used. The JDK's {@link CompilationMXBean} counts
 * the wall time compilations took, which on a loaded machine includes the time a compiler thread
 * waited for a core: it overstates their share. On Linux the compiler threads' own CPU time is read
 * from {@code /proc/self/task/<tid>/stat}, in clock ticks of 1/100 s (the kernel's {@code USER_HZ},
 * fixed at 100 for what it reports to user space); elsewhere the bean's figure stands in. No
 * library reads per-thread CPU of threads the JVM hides from {@code ThreadMXBean}, so this is our
 * own.
 */
final class JitCpuTime {

  private static final Path TASKS = Path.of("/proc/self/task");
  private static final long NANOS_PER_TICK = TimeUnit.SECONDS.toNanos(1) / 100;
  // A thread's name in stat is cut to 15 characters: "C2 CompilerThread0" reads "C2 CompilerThre".
  private static final String COMPILER_THREAD = "CompilerThre";

  private JitCpuTime() {}

  static long nanos() {
    if (Files.isDirectory(TASKS)) {
      try (Stream<Path> tasks = Files.list(TASKS)) {
        return tasks.mapToLong(JitCpuTime::compilerTicks).sum() * NANOS_PER_TICK;
      } catch (IOException | RuntimeException e) {
        // fall through to the bean
      }
    }
    final CompilationMXBean compilation = ManagementFactory.getCompilationMXBean();
    return compilation != null && compilation.isCompilationTimeMonitoringSupported()
        ? TimeUnit.MILLISECONDS.toNanos(compilation.getTotalCompilationTime())
        : 0;
  }

  /** utime + stime of one thread when it is a compiler thread; 0 otherwise, or once it is gone. */
  private static long compilerTicks(final Path task) {
    final String stat;
    try {
      stat = Files.readString(task.resolve("stat"), StandardCharsets.US_ASCII);
    } catch (IOException e) {
      return 0;
    }
    final int nameStart = stat.indexOf('(');
    final int nameEnd = stat.lastIndexOf(')');
    if (nameStart < 0
        || nameEnd < nameStart
        || !stat.substring(nameStart, nameEnd).contains(COMPILER_THREAD)) {
      return 0;
    }
    // After the name: state, ppid, pgrp, session, tty_nr, tpgid, flags, minflt, cminflt, majflt,
    // cmajflt, utime, stime (fields 3 to 15 of proc(5)).
    final String[] fields = stat.substring(nameEnd + 2).split(" ");
    return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
  }
}
