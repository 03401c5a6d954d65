package io.bucketer.bench;

import io.bucketer.embedded.ProcessorProcess;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * One of the soak's processors: an instance ({@code instance.id}) in a JVM of its own, with the
 * deploy files' JVM options and a fixed HTTP port, that the faults kill and start again on the same
 * state directory, freeze and thaw, or start and stop. The sampler asks it for a probe only while
 * it runs unfrozen.
 */
final class SoakProcessor implements AutoCloseable {

  private final String name;
  private final Class<?> cli;
  private final Map<String, String> settings;
  private final List<String> jvm;
  private final int httpPort;
  private final Path stateDir;
  private final Path logDir;
  private final HttpClient http = HttpClient.newHttpClient();
  private volatile ProcessorProcess process;
  private volatile boolean available;
  private int starts;

  /**
   * @param name names its JVMs and their logs
   */
  SoakProcessor(
      final String name,
      final Class<?> cli,
      final Map<String, String> settings,
      final String heap,
      final int httpPort,
      final Path stateDir,
      final Path logDir) {
    this.name = name;
    this.cli = cli;
    this.settings = Map.copyOf(settings);
    this.jvm = ProcessorProcess.productionJvm(heap);
    this.httpPort = httpPort;
    this.stateDir = stateDir;
    this.logDir = logDir;
  }

  /** Starts it (again, after a kill) and waits until it serves its metrics. */
  synchronized void start() {
    starts++;
    process =
        ProcessorProcess.start(
            cli, name + "-" + starts, settings, logDir.resolve(name + "-" + starts + ".log"), jvm);
    new ProcessorProbe(process, httpPort, stateDir).awaitMetrics(Duration.ofMinutes(2));
    available = true;
  }

  /** SIGKILL, as a power cut or the OOM killer would. */
  synchronized void kill() {
    available = false;
    process.kill();
  }

  /** SIGTERM, as an orchestrator stops a pod; returns its exit status once it has exited. */
  synchronized int stop() {
    available = false;
    return process.stop();
  }

  synchronized void freeze() {
    available = false;
    process.freeze();
  }

  synchronized void thaw() {
    process.thaw();
    available = true;
  }

  /** A probe of the running processor, or null while it is frozen, killed or starting. */
  ProcessorProbe probe() {
    final ProcessorProcess current = process;
    return available && current != null && current.isAlive()
        ? new ProcessorProbe(current, httpPort, stateDir)
        : null;
  }

  /** True if it died although no fault killed it. */
  boolean diedOnItsOwn() {
    final ProcessorProcess current = process;
    return current != null && current.diedOnItsOwn();
  }

  /** True when {@code /ready} answers 200. */
  boolean isReady() {
    try {
      return http.send(
                  HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + httpPort + "/ready"))
                      .timeout(Duration.ofSeconds(5))
                      .build(),
                  HttpResponse.BodyHandlers.discarding())
              .statusCode()
          == 200;
    } catch (java.io.IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /** The log of its latest start. */
  Path log() {
    return process.log();
  }

  @Override
  public void close() {
    final ProcessorProcess current = process;
    if (current != null && current.isAlive()) {
      current.thaw();
      current.stop();
    }
  }
}
