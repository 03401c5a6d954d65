package io.bucketer.cli;

import io.bucketer.config.BucketerConfig;
import io.bucketer.rescale.Rescale;
import io.bucketer.rescale.RescaleRefusedException;
import java.io.PrintWriter;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.Callable;
import org.apache.kafka.common.KafkaException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code bucketer rescale}: plans a change of series.partitions under load. */
@Command(
    name = "rescale",
    mixinStandardHelpOptions = true,
    description = {
      "Changes series.partitions (the most instances that can share the work) under load,"
          + " without reading the input again: a new layout, a deployment of its own with the new"
          + " count, takes over the readings from an instant on (the handover, a multiple of every"
          + " granularity), and the running deployment keeps the readings before it, late ones"
          + " included, until its lateness horizon has passed; no window is written by both. Run"
          + " it with the running deployment's settings. It prints the handover and both"
          + " deployments' settings, and starts the new layout's consumer group on the input where"
          + " the running one stands. Then restart the running deployment with its settings by the"
          + " time it says, start the new one, and follow both with rescale status. Takes run's"
          + " settings.",
      "With input.partitioning=by-sensor the new layout repartitions by series"
          + " (input.partitioning=any, --partitions series partitions), and the input topic may"
          + " grow once the running deployment has stopped: the way to grow a keyed input."
          + " Refuses while a rescale is under way and for an application.id already used. See"
          + " docs/sizing.md.",
      "Exit status: 0 done, 1 refused or Kafka failed, 2 bad options or settings, 3 Kafka"
          + " refused the credentials or an ACL."
    },
    subcommands = RescaleStatusCommand.class,
    footerHeading = "%nExamples:%n",
    footer = {
      "  bucketer rescale -c bucketer.properties --partitions 12 --dry-run",
      "  bucketer rescale -c bucketer.properties --partitions 12 --application-id plant-7-p12",
      "  bucketer rescale status -c plant-7-p12.properties --other plant-7"
    })
final class RescaleCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Mixin ConfigOptions configOptions;

  // Checked in call(), not by picocli: a required option here would be required of the status
  // subcommand too.
  @Option(
      names = "--partitions",
      paramLabel = "N",
      description = "The new layout's series.partitions (required).")
  Integer partitions;

  @Option(
      names = "--application-id",
      paramLabel = "ID",
      description =
          "The new layout's application.id, never used before (default: the running one's"
              + " followed by -p<N>).")
  String applicationId;

  @Option(
      names = "--lead",
      defaultValue = "15m",
      paramLabel = "SPAN",
      converter = QueryRange.SpanConverter.class,
      description =
          "Time left to restart the running deployment with its settings before a reading past"
              + " the handover may arrive (default: ${DEFAULT-VALUE}); the handover is at least"
              + " max.future.skew and this from now.")
  Duration lead;

  @Option(names = "--dry-run", description = "Print the plan; start no group.")
  boolean dryRun;

  @Override
  public Integer call() {
    final PrintWriter out = spec.commandLine().getOut();
    final PrintWriter err = spec.commandLine().getErr();
    if (partitions == null || partitions < 1) {
      err.println(
          "bucketer rescale: --partitions N is required, at least 1 (see bucketer rescale --help)");
      return CommandLines.BAD_CONFIGURATION;
    }
    final BucketerConfig config = configOptions.load();
    final String newApplicationId =
        applicationId != null ? applicationId : config.applicationId() + "-p" + partitions;
    try {
      Rescale.plan(
          settingsOf(config),
          newApplicationId,
          partitions,
          lead,
          dryRun,
          Clock.systemUTC(),
          line -> {
            out.println(line);
            out.flush();
          });
      return 0;
    } catch (RescaleRefusedException e) {
      err.println("bucketer rescale: " + e.getMessage());
      return 1;
    } catch (KafkaException e) {
      return AdminFailures.report("rescale", config, err, e, Rescale.ANSWER_TIMEOUT);
    }
  }

  static Rescale.Settings settingsOf(final BucketerConfig config) {
    return new Rescale.Settings(
        config.kafkaProperties(),
        config.applicationId(),
        config.kafka().sinkGroupId(),
        config.inputTopic(),
        config.bucketsTopic(),
        config.seriesPartitions(),
        config.inputKeyedBySensor(),
        config.granularities(),
        config.grace(),
        config.latenessHorizon(),
        config.maxFutureSkew(),
        config.handover());
  }
}
