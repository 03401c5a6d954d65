package io.bucketer.check;

import io.bucketer.config.BucketerConfig;
import io.bucketer.ingest.InputFormat;
import io.bucketer.ingest.MappedAvroDecoder;
import io.bucketer.ingest.RetryBudget;
import io.bucketer.ingest.SchemaRegistryClient;
import io.bucketer.ingest.SchemaRegistryClient.RegisteredSchema;
import io.bucketer.ingest.SchemaRegistryClient.RegisteredText;
import io.bucketer.ingest.protobuf.ProtobufDecoder;
import io.bucketer.sink.IndexCheck;
import io.bucketer.sink.MongoBucketWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Every check of {@code bucketer check}, in the order {@code run} needs its dependencies: the
 * settings (already valid when this runs), Kafka, the registry, MongoDB. A failing dependency's
 * later checks are left out rather than failed again for the same reason.
 */
public final class DependencyChecks {

  private final BucketerConfig config;
  private final Duration timeout;

  /**
   * @param timeout how long each dependency may take to answer one question
   */
  public DependencyChecks(final BucketerConfig config, final Duration timeout) {
    this.config = config;
    this.timeout = timeout;
  }

  public CheckReport run() {
    final List<CheckResult> results = new ArrayList<>();
    results.add(CheckResult.pass("settings", "settings", "every setting known and valid"));
    results.addAll(new KafkaChecks(config, timeout).run());
    if (config.inputFormat() == InputFormat.AVRO) {
      results.add(registry());
    } else if (config.inputFormat() == InputFormat.PROTOBUF
        && config.input().needsSchemaRegistry()) {
      results.add(protobufRegistry());
    }
    results.addAll(mongo());
    return new CheckReport(results);
  }

  /** The input subject's latest schema, and whether the input.* mapping finds its fields. */
  private CheckResult registry() {
    final String subject = config.inputTopic() + "-value";
    final SchemaRegistryClient registry = registryClient();
    try {
      final Optional<RegisteredSchema> latest = registry.latestSchema(subject);
      if (latest.isEmpty()) {
        return CheckResult.pass(
            "Schema Registry",
            "input schema",
            "no schema under " + subject + " yet: each writer schema is checked as it comes");
      }
      final RegisteredSchema schema = latest.get();
      return MappedAvroDecoder.mismatch(schema.id(), schema.schema(), config.readingMapping())
          .map(problem -> CheckResult.fail("Schema Registry", "input schema", problem))
          .orElseGet(
              () ->
                  CheckResult.pass(
                      "Schema Registry",
                      "input schema",
                      subject
                          + " version "
                          + schema.version()
                          + " (id "
                          + schema.id()
                          + "): the input.* fields are in it"));
    } catch (final Exception e) {
      return CheckResult.fail("Schema Registry", "input schema", oneLine(e));
    }
  }

  /**
   * The input subject's latest Protobuf schema, with its references: whether one of its messages
   * has the input.* fields.
   */
  private CheckResult protobufRegistry() {
    final String subject = config.inputTopic() + "-value";
    final SchemaRegistryClient registry = registryClient();
    try {
      final Optional<RegisteredText> latest = registry.latestSchemaText(subject);
      if (latest.isEmpty()) {
        return CheckResult.pass(
            "Schema Registry",
            "input schema",
            "no schema under " + subject + " yet: each schema is checked as it comes");
      }
      final RegisteredText schema = latest.get();
      return ProtobufDecoder.mismatch(
              schema.id(), schema.schema(), registry, config.readingMapping())
          .map(problem -> CheckResult.fail("Schema Registry", "input schema", problem))
          .orElseGet(
              () ->
                  CheckResult.pass(
                      "Schema Registry",
                      "input schema",
                      subject
                          + " version "
                          + schema.version()
                          + " (id "
                          + schema.id()
                          + "): a message of it has the input.* fields"));
    } catch (final Exception e) {
      return CheckResult.fail("Schema Registry", "input schema", oneLine(e));
    }
  }

  private SchemaRegistryClient registryClient() {
    return new SchemaRegistryClient(
        config.schemaRegistryUrl(),
        timeout,
        new RetryBudget(Duration.ofMillis(200), Duration.ofSeconds(1), timeout),
        config.input().schemaRegistryAuth(),
        config.input().schemaRegistryTls());
  }

  private List<CheckResult> mongo() {
    final List<CheckResult> results = new ArrayList<>();
    try (MongoBucketWriter writer =
        MongoBucketWriter.connect(
            config.mongo().connection(),
            config.mongoDatabase(),
            config.collectionPrefix(),
            config.granularities(),
            config.retention(),
            config.sinkBatchSize(),
            config.sinkWritesInFlight(),
            timeout)) {
      final IndexCheck indexes = writer.checkIndexes(timeout);
      results.add(
          CheckResult.pass(
              "MongoDB", "connection", "database " + config.mongoDatabase() + " answers"));
      results.add(indexes(indexes));
    } catch (final RuntimeException e) {
      results.add(CheckResult.fail("MongoDB", "connection", oneLine(e)));
    }
    return results;
  }

  private static CheckResult indexes(final IndexCheck indexes) {
    if (indexes.missing().isEmpty()) {
      return CheckResult.pass("MongoDB", "indexes", "every bucket collection has its index");
    }
    final String missing = "missing on " + String.join(", ", indexes.missing());
    return indexes
        .mayCreate()
        .map(
            may ->
                may
                    ? CheckResult.pass("MongoDB", "indexes", missing + ": run creates them")
                    : CheckResult.fail(
                        "MongoDB",
                        "indexes",
                        missing + ", and this login may not create indexes (createIndex)"))
        .orElseGet(
            () ->
                CheckResult.pass(
                    "MongoDB",
                    "indexes",
                    missing + ": run creates them (the server did not describe the privileges)"));
  }

  private static String oneLine(final Exception e) {
    final String message = e.getMessage() == null ? "no reason given" : e.getMessage();
    return message.lines().findFirst().orElse(message);
  }
}
