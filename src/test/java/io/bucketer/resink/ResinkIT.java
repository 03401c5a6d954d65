package io.bucketer.resink;

import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.client.model.Filters;
import com.mongodb.client.model.Updates;
import com.mongodb.reactivestreams.client.MongoClient;
import com.mongodb.reactivestreams.client.MongoClients;
import io.bucketer.app.BucketerApp;
import io.bucketer.avro.Reading;
import io.bucketer.buckets.BucketDocumentNames;
import io.bucketer.buckets.Granularity;
import io.bucketer.config.WindowSettings;
import io.bucketer.query.StoredDocuments;
import io.bucketer.simulate.ReadingGenerator;
import io.bucketer.testing.CliRun;
import io.bucketer.testing.GeneratedReadings;
import io.bucketer.testing.InProcessRun;
import io.bucketer.testing.LocalInfrastructure;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.GroupListing;
import org.bson.BsonDocument;
import org.bson.BsonDouble;
import org.bson.BsonInt32;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import reactor.core.publisher.Mono;

/**
 * {@code bucketer resink} against the documents a real pipeline wrote: into an empty database it
 * rebuilds them equal, field for field, in every granularity (minutes of several buckets, hours and
 * days of summaries, late revisions); again, it changes nothing; beside the running processor it
 * changes nothing either and joins no consumer group; a newer revision in the target stays; a
 * granularity past its retention is skipped; a dry run writes nothing.
 */
@Tag("integration")
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class ResinkIT {

  private static final Granularity MINUTE = Granularity.parse("1m");
  private static final Granularity HOUR = Granularity.parse("1h");
  private static final Granularity DAY = Granularity.parse("1d");
  private static final List<Granularity> ALL = List.of(MINUTE, HOUR, DAY);

  private static LocalInfrastructure infrastructure;

  @TempDir Path dir;

  @BeforeAll
  static void startInfrastructure() {
    infrastructure = LocalInfrastructure.start();
  }

  @AfterAll
  static void stopInfrastructure() {
    infrastructure.close();
  }

  @Test
  void shouldRebuildTheDocumentsTheSinkWroteIdempotentlyAndBesideTheRunningProcessor()
      throws Exception {
    // 4 sensors every 5 s for about an hour across midnight; a tenth out of order by up to 100 s,
    // so that some windows close again with a higher revision.
    final List<Reading> readings =
        GeneratedReadings.of(
            new ReadingGenerator.Options(
                4,
                Instant.parse("2025-06-01T23:30:00Z"),
                Duration.ofSeconds(5),
                Duration.ZERO,
                0.1,
                20,
                3_000,
                11));
    try (InProcessRun run =
            new InProcessRun(
                infrastructure.endpoints(),
                dir.resolve("state"),
                2,
                Map.of(
                    WindowSettings.IDLE_TIMEOUT, "2s",
                    WindowSettings.GRANULARITIES, "1m,1h,1d",
                    WindowSettings.BUCKET_MAX_MEASUREMENTS, "5"));
        BucketerApp app = run.start()) {
      run.send(readings);
      run.awaitReadingsInBuckets(readings.size(), MINUTE, HOUR, DAY);
      final Map<Granularity, List<String>> original = documents(run.config().mongoDatabase());
      assertThat(original.get(MINUTE))
          .as("windows written as several buckets, and closed again")
          .anyMatch(document -> document.contains("\"seq\": 2"))
          .anyMatch(document -> !document.contains("\"revision\": 0"));
      final Set<String> groupsBefore = groups();

      // Beside the running processor, into its own database: nothing to change.
      final CliRun beside = resink(run);
      assertThat(beside.exitCode()).as(beside.out()).isZero();
      assertThat(beside.out()).contains("1m 0 written", "1h 0 written", "1d 0 written");
      assertThat(documents(run.config().mongoDatabase())).isEqualTo(original);
      assertThat(groups()).as("no consumer group joined or made").isEqualTo(groupsBefore);

      // Into an empty database: the same documents.
      final String rebuilt = run.config().mongoDatabase() + "-rebuilt";
      final CliRun first = resink(run, "--database", rebuilt);
      assertThat(first.exitCode()).as(first.out() + first.err()).isZero();
      assertThat(documents(rebuilt)).isEqualTo(original);
      assertThat(first.out())
          .containsPattern("1m [1-9][\\d,]* written")
          .containsPattern("1d [1-9][\\d,]* written")
          .contains("done in");

      // Again: nothing changes.
      final CliRun second = resink(run, "--database", rebuilt);
      assertThat(second.exitCode()).isZero();
      assertThat(second.out()).contains("1m 0 written", "1h 0 written", "1d 0 written");
      assertThat(documents(rebuilt)).isEqualTo(original);

      // A newer revision than the topic's, as a running sink may have written meanwhile, stays.
      final BsonDocument newer = BsonDocument.parse(original.get(HOUR).get(0));
      final int revision = newer.getInt32(BucketDocumentNames.REVISION).getValue() + 5;
      try (MongoClient client = MongoClients.create(infrastructure.mongoUri())) {
        Mono.from(
                client
                    .getDatabase(rebuilt)
                    .getCollection("buckets_1h", BsonDocument.class)
                    .updateOne(
                        Filters.eq("_id", newer.get("_id")),
                        Updates.combine(
                            Updates.set(BucketDocumentNames.REVISION, new BsonInt32(revision)),
                            Updates.set(BucketDocumentNames.SUM, new BsonDouble(-1)))))
            .block(Duration.ofSeconds(30));
      }
      final CliRun third = resink(run, "--database", rebuilt);
      assertThat(third.exitCode()).isZero();
      assertThat(
              documents(rebuilt).get(HOUR).stream()
                  .map(BsonDocument::parse)
                  .filter(document -> document.get("_id").equals(newer.get("_id"))))
          .singleElement()
          .satisfies(
              document -> {
                assertThat(document.getInt32(BucketDocumentNames.REVISION).getValue())
                    .isEqualTo(revision);
                assertThat(document.getDouble(BucketDocumentNames.SUM).getValue()).isEqualTo(-1);
              });

      // Minutes kept a day only: long expired, skipped; hours and days kept for ever.
      final String recent = run.config().mongoDatabase() + "-recent";
      final CliRun expiring = resink(run, "--database", recent, "-s", "retention=1m=1d");
      assertThat(expiring.exitCode()).isZero();
      final Map<Granularity, List<String>> recentDocuments = documents(recent);
      assertThat(recentDocuments.get(MINUTE)).isEmpty();
      assertThat(recentDocuments.get(HOUR)).isEqualTo(original.get(HOUR));
      assertThat(recentDocuments.get(DAY)).isEqualTo(original.get(DAY));
      assertThat(expiring.out()).contains("1m 0 written, 0 unchanged, ");

      // A dry run of the hours only: counted, nothing written.
      final String dry = run.config().mongoDatabase() + "-dry";
      final CliRun dryRun = resink(run, "--database", dry, "--dry-run", "--granularity", "1h");
      assertThat(dryRun.exitCode()).isZero();
      assertThat(dryRun.out())
          .containsPattern("1h [1-9][\\d,]* to write")
          .contains("1m 0 to write")
          .contains("dry run done, nothing written");
      assertThat(documents(dry).values()).allMatch(List::isEmpty);
    }
  }

  /** {@code bucketer resink} with the run's settings, and {@code more} options. */
  private static CliRun resink(final InProcessRun run, final String... more) {
    final List<String> args = new ArrayList<>(List.of("resink", "--progress-every", "1s"));
    run.settings()
        .forEach(
            (key, value) -> {
              args.add("-s");
              args.add(key + "=" + value);
            });
    args.addAll(List.of(more));
    return CliRun.of(args);
  }

  /** Every document of each granularity as JSON, in _id order: every field, in its order. */
  private static Map<Granularity, List<String>> documents(final String database) {
    final Map<Granularity, List<String>> documents = new LinkedHashMap<>();
    try (StoredDocuments store =
        new StoredDocuments(
            infrastructure.mongoUri(), database, BucketDocumentNames.DEFAULT_COLLECTION_PREFIX)) {
      for (final Granularity granularity : ALL) {
        documents.put(
            granularity,
            store.all(granularity).stream()
                .sorted(Comparator.comparing(document -> document.get("_id").toString()))
                .map(BsonDocument::toJson)
                .toList());
      }
    }
    return documents;
  }

  private static Set<String> groups() throws Exception {
    try (Admin admin = Admin.create(infrastructure.endpoints().testClientProperties())) {
      return admin.listGroups().all().get(30, TimeUnit.SECONDS).stream()
          .map(GroupListing::groupId)
          .collect(Collectors.toSet());
    }
  }
}
