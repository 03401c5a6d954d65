package io.bucketer.embedded;

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
