package io.bucketer.cli;

import io.bucketer.buckets.Granularity;
import io.bucketer.config.BucketerConfig;
import io.bucketer.config.MongoSettings;
import io.bucketer.resink.Resink;
import io.bucketer.resink.ResinkCounts;
import io.bucketer.resink.ResinkException;
import io.bucketer.resink.ResinkSelection;
import io.bucketer.sink.MongoUnusableException;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.AuthenticationException;
import org.apache.kafka.common.errors.AuthorizationException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code bucketer resink}: rebuilds MongoDB's bucket documents from the buckets topic. */
@Command(
    name = "resink",
    mixinStandardHelpOptions = true,
    description = {
      "Rebuilds the bucket documents of a MongoDB database from the compacted buckets topic:",
      "after MongoDB was lost or restored from a backup, or into a new cluster. Takes run's",
      "settings; --mongodb-uri and --database write elsewhere than they say.",
      "Reads the topic up to its ends at the start, outside any consumer group, and writes each",
      "bucket as the sink does: a document is replaced only by a higher revision, so a resink is",
      "idempotent and safe while run writes. Creates the indexes as run does. Skips buckets past",
      "their granularity's retention. Prints progress, then what became of the buckets.",
      "Exit status: 0 done, 1 buckets rejected or unreadable or MongoDB gone, 2 invalid",
      "settings, 3 Kafka or MongoDB refused as configured."
    })
final class ResinkCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Mixin ConfigOptions configOptions;

  @Option(
      names = "--mongodb-uri",
      paramLabel = "URI",
      description = {
        "The MongoDB to rebuild, instead of mongodb.uri: a new cluster, say.",
        "A password in it shows in the process list: prefer -s mongodb.uri=${dir:DIR:FILE}."
      })
  String mongodbUri;

  @Option(
      names = "--database",
      paramLabel = "NAME",
      description = "The database to rebuild, instead of mongodb.database.")
  String database;

  @Option(
      names = "--granularity",
      split = ",",
      paramLabel = "SIZE",
      description = "Only these granularities, comma-separated (default: all configured).")
  List<String> granularities = new ArrayList<>();

  @Option(
      names = "--from",
      paramLabel = "INSTANT",
      description = "Only windows that start at or after this, ISO-8601: 2026-11-01T00:00:00Z.")
  Instant from;

  @Option(
      names = "--to",
      paramLabel = "INSTANT",
      description = "Only windows that start before this, ISO-8601.")
  Instant to;

  @Option(names = "--dry-run", description = "Read and count only; connect to no MongoDB.")
  boolean dryRun;

  @Option(
      names = "--progress-every",
      defaultValue = "10s",
      paramLabel = "SPAN",
      converter = QueryRange.SpanConverter.class,
      description = "How often to print progress (default: ${DEFAULT-VALUE}).")
  Duration progressEvery;

  @Override
  public Integer call() {
    if (mongodbUri != null) {
      configOptions.overrides.put(MongoSettings.URI, mongodbUri);
    }
    if (database != null) {
      configOptions.overrides.put(MongoSettings.DATABASE, database);
    }
    final BucketerConfig config = configOptions.load();
    final ResinkSelection selection = selection(config.granularities());
    final PrintWriter out = spec.commandLine().getOut();
    final PrintWriter err = spec.commandLine().getErr();
    final ResinkCounts counts;
    try {
      counts =
          Resink.run(
              settings(config),
              selection,
              dryRun,
              progressEvery,
              line -> {
                out.println(line);
                out.flush();
              });
    } catch (AuthenticationException | AuthorizationException e) {
      // TLS, login or an ACL: running it again will not help.
      err.println("bucketer resink: kafka refused: " + e.getMessage());
      return CommandLines.FATAL_DEPENDENCY_FAILURE;
    } catch (ResinkException | KafkaException e) {
      err.println("bucketer resink: " + e.getMessage());
      return 1;
    } catch (MongoUnusableException e) {
      err.println("bucketer resink: " + e.getMessage());
      return CommandLines.FATAL_DEPENDENCY_FAILURE;
    }
    final long rejected = counts.total(ResinkCounts.Outcome.REJECTED);
    if (rejected > 0 || counts.undecodable() > 0) {
      err.printf(
          "bucketer resink: %,d buckets rejected by MongoDB, %,d records not buckets: see above%n",
          rejected, counts.undecodable());
      return 1;
    }
    return 0;
  }

  private ResinkSelection selection(final List<Granularity> configured) {
    final List<Granularity> chosen = new ArrayList<>();
    for (final String text : granularities) {
      final Granularity named;
      try {
        named = Granularity.parse(text.trim());
      } catch (IllegalArgumentException e) {
        throw new ParameterException(spec.commandLine(), "--granularity: " + e.getMessage());
      }
      chosen.add(
          configured.stream()
              .filter(g -> g.sizeMillis() == named.sizeMillis())
              .findFirst()
              .orElseThrow(
                  () ->
                      new ParameterException(
                          spec.commandLine(),
                          "--granularity "
                              + named
                              + " is not one of the granularities "
                              + configured)));
    }
    try {
      return new ResinkSelection(chosen, Optional.ofNullable(from), Optional.ofNullable(to));
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage());
    }
  }

  private static Resink.Settings settings(final BucketerConfig config) {
    return new Resink.Settings(
        config.kafkaProperties(),
        config.bucketsTopic(),
        config.applicationId() + "-resink",
        config.mongo().connection(),
        config.mongoDatabase(),
        config.collectionPrefix(),
        config.granularities(),
        config.retention(),
        config.sinkBatchSize(),
        config.sinkWritesInFlight(),
        config.sinkWriteTimeout(),
        config.sinkRetryBackoffMax());
  }
}
