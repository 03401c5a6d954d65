package io.bucketer.cli;

import io.bucketer.bench.MemoryBench;
import io.bucketer.buckets.TimeSpans;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code bucketer bench memory}: the processor's memory with many series open at once. */
@Command(
    name = "memory",
    mixinStandardHelpOptions = true,
    description = {
      "Runs many series in real time into a processor in its own JVM and samples its heap after",
      "a full GC, its resident memory and its state directory."
    })
final class MemoryBenchCommand implements Callable<Integer> {

  @Option(
      names = "--series",
      defaultValue = "100000",
      description = "Series (sensors) reporting at once (default: ${DEFAULT-VALUE}).")
  int series;

  @Option(
      names = "--duration",
      defaultValue = "5m",
      description =
          "How long the fleet reports: the first third warms up, the rest is measured (default:"
              + " ${DEFAULT-VALUE}).")
  String duration;

  @Mixin LiveFleetOptions fleet;

  @Override
  public Integer call() throws Exception {
    BenchSetupOptions.silenceLibraries();
    final Duration total = TimeSpans.parse(duration);
    final Duration warmup = total.dividedBy(3);
    new MemoryBench(fleet.fleet(series, warmup, total.minus(warmup)), System.out).run();
    return 0;
  }
}
