package io.bucketer.bench;

import io.bucketer.embedded.ChildProcesses;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.lang.ProcessBuilder.Redirect;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * MongoDB's own Kafka sink connector, run by Kafka Connect standalone in a JVM of its own, for
 * benchmarks that compare it with bucketer on the same input topic and the same kind of store. It
 * writes one document per reading; see {@link ConnectorProperties} for its settings.
 *
 * <p>{@link #start()} writes {@code worker.properties} and {@code connector.properties} into the
 * work directory and launches {@code ConnectStandalone} on {@link ConnectorClasspath}, with its
 * output (SLF4J's simple logger, on stderr) appended to {@link #logFile()}. {@link #close()} kills
 * the JVM: a benchmark has nothing to save in it, and a kill ends it at once.
 */
public final class SinkConnectorProcess implements AutoCloseable {

  private static final String MAIN_CLASS = "org.apache.kafka.connect.cli.ConnectStandalone";
  private static final Duration EXIT_TIMEOUT = Duration.ofSeconds(30);

  private final ConnectorClasspath classpath;
  private final SinkConnectorSettings settings;
  private final Path workDirectory;
  private final String name =
      "bucketer-bench-mongo-sink-" + UUID.randomUUID().toString().substring(0, 8);
  private volatile Process process;

  /**
   * @param classpath usually {@link ConnectorClasspath#locate()}
   * @param workDirectory where the properties, the offsets file and the log go; the caller owns it
   */
  public SinkConnectorProcess(
      final ConnectorClasspath classpath,
      final SinkConnectorSettings settings,
      final Path workDirectory) {
    this.classpath = Objects.requireNonNull(classpath, "classpath");
    this.settings = Objects.requireNonNull(settings, "settings");
    this.workDirectory = Objects.requireNonNull(workDirectory, "workDirectory");
  }

  /** Writes the properties and launches the JVM; returns as soon as it is launched. */
  public synchronized SinkConnectorProcess start() {
    if (process != null) {
      throw new IllegalStateException(this + " was already started");
    }
    try {
      Files.createDirectories(workDirectory);
      final Path worker = workDirectory.resolve("worker.properties");
      final Path connector = workDirectory.resolve("connector.properties");
      write(worker, ConnectorProperties.worker(settings, workDirectory.resolve("connect.offsets")));
      write(connector, ConnectorProperties.connector(settings, name));
      final Path manifests = PluginManifests.writeTo(workDirectory.resolve("plugin-manifests"));
      process =
          new ProcessBuilder(command(manifests, worker, connector))
              .redirectErrorStream(true)
              .redirectOutput(Redirect.appendTo(logFile().toFile()))
              .start();
      ChildProcesses.killAtExit(process);
      return this;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start " + this, e);
    }
  }

  private List<String> command(final Path manifests, final Path worker, final Path connector) {
    return List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx" + settings.maxHeap(),
        "-Dorg.slf4j.simpleLogger.showDateTime=true",
        "-Dorg.slf4j.simpleLogger.dateTimeFormat=HH:mm:ss.SSS",
        "-cp",
        classpath.asArgument() + File.pathSeparator + manifests,
        MAIN_CLASS,
        worker.toString(),
        connector.toString());
  }

  /** The connector's name, and so its consumer group: {@code connect-<name>}. */
  public String name() {
    return name;
  }

  /** True while the JVM runs. A failed task does not end it: see the log. */
  public synchronized boolean isAlive() {
    return process != null && process.isAlive();
  }

  /**
   * The connector's JVM, for its CPU time and memory ({@code info().totalCpuDuration()}, {@code
   * /proc/<pid>/status}): on a shared machine, CPU per document varies less than documents per
   * second.
   */
  public ProcessHandle processHandle() {
    final Process running = process;
    if (running == null) {
      throw new IllegalStateException(this + " was not started");
    }
    return running.toHandle();
  }

  /** Connect's log and anything else the JVM prints. */
  public Path logFile() {
    return workDirectory.resolve("connect.log");
  }

  /** Kills the JVM if it runs and waits until it is gone. Safe to call twice. */
  @Override
  public synchronized void close() {
    if (process == null) {
      return;
    }
    process.destroyForcibly();
    try {
      if (!process.waitFor(EXIT_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
        throw new IllegalStateException(this + " did not exit within " + EXIT_TIMEOUT);
      }
      ChildProcesses.ended(process);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for " + this + " to exit", e);
    }
  }

  @Override
  public String toString() {
    final Process running = process;
    return "sink connector "
        + name
        + (running == null ? "" : " (pid " + running.pid() + ")")
        + ", log "
        + logFile();
  }

  private static void write(final Path file, final Map<String, String> settings)
      throws IOException {
    final Properties properties = new Properties();
    properties.putAll(settings);
    try (OutputStream out = Files.newOutputStream(file)) {
      properties.store(out, "written by " + SinkConnectorProcess.class.getName());
    }
  }
}
