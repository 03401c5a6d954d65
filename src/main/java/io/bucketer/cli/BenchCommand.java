package io.bucketer.cli;

import io.bucketer.bench.ConnectorClasspath;
import io.bucketer.bench.ThroughputBench;
import io.bucketer.buckets.TimeSpans;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code bucketer bench}: measures bucketer side by side with the limit (a plain consumer) and with
 * MongoDB's own Kafka sink connector, on the same readings, on an embedded broker and MongoDB
 * stand-in.
 */
@Command(
    name = "bench",
    mixinStandardHelpOptions = true,
    subcommands = {
      MemoryBenchCommand.class,
      LiveBenchCommand.class,
      LatencyBenchCommand.class,
      LifecycleBenchCommand.class,
      FormatsBenchCommand.class,
      PeerBenchCommand.class,
      SoakBenchCommand.class
    },
    description = {
      "Benchmarks bucketer on an embedded Kafka broker and MongoDB stand-in, side by side with",
      "a plain consumer (the limit) and MongoDB's Kafka sink connector, on the same readings."
    })
final class BenchCommand implements Callable<Integer> {

  @Option(
      names = "--sensors",
      defaultValue = "100",
      description = "Sensors, each one series (default: ${DEFAULT-VALUE}).")
  int sensors;

  @Option(
      names = "--interval",
      defaultValue = "1s",
      description = "Event time between two readings of a sensor (default: ${DEFAULT-VALUE}).")
  String interval;

  @Option(
      names = "--duration",
      defaultValue = "6h",
      description = "Event time the readings span (default: ${DEFAULT-VALUE}).")
  String duration;

  @Option(
      names = "--warmup",
      description =
          "Event time of each unmeasured warm-up round, which lets the JIT compile the hot code;"
              + " 0s for none (default: the same as --duration, so that the JIT compiles for the"
              + " rows it will measure).")
  String warmup;

  @Option(
      names = "--warmup-rounds",
      defaultValue = "3",
      description =
          "Most warm-up rounds; they stop early once the JIT takes at most 10%% of a round's CPU"
              + " time. Each row prints the JIT's share of its CPU time, so that a run can be"
              + " judged (default: ${DEFAULT-VALUE}).")
  int warmupRounds;

  @Option(
      names = "--rounds",
      defaultValue = "3",
      description =
          "Measured rounds, each running every row once, so that the rows interleave in time; the"
              + " bench prints each figure's median over them with its lowest and highest"
              + " (default: ${DEFAULT-VALUE}).")
  int rounds;

  @Option(
      names = "--no-connector",
      negatable = true,
      defaultValue = "true",
      description = "Also run MongoDB's Kafka sink connector (default: ${DEFAULT-VALUE}).")
  boolean connector;

  @Option(
      names = "--no-sasl-ssl",
      negatable = true,
      defaultValue = "true",
      description =
          "Also run bucketer over SASL_SSL (SCRAM-SHA-512 over TLS, the README's ACLs) on the"
              + " same broker and readings, as a ratio to PLAINTEXT (default: ${DEFAULT-VALUE}).")
  boolean saslSsl;

  @Option(
      names = "--timeout",
      defaultValue = "10m",
      description = "Longest any one phase may take (default: ${DEFAULT-VALUE}).")
  String timeout;

  @Mixin BenchSetupOptions setup;

  @Override
  public Integer call() throws Exception {
    if (connector && !connectorFound()) {
      return CommandLines.BAD_CONFIGURATION;
    }
    BenchSetupOptions.silenceLibraries();
    new ThroughputBench(
            new ThroughputBench.Options(
                sensors,
                TimeSpans.parse(interval),
                TimeSpans.parse(duration),
                TimeSpans.parse(warmup == null ? duration : warmup),
                warmupRounds,
                rounds,
                setup.partitions,
                connector,
                saslSsl,
                TimeSpans.parse(timeout),
                setup.processorSettings),
            System.out)
        .run();
    return 0;
  }

  /**
   * Whether the sink connector's class path is where the build puts it. Checked before anything
   * starts: the connector runs only in measured rounds, after minutes of warm-up.
   */
  private static boolean connectorFound() {
    try {
      ConnectorClasspath.locate();
      return true;
    } catch (IllegalStateException e) {
      System.err.println(
          "bucketer bench: " + e.getMessage() + "; or leave the connector out: --no-connector");
      return false;
    }
  }
}
