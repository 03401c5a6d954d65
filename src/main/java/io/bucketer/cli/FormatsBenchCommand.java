package io.bucketer.cli;

import io.bucketer.bench.FormatsBench;
import io.bucketer.buckets.TimeSpans;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code bucketer bench formats}: the same readings in every input format, side by side. */
@Command(
    name = "formats",
    mixinStandardHelpOptions = true,
    description = {
      "Runs bucketer on the same gateways' readings written in each input format, one topic each,",
      "and prints readings per second and CPU per reading side by side, as medians of the rounds."
    })
final class FormatsBenchCommand implements Callable<Integer> {

  @Option(
      names = "--devices",
      defaultValue = "1000",
      description =
          "Gateways, each sending three values (three readings) a message (default:"
              + " ${DEFAULT-VALUE}).")
  int devices;

  @Option(
      names = "--interval",
      defaultValue = "5s",
      description = "Event time between two messages of a gateway (default: ${DEFAULT-VALUE}).")
  String interval;

  @Option(
      names = "--duration",
      defaultValue = "10m",
      description = "Event time each round's fleet covers (default: ${DEFAULT-VALUE}).")
  String duration;

  @Option(
      names = "--warmup",
      defaultValue = "5m",
      description = "Event time of the warm-up round's fleet (default: ${DEFAULT-VALUE}).")
  String warmup;

  @Option(
      names = "--rounds",
      defaultValue = "3",
      description = "Measured rounds; the figures are their medians (default: ${DEFAULT-VALUE}).")
  int rounds;

  @Option(
      names = "--timeout",
      defaultValue = "10m",
      description = "Longest any one row may take (default: ${DEFAULT-VALUE}).")
  String timeout;

  @Mixin BenchSetupOptions setup;

  @Override
  public Integer call() throws Exception {
    BenchSetupOptions.silenceLibraries();
    new FormatsBench(
            new FormatsBench.Options(
                devices,
                TimeSpans.parse(interval),
                TimeSpans.parse(duration),
                TimeSpans.parse(warmup),
                rounds,
                setup.partitions,
                TimeSpans.parse(timeout),
                FormatsBench.Row.all(),
                setup.processorSettings),
            System.out)
        .run();
    return 0;
  }
}
