package io.bucketer.cli;

import io.bucketer.bench.LatencyBench;
import io.bucketer.bench.OfferedRate;
import io.bucketer.buckets.TimeSpans;
import java.util.OptionalDouble;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code bucketer bench latency}: close-to-visible latency at fixed offered loads. */
@Command(
    name = "latency",
    mixinStandardHelpOptions = true,
    description = {
      "Produces readings in real time at fixed rates, each into a fresh processor",
      "in its own JVM, and reports per rate the latency from a window's close to its",
      "bucket in MongoDB (p50, p99, max) over the windows that closed after a",
      "warm-up, and whether the MongoDB stand-in bounds it."
    })
final class LatencyBenchCommand implements Callable<Integer> {

  @Option(
      names = "--rates",
      defaultValue = "25%,50%,75%",
      description =
          "Offered rates, comma-separated: readings a second (20000) or shares of the capacity"
              + " (50%%) (default: ${DEFAULT-VALUE}).")
  String rates;

  @Option(
      names = "--capacity",
      description =
          "Readings a second the shares are taken of; without it, measured first by a short"
              + " backlog run of bucketer on the same broker and stand-in.")
  Double capacity;

  @Option(
      names = "--capacity-span",
      defaultValue = "1h",
      description =
          "Event time of the capacity run's backlog, 100 sensors each every second"
              + " (default: ${DEFAULT-VALUE}).")
  String capacitySpan;

  @Option(
      names = "--sensors",
      defaultValue = "10000",
      description =
          "Sensors, each one series; each reports every sensors / rate (default: ${DEFAULT-VALUE}).")
  int sensors;

  @Option(
      names = "--warmup",
      defaultValue = "1m",
      description =
          "Least time from the start of producing to the measured part, not measured; up to 10 s"
              + " less is taken as enough, and the part starts half a window after a close"
              + " (default: ${DEFAULT-VALUE}).")
  String warmup;

  @Option(
      names = "--minutes",
      defaultValue = "2",
      description =
          "Window closes measured per rate: minutes with the default granularities"
              + " (default: ${DEFAULT-VALUE}).")
  int closes;

  @Option(
      names = "--heap",
      defaultValue = "512m",
      description = "Each processor's -Xmx and -Xms (default: ${DEFAULT-VALUE}).")
  String heap;

  @Option(
      names = "--timeout",
      defaultValue = "10m",
      description =
          "Longest the capacity run, or the wait for a processor's first reading, may take"
              + " (default: ${DEFAULT-VALUE}).")
  String timeout;

  @Mixin BenchSetupOptions setup;

  @Override
  public Integer call() throws Exception {
    BenchSetupOptions.silenceLibraries();
    new LatencyBench(
            new LatencyBench.Options(
                OfferedRate.parseList(rates),
                capacity == null ? OptionalDouble.empty() : OptionalDouble.of(capacity),
                TimeSpans.parse(capacitySpan),
                sensors,
                TimeSpans.parse(warmup),
                closes,
                heap,
                setup.partitions,
                setup.processorSettings,
                BucketerCli.class,
                TimeSpans.parse(timeout)),
            System.out)
        .run();
    return 0;
  }
}
