package io.bucketer.cli;

import ch.qos.logback.classic.LoggerContext;
import java.util.LinkedHashMap;
import java.util.Map;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Option;

/** What both benchmarks let a user change about the topic and the processor. */
final class BenchSetupOptions {

  @Option(
      names = "--partitions",
      defaultValue = "4",
      description = "Partitions of the input topic (default: ${DEFAULT-VALUE}).")
  int partitions;

  @Option(
      names = {"-s", "--set"},
      description = "A processor setting, key=value, e.g. -s kafka.num.stream.threads=2.")
  Map<String, String> processorSettings = new LinkedHashMap<>();

  /** The figures are the output: libraries' logs would bury them. */
  static void silenceLibraries() {
    ((LoggerContext) LoggerFactory.getILoggerFactory()).reset();
  }
}
