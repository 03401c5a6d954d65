package io.bucketer.cli;

import io.bucketer.bench.LifecycleBench;
import io.bucketer.buckets.TimeSpans;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code bucketer bench lifecycle}: the window lifecycle and its cache alone, at a live pace. */
@Command(
    name = "lifecycle",
    mixinStandardHelpOptions = true,
    description = {
      "Runs the window lifecycle and its cache alone (no Kafka, no RocksDB, no log encoding) over a",
      "live fleet's readings, one per series a second of event time, with the production window",
      "settings, and prints the thread's CPU per reading, with each reading's series named by a new",
      "key object and by one shared key object, side by side."
    })
final class LifecycleBenchCommand implements Callable<Integer> {

  @Option(
      names = "--series",
      defaultValue = "100000",
      description = "Series in the fleet (default: ${DEFAULT-VALUE}).")
  int series;

  @Option(
      names = "--event-time",
      defaultValue = "5m",
      description =
          "Event time of each run, the first minute warm-up; at least 2m (default:"
              + " ${DEFAULT-VALUE}).")
  String eventTime;

  @Option(
      names = "--readings-per-commit",
      defaultValue = "10000",
      description =
          "Readings between two writes of the cache's changes, as between two commits: 10,000 is"
              + " 100 ms of 100,000 sensors at 1 Hz (default: ${DEFAULT-VALUE}).")
  int readingsPerCommit;

  @Option(
      names = "--rounds",
      defaultValue = "3",
      description = "Rounds, each running both kinds of keys (default: ${DEFAULT-VALUE}).")
  int rounds;

  @Override
  public Integer call() {
    LifecycleBench.run(
        new LifecycleBench.Options(series, TimeSpans.parse(eventTime), readingsPerCommit, rounds),
        System.out);
    return 0;
  }
}
