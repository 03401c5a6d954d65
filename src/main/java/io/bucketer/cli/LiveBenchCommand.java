package io.bucketer.cli;

import io.bucketer.bench.LiveBench;
import io.bucketer.bench.LivePeer;
import io.bucketer.buckets.TimeSpans;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code bucketer bench live}: live fleets of several sizes, side by side. */
@Command(
    name = "live",
    mixinStandardHelpOptions = true,
    description = {
      "Runs live fleets of several sizes in real time, each into a processor in its own JVM with",
      "production defaults, and prints per fleet whether it kept up, the Kafka records and bytes",
      "written per reading per topic, the processor's CPU per reading, its memory, and close ->",
      "visible, then one table of all fleets."
    })
final class LiveBenchCommand implements Callable<Integer> {

  @Option(
      names = "--sensors",
      split = ",",
      defaultValue = "20000,50000,100000",
      description = "The fleets' sizes, one run each (default: ${DEFAULT-VALUE}).")
  List<Integer> sensors;

  @Option(
      names = "--warmup",
      defaultValue = "2m",
      description =
          "How long each fleet reports before the measured stretch: the processor starts, every"
              + " series opens its windows, the JIT compiles (default: ${DEFAULT-VALUE}).")
  String warmup;

  @Option(
      names = "--duration",
      defaultValue = "10m",
      description = "The measured stretch of each fleet (default: ${DEFAULT-VALUE}).")
  String duration;

  @Option(
      names = "--peers",
      split = ",",
      defaultValue = "streams-floor,windowed-aggregate",
      description =
          "The peers each fleet also runs through after bucketer, one after the other, each in a"
              + " JVM of its own: streams-floor, windowed-aggregate, or none (default:"
              + " ${DEFAULT-VALUE}).")
  List<String> peers;

  @Option(
      names = "--backlog",
      defaultValue = "24h",
      description =
          "The event time of the backlog of "
              + LiveBench.BACKLOG_SENSORS
              + " sensors that the same build drains first, set up as the fleets' processors are,"
              + " for the CPU per reading the fleets' is set beside; 0 for none (default:"
              + " ${DEFAULT-VALUE}).")
  String backlog;

  @Mixin LiveFleetOptions fleet;

  @Override
  public Integer call() throws Exception {
    BenchSetupOptions.silenceLibraries();
    final List<LivePeer.Kind> kinds =
        peers.equals(List.of("none"))
            ? List.of()
            : peers.stream().map(LivePeer.Kind::parse).toList();
    new LiveBench(
            sensors,
            kinds,
            fleet.fleet(0, TimeSpans.parse(warmup), TimeSpans.parse(duration)),
            backlog.equals("0") ? Duration.ZERO : TimeSpans.parse(backlog),
            System.out)
        .run();
    return 0;
  }
}
