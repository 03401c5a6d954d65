package io.bucketer.cli;

import io.bucketer.config.BucketerConfig;
import io.bucketer.rescale.HandoverProgress;
import io.bucketer.rescale.Rescale;
import io.bucketer.rescale.RescaleRefusedException;
import java.io.PrintWriter;
import java.time.Clock;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import org.apache.kafka.common.KafkaException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code bucketer rescale status}: where a rescale's two deployments stand. */
@Command(
    name = "status",
    mixinStandardHelpOptions = true,
    description = {
      "Says where both deployments of a rescale stand on the input, and whether the replaced one"
          + " may stop: once its late readings have ended (rescale.late.until) and it has read"
          + " every record written before then. Run it with either deployment's settings.",
      "With --check-buckets it also reads every bucket written since the last window before the"
          + " handover (once, joining no group) and checks that each was written by one"
          + " deployment, on its side of the handover.",
      "Exit status: 0 the replaced deployment may stop, 4 not yet, 5 the buckets disagree with"
          + " the handover, 1 refused or Kafka failed, 2 bad options or settings, 3 Kafka refused"
          + " the credentials or an ACL."
    })
final class RescaleStatusCommand implements Callable<Integer> {

  /** The exit code while the replaced deployment still has readings to take. */
  static final int NOT_YET = 4;

  /** The exit code when a bucket was written by both deployments, or by the wrong one. */
  static final int BUCKETS_DISAGREE = 5;

  @Spec CommandSpec spec;

  @Mixin ConfigOptions configOptions;

  @Option(
      names = "--other",
      required = true,
      paramLabel = "ID",
      description = "The application.id of the rescale's other deployment.")
  String other;

  @Option(
      names = "--check-buckets",
      description =
          "Also read the buckets written since the handover's last window and check each was"
              + " written by one deployment, on its side.")
  boolean checkBuckets;

  @Override
  public Integer call() {
    final PrintWriter out = spec.commandLine().getOut();
    final PrintWriter err = spec.commandLine().getErr();
    final BucketerConfig config = configOptions.load();
    final Clock clock = Clock.systemUTC();
    final Consumer<String> lines =
        line -> {
          out.println(line);
          out.flush();
        };
    try {
      final Rescale.Settings settings = RescaleCommand.settingsOf(config);
      final HandoverProgress progress = Rescale.status(settings, other, clock, lines);
      if (checkBuckets && !Rescale.checkBuckets(settings, other, lines).agrees()) {
        return BUCKETS_DISAGREE;
      }
      return progress.replacedMayStop(clock.instant()) ? 0 : NOT_YET;
    } catch (RescaleRefusedException e) {
      err.println("bucketer rescale status: " + e.getMessage());
      return 1;
    } catch (KafkaException e) {
      return AdminFailures.report("rescale status", config, err, e, Rescale.ANSWER_TIMEOUT);
    }
  }
}
