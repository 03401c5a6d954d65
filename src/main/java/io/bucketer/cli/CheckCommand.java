package io.bucketer.cli;

import io.bucketer.check.CheckReport;
import io.bucketer.check.DependencyChecks;
import io.bucketer.config.BucketerConfig;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code bucketer check}: what {@code run} would find, before it runs. */
@Command(
    name = "check",
    mixinStandardHelpOptions = true,
    description = {
      "Checks, with the settings of run and without processing anything, what run will need:",
      "every setting, Kafka (the cluster, the input topic, bucketer's own topics and their",
      "configuration), the registry's latest input schema against the input.* fields, and",
      "MongoDB (the connection, the bucket indexes or the right to create them).",
      "Prints one line per check. Exit status: 0 all passed, 1 one failed, 2 invalid settings."
    })
final class CheckCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Mixin ConfigOptions configOptions;

  @Option(names = "--json", description = "One JSON object, for scripts.")
  boolean json;

  @Option(
      names = "--timeout",
      defaultValue = "10",
      paramLabel = "SECONDS",
      description = "How long each dependency may take to answer, default: ${DEFAULT-VALUE} s.")
  int timeoutSeconds;

  @Override
  public Integer call() {
    final BucketerConfig config = configOptions.load();
    final CheckReport report =
        new DependencyChecks(config, Duration.ofSeconds(timeoutSeconds)).run();
    final PrintWriter out = spec.commandLine().getOut();
    out.print(json ? report.json() : report.table());
    out.flush();
    return report.passed() ? 0 : 1;
  }
}
