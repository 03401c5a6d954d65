package io.bucketer.cli;

import io.bucketer.config.BucketerConfig;
import io.bucketer.deadletters.DeadLetterFilter;
import io.bucketer.deadletters.DeadLetterReader;
import io.bucketer.deadletters.DeadLetterSummary;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code bucketer dead-letters summary}: the dead letters counted. */
@Command(
    name = "summary",
    mixinStandardHelpOptions = true,
    description =
        "Counts the dead letters by reason, by hour (UTC) of their timestamp and by the"
            + " topic-partition they were read from.",
    footerHeading = "%nExample:%n",
    footer = {"  bucketer dead-letters summary -c bucketer.properties --from 2025-06-01T00:00:00Z"})
final class DeadLettersSummaryCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Mixin ConfigOptions settings;

  @Mixin DeadLetterSelection selection;

  @Option(names = "--json", description = "One JSON object, for scripts.")
  boolean json;

  @Override
  public Integer call() {
    final DeadLetterFilter filter = selection.filter(spec.commandLine());
    final BucketerConfig config = settings.load();
    final PrintWriter out = spec.commandLine().getOut();
    return DeadLetterFailures.run(
        config,
        spec.commandLine().getErr(),
        () -> {
          final DeadLetterReader reader =
              new DeadLetterReader(config.kafkaProperties(), config.deadLetterTopic());
          final DeadLetterSummary summary = new DeadLetterSummary(reader.topic());
          reader.read(filter, selection.limit, summary::add);
          out.print(json ? summary.json() : summary.table());
          out.flush();
          return 0;
        });
  }
}
