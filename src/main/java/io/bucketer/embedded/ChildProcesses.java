package io.bucketer.embedded;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

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

  /** {@code process} has exited: nothing to kill any more. */
  public static void ended(final Process process) {
    RUNNING.remove(process);
  }
}
