package io.bucketer.cli;

import io.bucketer.bench.LifecycleBench;
import io.bucketer.buckets.TimeSpans;
import io.bucketer.embedded.ChildProcesses;
import io.bucketer.embedded.ProcessorProcess;
import java.io.IOException;
import java.util.List;
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
      "key object and by one shared key object, side by side; in a JVM of its own, started with the",
      "processor's JVM options and a heap of 3 GiB."
    })
final class LifecycleBenchCommand implements Callable<Integer> {

  /**
   * The bench JVM's heap: every window of a run stays on it (a processor keeps its closed windows
   * in RocksDB for the lateness horizon, 24 h), with room to spare.
   */
  private static final String HEAP = "3g";

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

  @Option(
      names = "--in-this-jvm",
      hidden = true,
      description = "Runs here rather than in a JVM started with the processor's JVM options.")
  boolean inThisJvm;

  @Override
  public Integer call() throws IOException, InterruptedException {
    final LifecycleBench.Options options =
        new LifecycleBench.Options(series, TimeSpans.parse(eventTime), readingsPerCommit, rounds);
    if (inThisJvm) {
      LifecycleBench.run(options, System.out);
      return 0;
    }
    // The processor's collector and JIT settings, not this JVM's (G1 by default on two cores,
    // whose write barriers alone cost a processor about a sixth of its CPU per reading).
    final List<String> command =
        ChildProcesses.javaCommand(ProcessorProcess.productionJvm(HEAP), BucketerCli.class);
    command.addAll(
        List.of(
            "bench",
            "lifecycle",
            "--in-this-jvm",
            "--series=" + series,
            "--event-time=" + eventTime,
            "--readings-per-commit=" + readingsPerCommit,
            "--rounds=" + rounds));
    final Process bench =
        ChildProcesses.killAtExit(new ProcessBuilder(command).inheritIO().start());
    final int exit = bench.waitFor();
    ChildProcesses.ended(bench);
    return exit;
  }
}
