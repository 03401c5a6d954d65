package io.bucketer.cli;

import io.bucketer.backfill.Backfill;
import io.bucketer.backfill.BackfillException;
import io.bucketer.backfill.BackfillPlan;
import io.bucketer.buckets.Granularity;
import io.bucketer.config.BucketerConfig;
import io.bucketer.config.MongoSettings;
import io.bucketer.sink.MongoUnusableException;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code bucketer backfill}: builds a rolled-up granularity for a past range from finer documents.
 */
@Command(
    name = "backfill",
    mixinStandardHelpOptions = true,
    description = {
      "Builds the documents of a rolled-up granularity (one just added to granularities, or a",
      "stored one) for a past range, from the stored documents of the finer granularity it is",
      "rolled up from, as the stream would have: the same summaries, the same totals (average",
      "and deviation to rounding). Takes run's settings. Writes through the sink's writer: a",
      "document is replaced only by a higher revision, so it is idempotent and safe while run",
      "writes. By default it stops at the windows no late reading can change any more.",
      "Exit status: 0 done, 1 MongoDB failed or refused a read or write, 2 invalid options or",
      "settings, 3 MongoDB refused as configured, 4 a window's stored source documents",
      "contradict each other (named)."
    })
final class BackfillCommand implements Callable<Integer> {

  /**
   * Exit status when stored source documents contradict each other and a window cannot be built.
   */
  static final int UNBUILDABLE_WINDOW = 4;

  @Spec CommandSpec spec;

  @Mixin ConfigOptions configOptions;

  @Option(
      names = "--granularity",
      split = ",",
      required = true,
      paramLabel = "SIZE",
      description = "The granularities to build, comma-separated: each configured and rolled up.")
  List<String> granularities = new ArrayList<>();

  @Option(
      names = "--from",
      required = true,
      paramLabel = "INSTANT",
      description =
          "The earliest window to build, ISO-8601 (2026-01-01T00:00:00Z); aligned down to the"
              + " granularity's windows, and a target another one is built from down to that"
              + " one's.")
  Instant from;

  @Option(
      names = "--until",
      paramLabel = "INSTANT",
      description = {
        "Build windows that start before this, ISO-8601, aligned down. Default: the windows that",
        "end by now - grace - lateness.horizon, which no late reading can change any more. A",
        "later one is taken up to now - grace (closed windows only)."
      })
  Instant until;

  @Option(names = "--database", paramLabel = "NAME", description = "Instead of mongodb.database.")
  String database;

  @Option(
      names = "--dry-run",
      description = "Read and build, count what would be written, write nothing.")
  boolean dryRun;

  @Option(
      names = "--repair",
      description = {
        "Replace the stored windows of the range whose documents differ from those built,",
        "whatever their revision (at one above it), and delete their documents beyond the new",
        "count: for a damaged granularity, or to rebuild one over a granularity added below it."
      })
  boolean repair;

  @Option(
      names = "--progress-every",
      defaultValue = "10s",
      paramLabel = "SPAN",
      converter = QueryRange.SpanConverter.class,
      description = "How often to print progress (default: ${DEFAULT-VALUE}).")
  Duration progressEvery;

  @Override
  public Integer call() {
    if (database != null) {
      configOptions.overrides.put(MongoSettings.DATABASE, database);
    }
    final BucketerConfig config = configOptions.load();
    final BackfillPlan plan = plan(config);
    final PrintWriter out = spec.commandLine().getOut();
    final PrintWriter err = spec.commandLine().getErr();
    try {
      Backfill.run(
          settings(config),
          plan,
          new Backfill.Mode(repair, dryRun),
          progressEvery,
          line -> {
            out.println(line);
            out.flush();
          });
    } catch (BackfillException e) {
      err.println("bucketer backfill: " + e.getMessage());
      return e.kind() == BackfillException.Kind.UNBUILDABLE_WINDOW ? UNBUILDABLE_WINDOW : 1;
    } catch (MongoUnusableException e) {
      err.println("bucketer backfill: " + e.getMessage());
      return CommandLines.FATAL_DEPENDENCY_FAILURE;
    } catch (RuntimeException e) {
      // No input should get here; if one does, the operator still gets one line, not a trace.
      err.println(
          "bucketer backfill: stopped: "
              + (e.getMessage() == null ? "an unexpected failure" : e.getMessage())
              + ". What was written stays: run backfill again once it is fixed");
      return 1;
    }
    return 0;
  }

  private BackfillPlan plan(final BucketerConfig config) {
    final List<Granularity> targets = new ArrayList<>();
    for (final String text : granularities) {
      try {
        targets.add(Granularity.parse(text.trim()));
      } catch (IllegalArgumentException e) {
        throw new ParameterException(spec.commandLine(), "--granularity: " + e.getMessage());
      }
    }
    try {
      return BackfillPlan.of(
          new BackfillPlan.Request(
              config.granularities(),
              config.bucketLayout(),
              config.retention(),
              config.grace(),
              config.latenessHorizon(),
              targets,
              from,
              Optional.ofNullable(until)),
          Instant.now());
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), "--granularity " + e.getMessage());
    }
  }

  private static Backfill.Settings settings(final BucketerConfig config) {
    return new Backfill.Settings(
        config.mongo().connection(),
        config.mongoDatabase(),
        config.collectionPrefix(),
        config.granularities(),
        config.retention(),
        config.bucketLayout().maxSummariesPerBucket(),
        config.sinkBatchSize(),
        config.sinkWritesInFlight(),
        config.sinkWriteTimeout(),
        config.sinkRetryBackoffMax());
  }
}
