package io.bucketer.cli;

import io.bucketer.config.BucketerConfig;
import io.bucketer.ingest.InputFormat;
import io.bucketer.reprocess.Reprocess;
import io.bucketer.reprocess.ReprocessRefusedException;
import io.bucketer.windows.DuplicateTimestamps;
import java.io.PrintWriter;
import java.time.Clock;
import java.time.Instant;
import java.util.concurrent.Callable;
import org.apache.kafka.common.KafkaException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code bucketer reprocess}: makes the processor read its input again from an instant. */
@Command(
    name = "reprocess",
    mixinStandardHelpOptions = true,
    description = {
      "After a bug fix (a wrong value field, a wrong scale, a bad schema), makes the processor"
          + " read input.topic again from an instant: moves the committed offsets of its consumer"
          + " group (application.id) on every partition back to the earliest record whose"
          + " timestamp is at or after --from. Run it with every instance stopped, then start the"
          + " fixed version: each reading read again replaces the one the processor holds at the"
          + " same series and time, its windows are written again with a higher revision, and"
          + " nothing is counted twice. Takes run's settings.",
      "Refuses while the group has members, for an instant further back than lateness.horizon,"
          + " when the topic's retention deleted records of the range, and with"
          + " duplicate.timestamps=keep-first. Never moves an offset"
          + " forward. See docs/reprocessing.md.",
      "Exit status: 0 done, 1 refused or Kafka failed, 2 bad options or settings, 3 Kafka"
          + " refused the credentials or an ACL."
    },
    footerHeading = "%nExamples:%n",
    footer = {
      "  bucketer reprocess -c bucketer.properties --from 2026-11-26T06:00:00Z --dry-run",
      "  bucketer reprocess -c bucketer.properties --from 2026-11-26T06:00:00Z"
    })
final class ReprocessCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Mixin ConfigOptions configOptions;

  @Option(
      names = "--from",
      required = true,
      paramLabel = "INSTANT",
      description =
          "Read again the records whose Kafka timestamp is at or after this, ISO-8601:"
              + " 2026-11-26T06:00:00Z.")
  Instant from;

  @Option(
      names = "--dry-run",
      description = "Print where each partition's offset is and would go; move nothing.")
  boolean dryRun;

  @Override
  public Integer call() {
    final BucketerConfig config = configOptions.load();
    final PrintWriter out = spec.commandLine().getOut();
    final PrintWriter err = spec.commandLine().getErr();
    if (config.duplicateTimestamps() == DuplicateTimestamps.KEEP_FIRST) {
      // Every reading read again meets the one held at its time, and keep-first keeps that one.
      err.println(
          "bucketer reprocess: duplicate.timestamps=keep-first: the processor would keep the"
              + " values it holds and drop every reading read again; reprocessing needs keep-last"
              + " — see docs/reprocessing.md");
      return 1;
    }
    if (config.inputFormat() == InputFormat.SPARKPLUG_B) {
      out.println(
          "sparkplug-b: data read again before its node's BIRTH is decoded with the births the"
              + " processor holds now");
    }
    try {
      Reprocess.run(
          new Reprocess.Settings(
              config.kafkaProperties(),
              config.applicationId(),
              config.inputTopic(),
              config.latenessHorizon()),
          from,
          dryRun,
          Clock.systemUTC(),
          line -> {
            out.println(line);
            out.flush();
          });
      return 0;
    } catch (ReprocessRefusedException e) {
      err.println("bucketer reprocess: " + e.getMessage());
      return 1;
    } catch (KafkaException e) {
      return AdminFailures.report("reprocess", config, err, e, Reprocess.ANSWER_TIMEOUT);
    }
  }
}
