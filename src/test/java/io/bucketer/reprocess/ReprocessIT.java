package io.bucketer.reprocess;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.bucketer.app.BucketerApp;
import io.bucketer.avro.Reading;
import io.bucketer.buckets.Granularity;
import io.bucketer.config.InputSettings;
import io.bucketer.config.WindowSettings;
import io.bucketer.metrics.BucketerMetrics;
import io.bucketer.testing.BucketStoreAssertions;
import io.bucketer.testing.CliRun;
import io.bucketer.testing.InProcessRun;
import io.bucketer.testing.LocalInfrastructure;
import io.bucketer.testing.Meters;
import io.bucketer.topics.DeadLetterHeaders;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.bson.BsonDocument;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bucketer reprocess} as an operator uses it after a bug fix: gateways send JSON readings
 * with two numbers, {@code raw} and {@code value}, and the processor was configured to take {@code
 * raw}. Stopped, moved back to the first reading with {@code reprocess --from}, and started with
 * {@code value}, it replaces every document the bug wrote: the same readings in each, every sum,
 * minimum and maximum now of {@code value}, each document at a higher revision, no reading counted
 * twice, and a record neither version reads dead-lettered a second time. It refuses while the
 * processor runs, for an instant beyond the lateness horizon, with keep-first and once retention
 * deleted part of the range; a dry run moves nothing.
 */
@Tag("integration")
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class ReprocessIT {

  private static final Granularity MINUTE = Granularity.parse("1m");
  private static final Granularity TEN_MINUTES = Granularity.parse("10m");

  /**
   * The bug: the raw field, ten times the value. Idle timeout short: the readings are three hours
   * old, so each series' last windows close by the wall clock once it stops sending, and the first
   * run ends with every window written.
   */
  private static final Map<String, String> BUGGY =
      Map.of(
          InputSettings.FORMAT, "json",
          InputSettings.VALUE_FIELDS, "raw",
          WindowSettings.GRANULARITIES, "1m,10m",
          WindowSettings.IDLE_TIMEOUT, "2s");

  private static final Map<String, String> FIXED = Map.of(InputSettings.VALUE_FIELDS, "value");

  private static LocalInfrastructure infrastructure;

  @TempDir Path stateDir;

  @BeforeAll
  static void start() {
    infrastructure = LocalInfrastructure.start();
  }

  @AfterAll
  static void stop() {
    infrastructure.close();
  }

  @Test
  void shouldReplaceWhatTheBugWroteWithoutCountingAnyReadingTwice() throws Exception {
    // Three hours ago: well within lateness.horizon (24 h) of the wall clock.
    final Instant history = Instant.now().truncatedTo(ChronoUnit.HOURS).minus(Duration.ofHours(3));
    final List<Reading> readings = readings(history);
    final List<ProducerRecord<byte[], byte[]>> records =
        new ArrayList<>(readings.stream().map(ReprocessIT::gatewayRecord).toList());
    // Neither version can read it: dead-lettered once by each.
    records.add(noSensorId(history));
    try (InProcessRun run = new InProcessRun(infrastructure.endpoints(), stateDir, 2, BUGGY)) {
      // Records take the producer's clock as their timestamps: the first one is at or after this.
      final Instant from = Instant.now().minusSeconds(1).truncatedTo(ChronoUnit.MILLIS);
      try (BucketerApp app = run.start()) {
        run.sendRecords(records);
        run.awaitReadingsInBuckets(readings.size(), MINUTE, TEN_MINUTES);
        BucketStoreAssertions.assertStoreEqualsComputation(
            run.store(), raw(readings), MINUTE, TEN_MINUTES);
        await("the record without a sensor id dead-lettered")
            .atMost(InProcessRun.DEADLINE)
            .until(() -> run.deadLetters().size() == 1);

        final CliRun running = cli(run, "reprocess", "--from", from.toString());
        assertThat(running.exitCode()).as(running.out()).isEqualTo(1);
        assertThat(running.err())
            .startsWith("bucketer reprocess: group " + run.config().applicationId() + " is in use")
            .contains("stop every instance first");
      }
      final Map<String, BsonDocument> written = documents(run);
      final Map<TopicPartition, Long> committed = committed(run);
      assertThat(committed.values().stream().mapToLong(Long::longValue).sum())
          .isEqualTo(records.size());

      final Instant beyond = Instant.now().minus(Duration.ofHours(25));
      final CliRun tooFar = cli(run, "reprocess", "--from", beyond.toString());
      assertThat(tooFar.exitCode()).isEqualTo(1);
      assertThat(tooFar.err())
          .startsWith("bucketer reprocess: --from " + beyond + " is further back than")
          .contains("lateness.horizon (1d)", "too-late", "docs/reprocessing.md");
      assertThat(committed(run)).isEqualTo(committed);

      // keep-first would keep the raw values held and drop every reading read again.
      final CliRun keepFirst =
          cli(
              run,
              "reprocess",
              "--from",
              from.toString(),
              "-s",
              WindowSettings.DUPLICATE_TIMESTAMPS + "=keep-first");
      assertThat(keepFirst.exitCode()).isEqualTo(1);
      assertThat(keepFirst.err())
          .startsWith("bucketer reprocess: duplicate.timestamps=keep-first:")
          .contains("reprocessing needs keep-last", "docs/reprocessing.md");
      assertThat(keepFirst.out()).isEmpty();
      assertThat(committed(run)).isEqualTo(committed);

      final CliRun dryRun = cli(run, "reprocess", "--from", from.toString(), "--dry-run");
      assertThat(dryRun.exitCode()).as(dryRun.err()).isZero();
      committed.forEach(
          (partition, offset) ->
              assertThat(dryRun.out())
                  .contains(
                      String.format(
                          "partition %d: committed %,d, would move to 0: %,d records to read"
                              + " again",
                          partition.partition(), offset, offset)));
      assertThat(dryRun.out())
          .contains(
              String.format(
                  "dry run: %d partitions would move back, %,d records would be read again;"
                      + " nothing was moved",
                  committed.size(), records.size()));
      assertThat(committed(run)).isEqualTo(committed);

      final CliRun reprocess = cli(run, "reprocess", "--from", from.toString());
      assertThat(reprocess.exitCode()).as(reprocess.err()).isZero();
      assertThat(reprocess.out())
          .contains(
              String.format(
                  "done: %d partitions moved back, %,d records will be read again",
                  committed.size(), records.size()));
      assertThat(committed(run).values()).containsOnly(0L);

      final SimpleMeterRegistry meters = new SimpleMeterRegistry();
      try (BucketerApp app = run.start(FIXED, meters)) {
        await("every document of the values, not the raw fields")
            .atMost(InProcessRun.DEADLINE)
            .untilAsserted(
                () ->
                    BucketStoreAssertions.assertStoreEqualsComputation(
                        run.store(), readings, MINUTE, TEN_MINUTES));
        // Each reading read again replaced the one held at its time; none was counted anew.
        assertThat(Meters.count(meters, BucketerMetrics.READINGS, "outcome", "replaced"))
            .isGreaterThanOrEqualTo(readings.size());
        assertThat(Meters.count(meters, BucketerMetrics.READINGS, "outcome", "on-time")).isZero();
        assertThat(Meters.count(meters, BucketerMetrics.READINGS, "outcome", "late-merged"))
            .isZero();
        assertThat(run.store().readingsInBuckets(MINUTE)).isEqualTo(readings.size());
        assertThat(run.store().readingsInBuckets(TEN_MINUTES)).isEqualTo(readings.size());
        final Map<String, BsonDocument> replaced = documents(run);
        assertThat(replaced.keySet()).isEqualTo(written.keySet());
        replaced.forEach(
            (id, document) -> {
              final BsonDocument before = written.get(id);
              assertThat(document.getNumber("count")).as(id).isEqualTo(before.getNumber("count"));
              assertThat(document.getInt32("revision").getValue())
                  .as("%s written again", id)
                  .isGreaterThan(before.getInt32("revision").getValue());
            });
        // The record that fails again is dead-lettered again: a second copy of the same origin.
        await("the record without a sensor id dead-lettered again")
            .atMost(InProcessRun.DEADLINE)
            .until(() -> run.deadLetters().size() == 2);
        final List<String> letters =
            run.deadLetters().stream()
                .map(
                    letter ->
                        header(letter, DeadLetterHeaders.REASON)
                            + " from "
                            + header(letter, DeadLetterHeaders.SOURCE_PARTITION)
                            + "/"
                            + header(letter, DeadLetterHeaders.SOURCE_OFFSET))
                .toList();
        assertThat(letters).hasSize(2);
        assertThat(letters.get(0)).startsWith("missing-field from ");
        assertThat(letters.get(1)).isEqualTo(letters.get(0));
      }

      // Retention deletes the first record of a partition: the range is no longer whole.
      final TopicPartition shortened =
          committed.keySet().stream().filter(p -> committed.get(p) > 1).findFirst().orElseThrow();
      try (Admin admin = Admin.create(infrastructure.endpoints().testClientProperties())) {
        admin
            .deleteRecords(Map.of(shortened, RecordsToDelete.beforeOffset(1)))
            .all()
            .get(30, TimeUnit.SECONDS);
      }
      final Map<TopicPartition, Long> processed = committed(run);
      final CliRun retained = cli(run, "reprocess", "--from", from.toString());
      assertThat(retained.exitCode()).isEqualTo(1);
      assertThat(retained.err())
          .startsWith(
              "bucketer reprocess: the input topic "
                  + run.config().inputTopic()
                  + " may no longer hold the records from "
                  + from)
          .contains("partition " + shortened.partition() + " keeps them from");
      assertThat(committed(run)).isEqualTo(processed);
    }
  }

  /** Four sensors, a reading every 10 s for 20 minutes: 480 readings. */
  private static List<Reading> readings(final Instant history) {
    final List<Reading> readings = new ArrayList<>();
    for (int sensor = 1; sensor <= 4; sensor++) {
      for (int i = 0; i < 120; i++) {
        readings.add(
            Reading.newBuilder()
                .setSensorId("sensor-" + sensor)
                .setMetric("temperature")
                .setTimestamp(history.plusSeconds(10L * i))
                .setValue(20 + sensor + (i % 13) * 0.5)
                .build());
      }
    }
    return readings;
  }

  /** The readings as the bug read them: the raw field, ten times the value. */
  private static List<Reading> raw(final List<Reading> readings) {
    return readings.stream()
        .map(reading -> Reading.newBuilder(reading).setValue(reading.getValue() * 10).build())
        .toList();
  }

  /** A gateway's record: keyed by its sensor, so that its readings stay in order. */
  private static ProducerRecord<byte[], byte[]> gatewayRecord(final Reading reading) {
    final String json =
        String.format(
            "{\"sensor_id\":\"%s\",\"metric\":\"%s\",\"timestamp\":\"%s\",\"raw\":%s,"
                + "\"value\":%s}",
            reading.getSensorId(),
            reading.getMetric(),
            reading.getTimestamp(),
            reading.getValue() * 10,
            reading.getValue());
    return new ProducerRecord<>(
        "",
        reading.getSensorId().getBytes(StandardCharsets.UTF_8),
        json.getBytes(StandardCharsets.UTF_8));
  }

  /** A gateway's record without a sensor id, which no mapping of the value field mends. */
  private static ProducerRecord<byte[], byte[]> noSensorId(final Instant history) {
    final String json =
        String.format(
            "{\"metric\":\"temperature\",\"timestamp\":\"%s\",\"raw\":210,\"value\":21}", history);
    return new ProducerRecord<>(
        "", "gateway-9".getBytes(StandardCharsets.UTF_8), json.getBytes(StandardCharsets.UTF_8));
  }

  private static String header(final ConsumerRecord<byte[], byte[]> record, final String name) {
    return new String(record.headers().lastHeader(name).value(), StandardCharsets.UTF_8);
  }

  /** Every document of both granularities by granularity and _id. */
  private static Map<String, BsonDocument> documents(final InProcessRun run) {
    final Map<String, BsonDocument> documents = new TreeMap<>();
    for (final Granularity granularity : List.of(MINUTE, TEN_MINUTES)) {
      run.store()
          .all(granularity)
          .forEach(document -> documents.put(granularity + " " + document.get("_id"), document));
    }
    return documents;
  }

  /** The processor's committed offsets on its input topic. */
  private static Map<TopicPartition, Long> committed(final InProcessRun run) throws Exception {
    try (Admin admin = Admin.create(infrastructure.endpoints().testClientProperties())) {
      return admin
          .listConsumerGroupOffsets(run.config().applicationId())
          .partitionsToOffsetAndMetadata()
          .get(30, TimeUnit.SECONDS)
          .entrySet()
          .stream()
          .filter(e -> e.getKey().topic().equals(run.config().inputTopic()))
          .collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().offset()));
    }
  }

  /** A command with the run's settings, the value field fixed as the restarted processor has it. */
  private static CliRun cli(final InProcessRun run, final String... args) {
    final Map<String, String> settings = new TreeMap<>(run.settings());
    settings.putAll(FIXED);
    return CliRun.withSettings(settings, args);
  }
}
