package io.bucketer.embedded;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The JVMs this one started (processors, connectors) that still run: killed when this JVM exits, so
 * that none outlives a test run or a benchmark, however it ends.
 */
public final class ChildProcesses {

  private static final Set<Process> RUNNING = ConcurrentHashMap.newKeySet();

  static {
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(() -> RUNNING.forEach(Process::destroyForcibly), "kill-child-processes"));
  }

  private ChildProcesses() {}

  /**
   * The command that runs {@code mainClass} in a new JVM of this JVM's Java, on this JVM's class
   * path (no packaged jar needed), with {@code jvmOptions}; its arguments are to be appended.
   */
  public static List<String> javaCommand(final List<String> jvmOptions, final Class<?> mainClass) {
    final List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(jvmOptions);
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(mainClass.getName());
    return command;
  }

  /** Kills {@code process} when this JVM exits, unless it has been {@link #ended} by then. */
  public static Process killAtExit(final Process process) {
    RUNNING.add(process);
    return process;
  }

  /**
   * Sends {@code signal} ({@code STOP}, {@code CONT}) to {@code process}. Java has no API that
   * sends a signal other than SIGTERM and SIGKILL, so the system's {@code kill} command sends it.
   */
  public static void signal(final Process process, final String signal) {
    try {
      final Process kill =
          new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid()))
              .redirectErrorStream(true)
              .start();
      final String output =
          new String(kill.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
        throw new IllegalStateException(
            "kill -" + signal + " " + process.pid() + " failed: " + output);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot send SIG" + signal + " to " + process.pid(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(
          "interrupted while sending SIG" + signal + " to " + process.pid(), e);
    }
  }

  /** {@code process} has exited: nothing to kill any more. */
  public static void ended(final Process process) {
    RUNNING.remove(process);
  }
}
