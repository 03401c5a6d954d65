package io.bucketer.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.Stream;

/**
 * CPU time of a JVM's threads whose names match (this one's, or another process's), including
 * threads the JVM hides from {@code ThreadMXBean} (JIT compilers, GC workers, JFR's sampler). Read
 * on Linux from {@code /proc/<pid>/task/<tid>/stat}, in clock ticks of 1/100 s (the kernel's {@code
 * USER_HZ}, fixed at 100 for what it reports to user space); a thread's name there is cut to 15
 * characters. No library reads per-thread CPU of threads the JVM hides, so this is our own. A
 * thread that has ended no longer counts.
 */
final class NamedThreadsCpu {

  private static final long NANOS_PER_TICK = TimeUnit.SECONDS.toNanos(1) / 100;

  private NamedThreadsCpu() {}

  /** utime + stime of this JVM's matching threads; empty where {@code /proc} cannot tell. */
  static OptionalLong nanos(final Predicate<String> name) {
    return nanos(Path.of("/proc/self/task"), name);
  }

  /**
   * utime + stime of process {@code pid}'s matching threads; empty where {@code /proc} cannot tell.
   */
  static OptionalLong nanos(final long pid, final Predicate<String> name) {
    return nanos(Path.of("/proc", Long.toString(pid), "task"), name);
  }

  private static OptionalLong nanos(final Path threads, final Predicate<String> name) {
    if (!Files.isDirectory(threads)) {
      return OptionalLong.empty();
    }
    try (Stream<Path> tasks = Files.list(threads)) {
      return OptionalLong.of(tasks.mapToLong(task -> ticks(task, name)).sum() * NANOS_PER_TICK);
    } catch (IOException | RuntimeException e) {
      return OptionalLong.empty();
    }
  }

  /** utime + stime of one thread when its name matches; 0 otherwise, or once it is gone. */
  private static long ticks(final Path task, final Predicate<String> name) {
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
        || !name.test(stat.substring(nameStart + 1, nameEnd))) {
      return 0;
    }
    // After the name: state, ppid, pgrp, session, tty_nr, tpgid, flags, minflt, cminflt, majflt,
    // cmajflt, utime, stime (fields 3 to 15 of proc(5)).
    final String[] fields = stat.substring(nameEnd + 2).split(" ");
    return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
  }
}
