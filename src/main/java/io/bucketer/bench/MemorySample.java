package io.bucketer.bench;

import java.io.PrintStream;
import java.time.Duration;
import java.util.List;
import java.util.function.ToLongFunction;

/**
 * What the memory benchmark saw of the processor at one moment. {@code processorCpu} is the CPU
 * time its JVM has used since it started, all threads; zero where the platform does not say. {@code
 * closeToVisible} is the sink's histogram of the time from a window's close to MongoDB's
 * acknowledgement of its bucket, since the processor started; {@code bucketsWritten} the buckets
 * MongoDB acknowledged since then; {@code gc} what its collector did since then; {@code benchGcCpu}
 * the CPU its collector spent since then in the full collections the benchmark asked for to read
 * the live heap ({@link ProcessorProbe#sample}): the measurement's cost, not the processor's, left
 * out of its CPU per reading.
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
    LatencyHistogram closeToVisible,
    long bucketsWritten,
    GcCounts gc,
    Duration benchGcCpu) {

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
   * Prints what the samples from {@code measuredFrom} on say, the stretch after the warm-up: peak
   * live heap and its growth between the stretch's two halves (flat means the heap does not grow
   * with time, only with series), the state directory, whether the processor kept up, its rate and
   * CPU per reading, and close → visible; returns the figures for a table of fleets.
   */
  static Measured summarise(
      final List<MemorySample> samples,
      final int series,
      final int measuredFrom,
      final PrintStream out) {
    final MemorySample from = samples.get(measuredFrom);
    final MemorySample last = samples.get(samples.size() - 1);
    final List<MemorySample> measured = samples.subList(measuredFrom, samples.size());
    final long peak = measured.stream().mapToLong(MemorySample::liveHeapBytes).max().orElse(0);
    final long peakResident =
        measured.stream().mapToLong(MemorySample::residentBytes).max().orElse(0);
    final int half = measured.size() / 2;
    final double early = average(measured.subList(0, Math.max(1, half)));
    final double late = average(measured.subList(half, measured.size()));
    final double seconds = (last.elapsed().toMillis() - from.elapsed().toMillis()) / 1000.0;
    final long processed = last.readingsProcessed() - from.readingsProcessed();
    final long sent = last.readingsSent() - from.readingsSent();
    final LatencyHistogram latency = last.closeToVisible().since(from.closeToVisible());
    final Measured figures =
        new Measured(
            series,
            sent,
            processed,
            last.readingsSent(),
            last.readingsProcessed(),
            (last.processorCpu().minus(from.processorCpu()).minus(benchGc(from, last)).toMillis())
                * 1000.0
                / Math.max(1, processed),
            peak,
            peakResident,
            last.stateDirectoryBytes(),
            latency,
            peakRate(measured, MemorySample::bucketsWritten));
    out.println();
    out.printf(
        "Over the measured stretch, %.0f s from %.0f s on:%n",
        seconds, from.elapsed().toMillis() / 1000.0);
    out.printf("%-36s %.1f MiB (target <= 512 MiB)%n", "peak heap after GC", peak / MIB);
    out.printf(
        "%-36s %+.1f MiB from its first half to its second (%.1f -> %.1f MiB)%n",
        "heap after GC growth", (late - early) / MIB, early / MIB, late / MIB);
    out.printf("%-36s %.0f MiB%n", "peak resident memory", peakResident / MIB);
    out.printf(
        "%-36s %,d bytes per series (%,d series, %.1f MiB)%n",
        "state directory at the end",
        last.stateDirectoryBytes() / series,
        series,
        last.stateDirectoryBytes() / MIB);
    out.printf(
        "%-36s %,d of %,d sent since the start (%.1f%%; applied, or held for readings.hold);"
            + " %,d not yet taken in at the end%n",
        "readings processed",
        last.readingsProcessed(),
        last.readingsSent(),
        100.0 * figures.keptUpShare(),
        figures.behindAtTheEnd());
    out.printf("%-36s %,.0f readings/s%n", "processing rate", processed / Math.max(seconds, 1e-3));
    // Its CPU per reading moves less from run to run than its rate, which the shared cores set.
    out.printf(
        "%-36s %.1f ms of the processor's CPU%n",
        "CPU per 1,000 readings processed", figures.cpuMillisPerThousand());
    out.printf(
        "%-36s %.2f ms per 1,000 readings, the collector's CPU in the full collections the"
            + " benchmark asked for to read the live heap (jcmd GC.run at each sample), left out of"
            + " the CPU above and of the GC threads' below%n",
        "the benchmark's own heap reads",
        benchGc(from, last).toNanos() / 1e6 / Math.max(1e-3, processed / 1000.0));
    out.printf("%-36s %s%n", "garbage collection", last.gc().since(from.gc()).describe(processed));
    out.printf(
        "%-36s p50 %s, p99 %s over %,d buckets (the histogram's bounds; target p99 <= 1000 ms);"
            + " MongoDB acknowledged at most %,.0f buckets/s between two samples, %,.0f on average%n",
        "close -> visible in MongoDB",
        latency.describe(0.5),
        latency.describe(0.99),
        latency.count(),
        figures.peakBucketsWrittenPerSecond(),
        (last.bucketsWritten() - from.bucketsWritten()) / Math.max(seconds, 1e-3));
    return figures;
  }

  /** The collector's CPU in the benchmark's own full collections between two samples. */
  static Duration benchGc(final MemorySample from, final MemorySample to) {
    return to.benchGcCpu().minus(from.benchGcCpu());
  }

  /**
   * What a fleet's measured stretch came to: one row of {@code bench live}'s table. {@code sent}
   * and {@code processed} count the stretch's readings, the {@code InAll} ones those since the
   * start.
   */
  public record Measured(
      int series,
      long sent,
      long processed,
      long sentInAll,
      long processedInAll,
      double cpuMillisPerThousand,
      long peakHeapBytes,
      long peakResidentBytes,
      long stateDirectoryBytes,
      LatencyHistogram closeToVisible,
      double peakBucketsWrittenPerSecond) {

    /** Readings processed over those sent, since the start. */
    double keptUpShare() {
      return (double) processedInAll / Math.max(1, sentInAll);
    }

    /** Readings sent and not yet processed at the end. */
    long behindAtTheEnd() {
      return sentInAll - processedInAll;
    }
  }

  /**
   * The highest rate of {@code count} between two consecutive samples: for the buckets MongoDB
   * acknowledged, what the stand-in wrote when a minute's windows closed together, near its
   * capacity, where the average is only the rate the fleet closes windows at.
   */
  private static double peakRate(
      final List<MemorySample> samples, final ToLongFunction<MemorySample> count) {
    double peak = 0;
    for (int index = 1; index < samples.size(); index++) {
      final MemorySample before = samples.get(index - 1);
      final MemorySample after = samples.get(index);
      final double seconds = (after.elapsed().toMillis() - before.elapsed().toMillis()) / 1000.0;
      peak =
          Math.max(
              peak,
              (count.applyAsLong(after) - count.applyAsLong(before)) / Math.max(seconds, 1e-3));
    }
    return peak;
  }

  private static double average(final List<MemorySample> samples) {
    return samples.stream().mapToLong(MemorySample::liveHeapBytes).average().orElse(0);
  }
}
