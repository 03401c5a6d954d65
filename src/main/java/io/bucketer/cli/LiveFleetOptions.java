package io.bucketer.cli;

import io.bucketer.bench.MemoryBench;
import io.bucketer.buckets.TimeSpans;
import java.time.Duration;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** What {@code bench memory} and {@code bench live} let a user change about a live fleet's run. */
final class LiveFleetOptions {

  @Option(
      names = "--interval",
      defaultValue = "1s",
      description = "Time between two readings of a sensor (default: ${DEFAULT-VALUE}).")
  String interval;

  @Option(
      names = "--sample-every",
      defaultValue = "15s",
      description = "Time between two samples (default: ${DEFAULT-VALUE}).")
  String sampleEvery;

  @Option(
      names = "--heap",
      defaultValue = "512m",
      description = "The processor's -Xmx and -Xms (default: ${DEFAULT-VALUE}).")
  String heap;

  @Mixin BenchSetupOptions setup;

  /** A run of {@code sensors} that reports for {@code warmup}, then for the measured stretch. */
  MemoryBench.Options fleet(final int sensors, final Duration warmup, final Duration measured) {
    return new MemoryBench.Options(
        sensors,
        TimeSpans.parse(interval),
        warmup,
        measured,
        TimeSpans.parse(sampleEvery),
        heap,
        setup.partitions,
        setup.processorSettings,
        BucketerCli.class);
  }
}
