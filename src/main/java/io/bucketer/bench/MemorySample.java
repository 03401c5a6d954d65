package io.bucketer.bench;

import java.io.PrintStream;
import java.time.Duration;
import java.util.List;

/**
 * What the memory benchmark saw of the processor at one moment. {@code processorCpu} is the CPU
 * time its JVM has used since it started, all threads; zero where the platform does not say. {@code
 * closeToVisible} is the sink's histogram of the time from a window's close to MongoDB's
 * acknowledgement of its bucket, since the processor started.
 */
public record MemorySample(
    Duration elapsed,
    long readingsSent,
    long readingsProcessed,
    long openBuckets,
    long liveHeapBytes,
    long residentBytes,
    long stateDirectoryBytes,
    Duration processorCpu,
    LatencyHistogram closeToVisible) {

  private static final double MIB = 1024.0 * 1024.0;

  static String header() {
    return String.format(
        "%8s %13s %13s %12s %16s %10s %12s %9s",
        "seconds", "sent", "processed", "open buckets", "heap after GC", "RSS", "state dir", "CPU");
  }

  String row() {
    return String.format(
        "%8.0f %,13d %,13d %,12d %12.1f MiB %6.0f MiB %8.1f MiB %7.1f s",
        elapsed.toMillis() / 1000.0,
        readingsSent,
        readingsProcessed,
        openBuckets,
        liveHeapBytes / MIB,
        residentBytes / MIB,
        stateDirectoryBytes / MIB,
        processorCpu.toMillis() / 1000.0);
  }

  /**
   * Peak live heap, and its growth between the first and the last third of the run once every
   * series has a window open: flat means the heap does not grow with time, only with series.
   */
  static void summarise(final List<MemorySample> samples, final int series, final PrintStream out) {
    if (samples.size() < 3) {
      out.println("too few samples for a summary; run longer or sample more often");
      return;
    }
    final MemorySample last = samples.get(samples.size() - 1);
    final long peak = samples.stream().mapToLong(MemorySample::liveHeapBytes).max().orElse(0);
    final int third = samples.size() / 3;
    final double early = average(samples.subList(third, 2 * third));
    final double late = average(samples.subList(2 * third, samples.size()));
    out.println();
    out.printf("%-36s %.1f MiB (target <= 512 MiB)%n", "peak heap after GC", peak / MIB);
    out.printf(
        "%-36s %+.1f MiB from the middle third to the last (%.1f -> %.1f MiB)%n",
        "heap after GC growth", (late - early) / MIB, early / MIB, late / MIB);
    out.printf(
        "%-36s %,d bytes per series (%,d series, %.1f MiB)%n",
        "state directory at the end",
        last.stateDirectoryBytes() / series,
        series,
        last.stateDirectoryBytes() / MIB);
    out.printf(
        "%-36s %,d of %,d sent (%.0f%%)%n",
        "readings processed",
        last.readingsProcessed(),
        last.readingsSent(),
        100.0 * last.readingsProcessed() / Math.max(1, last.readingsSent()));
    // Past the first third: the processor's start, its first windows and the JIT are behind it.
    // Its CPU per reading moves less from run to run than its rate, which the shared cores set.
    final MemorySample from = samples.get(third);
    final double seconds = (last.elapsed().toMillis() - from.elapsed().toMillis()) / 1000.0;
    final long processed = last.readingsProcessed() - from.readingsProcessed();
    out.printf(
        "%-36s %,.0f readings/s (the last two thirds)%n",
        "processing rate", processed / Math.max(seconds, 1e-3));
    out.printf(
        "%-36s %.1f ms of the processor's CPU (the last two thirds)%n",
        "CPU per 1,000 readings processed",
        (last.processorCpu().toMillis() - from.processorCpu().toMillis())
            * 1000.0
            / Math.max(1, processed));
    final LatencyHistogram latency = last.closeToVisible().since(from.closeToVisible());
    out.printf(
        "%-36s p50 <= %.0f ms, p99 <= %.0f ms over %,d buckets (the last two thirds; the"
            + " histogram's bounds; target p99 <= 1000 ms)%n",
        "close -> visible in MongoDB",
        latency.quantileMillis(0.5),
        latency.quantileMillis(0.99),
        latency.count());
  }

  private static double average(final List<MemorySample> samples) {
    return samples.stream().mapToLong(MemorySample::liveHeapBytes).average().orElse(0);
  }
}
