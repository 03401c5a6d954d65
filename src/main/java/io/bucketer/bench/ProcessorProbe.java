package io.bucketer.bench;

import dev.failsafe.Failsafe;
import dev.failsafe.RetryPolicy;
import io.bucketer.embedded.LoopbackPorts;
import io.bucketer.embedded.ProcessorProcess;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.LongSupplier;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Looks at a processor running in its own JVM the way an operator would: its Prometheus endpoint,
 * {@code jcmd}, {@code /proc} and its state directory.
 */
final class ProcessorProbe {

  private static final double MIB = 1024.0 * 1024.0;

  private final ProcessorProcess processor;
  private final URI metrics;
  private final Path stateDir;
  private final HttpClient http = HttpClient.newHttpClient();

  /** The collector's CPU in the full collections {@link #sample} asked for, so far. */
  private long benchGcNanos;

  ProcessorProbe(final ProcessorProcess processor, final int httpPort, final Path stateDir) {
    this.processor = processor;
    this.metrics = URI.create("http://" + LoopbackPorts.HOST + ":" + httpPort + "/metrics");
    this.stateDir = stateDir;
  }

  boolean isAlive() {
    return processor.isAlive();
  }

  long pid() {
    return processor.pid();
  }

  /**
   * The state directory's bytes by store, largest first, as one line: Kafka Streams keeps each
   * RocksDB store of a task under {@code <task>/rocksdb/<store>}; the rest (checkpoints, locks, the
   * in-memory stores' nothing) is "other".
   */
  String stateDirectoryByStore() {
    final Map<String, Long> byStore = new TreeMap<>();
    try (Stream<Path> files = Files.walk(stateDir)) {
      files
          .filter(Files::isRegularFile)
          .forEach(
              file -> byStore.merge(storeOf(stateDir.relativize(file)), sizeOf(file), Long::sum));
    } catch (NoSuchFileException e) {
      return "state directory: none";
    } catch (IOException | UncheckedIOException e) {
      return "state directory: unreadable (" + e.getMessage() + ")";
    }
    return "state directory by store: "
        + byStore.entrySet().stream()
            .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
            .map(store -> String.format("%s %.1f MiB", store.getKey(), store.getValue() / MIB))
            .collect(Collectors.joining(", "));
  }

  private static String storeOf(final Path file) {
    for (int i = 0; i + 1 < file.getNameCount() - 1; i++) {
      if (file.getName(i).toString().equals("rocksdb")) {
        return file.getName(i + 1).toString();
      }
    }
    return "other";
  }

  /**
   * Waits until the processor's endpoint answers, so that the first sample finds it: a JVM on a
   * loaded machine can take a while to start. Gives up at once if the processor died.
   */
  void awaitMetrics(final Duration atMost) {
    final RetryPolicy<Object> untilItAnswers =
        RetryPolicy.builder()
            .handleIf(notYet -> notYet instanceof UncheckedIOException && processor.isAlive())
            .withDelay(Duration.ofMillis(200))
            .withMaxDuration(atMost)
            .withMaxRetries(-1)
            .build();
    try {
      Failsafe.with(untilItAnswers).run(this::scrape);
    } catch (UncheckedIOException e) {
      throw new IllegalStateException(
          processor.isAlive()
              ? "the processor did not serve /metrics within " + atMost
              : "the processor died before it served /metrics",
          e);
    }
  }

  /**
   * One sample. The live heap is read right after a full collection requested with {@code jcmd
   * GC.run}: what the heap holds, without the garbage a young collection leaves for later. The
   * readings sent are counted after the processor's figures are read, so that they include every
   * reading it had processed by then (the collection and the scrape take a while, and the fleet
   * goes on sending). The collection is the benchmark's, not the processor's: the CPU its collector
   * threads spent in it is counted apart ({@link MemorySample#benchGcCpu}), and left out of the
   * processor's CPU. Before that, bucketer's CPU per reading carried a full collection of its whole
   * live heap every sample (every 15 s by default), which the peers, sampled without one, never
   * paid.
   */
  MemorySample sample(final Duration elapsed, final LongSupplier readingsSent)
      throws InterruptedException {
    final long collectorBefore = collectorNanos();
    jcmd("GC.run");
    benchGcNanos += Math.max(0, collectorNanos() - collectorBefore);
    final PrometheusText scrape = metrics();
    return new MemorySample(
        elapsed,
        readingsSent.getAsLong(),
        taken(scrape),
        (long) scrape.sum("bucketer_open_buckets"),
        (long) scrape.sum("jvm_memory_used_bytes", "area=\"heap\""),
        residentBytes(),
        directoryBytes(stateDir),
        cpuTime(),
        new LatencyHistogram(scrape.histogram("bucketer_bucket_close_to_visible_seconds")),
        (long) scrape.sum("bucketer_sink_buckets_written_total"),
        GcCounts.from(scrape),
        Duration.ofNanos(benchGcNanos));
  }

  /** The CPU the processor's collector threads have used since it started. */
  private long collectorNanos() {
    return NamedThreadsCpu.nanos(processor.pid(), ProcessorStages.GC_THREADS).orElse(0);
  }

  /** Its Prometheus endpoint's answer now. */
  PrometheusText metrics() {
    return PrometheusText.parse(scrape());
  }

  /** The readings the processor has taken in since it started, from its endpoint. */
  long readingsProcessed() {
    return taken(metrics());
  }

  /**
   * Readings taken in: applied to their windows (or dead-lettered), or held before their apply
   * ({@code readings.hold}). A held reading's input offset is committed and the reading logged; it
   * reaches its window within the hold. Counted apart, 100,000 sensors held for 5 s would read as
   * half a million readings behind a processor that keeps up.
   */
  private static long taken(final PrometheusText scrape) {
    return (long) (scrape.sum("bucketer_readings_total") + scrape.sum("bucketer_readings_held"));
  }

  /** The processor JVM's CPU time, all threads, as the operating system counts it. */
  Duration cpuTime() {
    return ProcessHandle.of(processor.pid())
        .flatMap(process -> process.info().totalCpuDuration())
        .orElse(Duration.ZERO);
  }

  private String scrape() {
    try {
      final HttpResponse<String> response =
          http.send(
              HttpRequest.newBuilder(metrics).timeout(Duration.ofSeconds(30)).build(),
              HttpResponse.BodyHandlers.ofString());
      return response.body();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot scrape " + metrics, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while scraping " + metrics, e);
    }
  }

  private void jcmd(final String command) throws InterruptedException {
    Jcmd.run(processor.pid(), command);
  }

  /** VmRSS from /proc: the memory the process really holds, heap, RocksDB and all. */
  private long residentBytes() {
    try {
      final List<String> status =
          Files.readAllLines(Path.of("/proc", processor.pid() + "", "status"));
      for (final String line : status) {
        if (line.startsWith("VmRSS:")) {
          return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
        }
      }
      return -1;
    } catch (IOException e) {
      return -1; // not Linux, or the process just ended: the sample says "unknown"
    }
  }

  private static long directoryBytes(final Path directory) {
    try (Stream<Path> files = Files.walk(directory)) {
      return files.filter(Files::isRegularFile).mapToLong(ProcessorProbe::sizeOf).sum();
    } catch (NoSuchFileException e) {
      return 0;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static long sizeOf(final Path file) {
    try {
      return Files.size(file);
    } catch (IOException e) {
      return 0; // RocksDB compacted it away while we walked
    }
  }
}
