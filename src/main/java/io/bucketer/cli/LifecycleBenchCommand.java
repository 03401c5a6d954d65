package io.bucketer.cli;

import io.bucketer.bench.LifecycleBench;
import io.bucketer.buckets.TimeSpans;
import io.bucketer.embedded.ChildProcesses;
import io.bucketer.embedded.ProcessorProcess;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code bucketer bench lifecycle}: the window lifecycle and its cache alone, at a live pace. */
@Command(
    name = "lifecycle",
    mixinStandardHelpOptions = true,
    description = {
      "Runs the window lifecycle and its cache alone (no Kafka, no RocksDB, no log encoding)",
      "over a live fleet's readings, one per series a second of event time, with the production",
      "window settings, and prints the thread's CPU per reading, with each reading's series named",
      "by a new key object and by one shared key object, side by side; each run in a JVM of its",
      "own, started with the processor's JVM options and a heap of 3 GiB."
    })
final class LifecycleBenchCommand implements Callable<Integer> {

  /**
   * Each run's heap: every window of a run stays on it (a processor keeps its closed windows in
   * RocksDB for the lateness horizon, 24 h), with room to spare.
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
      names = "--readings-at-once",
      defaultValue = "1",
      description =
          "Readings of a series applied one after another, as if held that many seconds and"
              + " applied by series; 1 is what a processor does at a live pace, a reading of each"
              + " series a commit (default: ${DEFAULT-VALUE}).")
  int readingsAtOnce;

  @Option(
      names = "--rounds",
      defaultValue = "3",
      description = "Rounds, each running both kinds of keys (default: ${DEFAULT-VALUE}).")
  int rounds;

  @Option(
      names = "--in-this-jvm",
      hidden = true,
      description =
          "Runs one run here, with --keys, and prints its line: what each run's JVM does.")
  boolean inThisJvm;

  @Option(names = "--keys", hidden = true, description = "The keys of the run --in-this-jvm runs.")
  LifecycleBench.Keys keys = LifecycleBench.Keys.DECODED;

  @Override
  public Integer call() throws Exception {
    final LifecycleBench.Options options =
        new LifecycleBench.Options(
            series, TimeSpans.parse(eventTime), readingsPerCommit, readingsAtOnce, rounds);
    if (inThisJvm) {
      System.out.println(LifecycleBench.runHere(options, keys).toLine());
      return 0;
    }
    System.out.println("each run in a JVM of its own: " + ProcessorProcess.productionJvm(HEAP));
    LifecycleBench.run(options, this::inJvmOfItsOwn, System.out);
    return 0;
  }

  /**
   * One run in a JVM started with the processor's collector and JIT settings, not this JVM's (G1 by
   * default on two cores, whose write barriers alone cost a processor about a sixth of its CPU per
   * reading), and with nothing left by the runs before: runs one after another in one JVM swung by
   * a third and more.
   */
  private LifecycleBench.Run inJvmOfItsOwn(final LifecycleBench.Keys runKeys)
      throws IOException, InterruptedException {
    final List<String> command =
        ChildProcesses.javaCommand(ProcessorProcess.productionJvm(HEAP), BucketerCli.class);
    command.addAll(
        List.of(
            "bench",
            "lifecycle",
            "--in-this-jvm",
            "--keys=" + runKeys.name(),
            "--series=" + series,
            "--event-time=" + eventTime,
            "--readings-per-commit=" + readingsPerCommit,
            "--readings-at-once=" + readingsAtOnce));
    final Process run =
        ChildProcesses.killAtExit(
            new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start());
    final List<String> printed;
    try (BufferedReader lines =
        new BufferedReader(new InputStreamReader(run.getInputStream(), StandardCharsets.UTF_8))) {
      printed = lines.lines().toList();
    }
    final int exit = run.waitFor();
    ChildProcesses.ended(run);
    return printed.stream()
        .filter(LifecycleBench.Run::isRunLine)
        .findFirst()
        .map(LifecycleBench.Run::parse)
        .orElseThrow(
            () ->
                new IllegalStateException(
                    "a lifecycle run ended (exit " + exit + ") without its figures"));
  }
}
