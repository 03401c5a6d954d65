package io.bucketer.cli;

import ch.qos.logback.classic.LoggerContext;
import io.bucketer.bench.MemoryBench;
import io.bucketer.buckets.TimeSpans;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
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
      names = "--interval",
      defaultValue = "1s",
      description = "Time between two readings of a series (default: ${DEFAULT-VALUE}).")
  String interval;

  @Option(
      names = "--duration",
      defaultValue = "5m",
      description = "How long the fleet reports (default: ${DEFAULT-VALUE}).")
  String duration;

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

  @Option(
      names = "--partitions",
      defaultValue = "4",
      description = "Partitions of the input topic (default: ${DEFAULT-VALUE}).")
  int partitions;

  @Option(
      names = {"-s", "--set"},
      description = "A processor setting, key=value.")
  Map<String, String> processorSettings = new LinkedHashMap<>();

  @Override
  public Integer call() throws Exception {
    ((LoggerContext) LoggerFactory.getILoggerFactory()).reset();
    new MemoryBench(
            new MemoryBench.Options(
                series,
                TimeSpans.parse(interval),
                TimeSpans.parse(duration),
                TimeSpans.parse(sampleEvery),
                heap,
                partitions,
                processorSettings),
            System.out)
        .run();
    return 0;
  }
}
