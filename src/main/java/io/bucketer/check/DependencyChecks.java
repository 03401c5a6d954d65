package io.bucketer.check;

import io.bucketer.config.BucketerConfig;
import io.bucketer.ingest.InputFormat;
import io.bucketer.ingest.JsonSchemaValidator;
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
    results.add(
        CheckResult.pass("settings", "series limits", config.windows().seriesLimits().describe()));
    results.addAll(new KafkaChecks(config, timeout).run());
    if (config.inputFormat() == InputFormat.AVRO) {
      results.add(registry());
    } else if (config.inputFormat() == InputFormat.PROTOBUF
        && config.input().needsSchemaRegistry()) {
      results.add(protobufRegistry());
    } else if (config.inputFormat() == InputFormat.JSON_SCHEMA
        && config.input().needsSchemaRegistry()) {
      results.add(jsonSchemaRegistry());
    }
    results.addAll(mongo());
    return new CheckReport(results);
  }

  /** The input subject's latest Avro schema: whether the input.* mapping finds its fields. */
  private CheckResult registry() {
    return inputSchema(
        "the input.* fields are in it",
        (registry, subject) -> {
          final Optional<RegisteredSchema> latest = registry.latestSchema(subject);
          if (latest.isEmpty()) {
            return Optional.empty();
          }
          final RegisteredSchema schema = latest.get();
          return Optional.of(
              new LatestSchema(
                  schema.id(),
                  schema.version(),
                  MappedAvroDecoder.mismatch(
                      schema.id(), schema.schema(), config.readingMapping())));
        });
  }

  /**
   * The input subject's latest Protobuf schema, with its references: whether one of its messages
   * has the input.* fields.
   */
  private CheckResult protobufRegistry() {
    return inputSchema(
        "a message of it has the input.* fields",
        (registry, subject) ->
            registry
                .latestSchemaText(subject)
                .map(
                    schema ->
                        new LatestSchema(
                            schema.id(),
                            schema.version(),
                            ProtobufDecoder.mismatch(
                                schema.id(), schema.schema(), registry, config.readingMapping()))));
  }

  /**
   * The input subject's latest JSON schema, with its references, as input.json.schema.validate will
   * apply it: whether it compiles, and a closed schema declares the input.* fields.
   */
  private CheckResult jsonSchemaRegistry() {
    return inputSchema(
        "it compiles, and allows the input.* fields",
        (registry, subject) -> {
          final Optional<RegisteredText> latest = registry.latestSchemaText(subject);
          if (latest.isEmpty()) {
            return Optional.empty();
          }
          final RegisteredText schema = latest.get();
          return Optional.of(
              new LatestSchema(
                  schema.id(),
                  schema.version(),
                  new JsonSchemaValidator(registry)
                      .mismatch(schema.id(), config.readingMapping())));
        });
  }

  /**
   * One check of the input subject's latest schema, whatever its type: none yet passes (each writer
   * schema is then checked as it comes), a mismatch fails with its reason.
   */
  private CheckResult inputSchema(final String fits, final LatestSchemaLookup lookup) {
    final String subject = config.inputTopic() + "-value";
    try {
      final Optional<LatestSchema> latest = lookup.latest(registryClient(), subject);
      if (latest.isEmpty()) {
        return CheckResult.pass(
            "Schema Registry",
            "input schema",
            "no schema under " + subject + " yet: each schema is checked as it comes");
      }
      final LatestSchema schema = latest.get();
      return schema
          .mismatch()
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
                          + "): "
                          + fits));
    } catch (final Exception e) {
      return CheckResult.fail("Schema Registry", "input schema", oneLine(e));
    }
  }

  /** The latest schema of a subject, judged against the mapping. */
  private record LatestSchema(int id, int version, Optional<String> mismatch) {}

  /** Finds and judges the latest schema of a subject; empty when the subject has none. */
  @FunctionalInterface
  private interface LatestSchemaLookup {
    Optional<LatestSchema> latest(SchemaRegistryClient registry, String subject) throws Exception;
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
