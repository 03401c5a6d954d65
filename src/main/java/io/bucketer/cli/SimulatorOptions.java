package io.bucketer.cli;

import io.bucketer.buckets.TimeSpans;
import io.bucketer.simulate.ReadingGenerator;
import java.time.Duration;
import java.time.Instant;
import picocli.CommandLine.Option;

/** How the simulated gateways behave; shared by {@code simulate} and {@code demo}. */
final class SimulatorOptions {

  @Option(
      names = "--sensors",
      defaultValue = "20",
      description = "Number of sensors (default: ${DEFAULT-VALUE}).")
  int sensors;

  @Option(
      names = "--interval",
      defaultValue = "5s",
      description = "Event time between two readings of one sensor (default: ${DEFAULT-VALUE}).")
  String interval;

  @Option(
      names = "--jitter",
      defaultValue = "200ms",
      description = "Random shift of each reading's timestamp, +/- (default: ${DEFAULT-VALUE}).")
  String jitter;

  @Option(
      names = "--out-of-order",
      defaultValue = "0.05",
      description =
          "Fraction of readings sent late, overtaken by up to one round of the other sensors' readings"
              + " (default: ${DEFAULT-VALUE}).")
  double outOfOrderFraction;

  @Option(
      names = "--seed",
      defaultValue = "42",
      description =
          "Random seed: the same seed sends the same readings (default: ${DEFAULT-VALUE}).")
  long seed;

  ReadingGenerator.Options generatorOptions(final Instant start, final long count) {
    final Duration step = TimeSpans.parse(interval);
    return new ReadingGenerator.Options(
        sensors, start, step, TimeSpans.parse(jitter), outOfOrderFraction, sensors, count, seed);
  }
}
