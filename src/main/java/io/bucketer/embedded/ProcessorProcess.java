package io.bucketer.embedded;

import io.bucketer.config.HttpSettings;
import io.bucketer.config.KafkaSettings;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.ProcessBuilder.Redirect;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The processor ({@code bucketer run}) in a JVM of its own, started from this JVM's class path so
 * that no packaged jar is needed, with its output appended to a log file. It can be killed for real
 * (SIGKILL: no shutdown hook, no clean close, like a power cut or the OOM killer), stopped as an
 * orchestrator stops a pod (SIGTERM: the shutdown hook closes the app), or frozen and thawed
 * (SIGSTOP, SIGCONT: a stall).
 */
public final class ProcessorProcess implements AutoCloseable {

  /** Exit status of a process ended by a signal: 128 + the signal's number. */
  public static final int KILLED_BY_SIGKILL = 128 + 9;

  public static final int ENDED_BY_SIGTERM = 128 + 15;

  private static final String CLIENT_ID = KafkaSettings.CLIENT_PREFIX + "client.id";
  private static final Duration EXIT_TIMEOUT = Duration.ofSeconds(60);

  private final String name;
  private final String clientId;
  private final Process process;
  private final Path log;
  private volatile boolean endedByItsOwner;

  private ProcessorProcess(
      final String name, final String clientId, final Process process, final Path log) {
    this.name = name;
    this.clientId = clientId;
    this.process = process;
    this.log = log;
  }

  /**
   * The JVM options that the deploy files start the processor with, besides the heap's size: {@code
   * JDK_JAVA_OPTIONS} in {@code deploy/docker/Dockerfile} and {@code
   * deploy/kubernetes/statefulset.yaml} carry the same (a test keeps them so), and {@code bench
   * memory} measures the processor with them. The parallel collector, not G1 (the JVM's choice on
   * two or more cores): a stream processor's garbage is almost all young, and G1's concurrent
   * refinement and write barriers cost it about a sixth of its CPU per reading in real time, for
   * pauses that a processor with a one-second latency target does not need to avoid.
   *
   * <p>The two recompilation cutoffs raised from 400 and 200 to 10,000, as Trino's default JVM
   * options do: a minute's close flips branches that the JIT compiled as never taken (the closed
   * flag of a window read back, a window's statistics unchanged by its close), each flip costs a
   * recompilation, and past about 200 of them HotSpot stops recompiling and leaves a trap that
   * sends the frame back to the interpreter every time the branch is taken (JDK-8374307). At
   * 100,000 live sensors that was some 210,000 deoptimizations at every minute's close, the rest of
   * each of those windows' close work interpreted (docs/benchmarks.md, "The JIT's deoptimization
   * storm").
   */
  public static final List<String> PRODUCTION_JVM =
      List.of(
          "-XX:+UseParallelGC",
          "-XX:+ExitOnOutOfMemoryError",
          "-XX:PerMethodRecompilationCutoff=10000",
          "-XX:PerBytecodeRecompilationCutoff=10000");

  /**
   * {@link #PRODUCTION_JVM} with a fixed heap of {@code heap} ({@code -Xmx} and {@code -Xms}), as
   * the benchmarks start processors and their peers, so that the heap's growth is not measured.
   */
  public static List<String> productionJvm(final String heap) {
    final List<String> options = new ArrayList<>(List.of("-Xmx" + heap, "-Xms" + heap));
    options.addAll(PRODUCTION_JVM);
    return List.copyOf(options);
  }

  /**
   * JVM options for processors that share two cores with a broker and each other: a small heap, a
   * single-threaded collector, and only the quick JIT compiler, whose code is good enough for a run
   * of seconds and which leaves the cores to the work instead of to compiling.
   */
  public static final List<String> SMALL_JVM =
      List.of("-Xmx384m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1");

  /** {@link #start(Class, String, Map, Path, List)} with {@link #SMALL_JVM}. */
  public static ProcessorProcess start(
      final Class<?> cli, final String name, final Map<String, String> settings, final Path log) {
    return start(cli, name, settings, log, SMALL_JVM);
  }

  /**
   * Starts {@code <cli> run -s key=value ...} with {@code settings} in a JVM started with {@code
   * jvmOptions}, appending stdout and stderr to {@code log}. {@code cli} is bucketer's command line
   * ({@code BucketerCli}), named by the caller: the command line is what starts the tools of this
   * package, so they may not name it themselves. It logs as the packaged product does (its own
   * logback.xml, not the tests'), and serves its endpoints on a free port unless the settings name
   * one.
   */
  public static ProcessorProcess start(
      final Class<?> cli,
      final String name,
      final Map<String, String> settings,
      final Path log,
      final List<String> jvmOptions) {
    final List<String> options = new ArrayList<>(jvmOptions);
    options.add("-Dlogback.configurationFile=logback.xml");
    final List<String> command = ChildProcesses.javaCommand(options, cli);
    command.add("run");
    if (!settings.containsKey(HttpSettings.PORT)) {
      // Several processors share this machine: each takes a free port for its endpoints.
      command.add("-s");
      command.add(HttpSettings.PORT + "=0");
    }
    settings.forEach(
        (key, value) -> {
          command.add("-s");
          command.add(key + "=" + value);
        });
    try {
      Files.createDirectories(log.getParent());
      final Process process =
          new ProcessBuilder(command)
              .redirectErrorStream(true)
              .redirectOutput(Redirect.appendTo(log.toFile()))
              .start();
      ChildProcesses.killAtExit(process);
      return new ProcessorProcess(name, settings.getOrDefault(CLIENT_ID, name), process, log);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start processor " + name, e);
    }
  }

  /** Its operating system process id. */
  public long pid() {
    return process.pid();
  }

  /** True while its JVM runs. */
  public boolean isAlive() {
    return process.isAlive();
  }

  /** Its Kafka client id, the prefix of its consumers' ids in the group. */
  public String clientId() {
    return clientId;
  }

  /**
   * True when it is gone although its owner (a test, a benchmark) neither killed nor stopped it.
   */
  public boolean diedOnItsOwn() {
    return !endedByItsOwner && !process.isAlive();
  }

  /**
   * SIGKILL: on Linux {@link Process#destroyForcibly()} sends signal 9, which the JVM cannot catch,
   * so no shutdown hook runs, no transaction is aborted and no state is flushed. Returns once the
   * process is gone, and fails unless the exit status says it died of that signal.
   */
  public void kill() {
    endedByItsOwner = true;
    process.destroyForcibly();
    final int status = awaitExit();
    if (status != KILLED_BY_SIGKILL) {
      throw new IllegalStateException(
          this + " was to die of SIGKILL (" + KILLED_BY_SIGKILL + ") but exited with " + status);
    }
  }

  /**
   * SIGTERM: {@link Process#destroy()} sends signal 15, the JVM runs its shutdown hooks, and the
   * run command's hook closes the app. Returns the exit status ({@link #ENDED_BY_SIGTERM} once the
   * hook has finished).
   */
  public int stop() {
    endedByItsOwner = true;
    process.destroy();
    return awaitExit();
  }

  /**
   * SIGSTOP: every thread of its JVM stands still until {@link #thaw()}, as in a long collector
   * pause, on a starved VM or in a paused container; the JVM cannot catch it or tell it from a slow
   * machine.
   */
  public void freeze() {
    ChildProcesses.signal(process, "STOP");
  }

  /** SIGCONT: a frozen JVM runs again from where it stood. */
  public void thaw() {
    ChildProcesses.signal(process, "CONT");
  }

  /**
   * Waits until it ends by itself, as a test expects of a processor that must fail, and returns its
   * exit status; fails if it still runs after a minute.
   */
  public int awaitEndOnItsOwn() {
    endedByItsOwner = true;
    return awaitExit();
  }

  private int awaitExit() {
    try {
      if (!process.waitFor(EXIT_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
        process.destroyForcibly();
        throw new IllegalStateException(this + " did not exit within " + EXIT_TIMEOUT);
      }
      ChildProcesses.ended(process);
      return process.exitValue();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
      throw new IllegalStateException("interrupted while waiting for " + this, e);
    }
  }

  /** The file its output is appended to, for a test that reads what it logged. */
  public Path log() {
    return log;
  }

  /** The last lines of its output, to explain a failure. */
  public String logTail(final int lines) {
    try {
      final List<String> all = Files.readAllLines(log, StandardCharsets.UTF_8);
      return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
    } catch (IOException e) {
      return "(no log: " + e + ")";
    }
  }

  /** Kills it if it still runs: a test that failed half-way must not leave a JVM behind. */
  @Override
  public void close() {
    endedByItsOwner = true;
    if (process.isAlive()) {
      process.destroyForcibly();
      awaitExit();
    }
  }

  @Override
  public String toString() {
    return "processor " + name + " (pid " + process.pid() + ", log " + log + ")";
  }
}
