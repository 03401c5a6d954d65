package io.bucketer.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.bucketer.app.BucketerApp;
import io.bucketer.avro.Reading;
import io.bucketer.buckets.Granularity;
import io.bucketer.config.InputSettings;
import io.bucketer.config.WindowSettings;
import io.bucketer.deadletters.DeadLetter;
import io.bucketer.metrics.BucketerMetrics;
import io.bucketer.testing.BucketStoreAssertions;
import io.bucketer.testing.CliRun;
import io.bucketer.testing.InProcessRun;
import io.bucketer.testing.LocalInfrastructure;
import io.bucketer.testing.Meters;
import io.bucketer.topics.DeadLetterTopic;
import io.bucketer.topics.ReplayHeaders;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.StreamSupport;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.bson.BsonDocument;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bucketer dead-letters} against a real broker and the MongoDB stand-in, as an operator uses
 * it after a wrong mapping: JSON readings whose sensor id field the processor did not know are all
 * dead-lettered; the processor restarts with the fixed mapping; the replay puts every reading in
 * exactly one bucket, a second replay changes no document, and a record that fails again is
 * dead-lettered once, with its new reason, and not sent by the second replay.
 */
@Tag("integration")
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class DeadLettersReplayIT {

  private static final Granularity MINUTE = Granularity.parse("1m");
  private static final Granularity HOUR = Granularity.parse("1h");
  private static final Instant HISTORY = Instant.parse("2025-06-01T09:00:00Z");
  private static final ObjectMapper JSON = new ObjectMapper();

  /** The gateways' field for the sensor id: not input.sensor.id.field's default, sensor_id. */
  private static final Map<String, String> FIXED = Map.of(InputSettings.SENSOR_ID_FIELD, "device");

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
  void shouldReplayAfterAMappingFixIntoExactlyOneBucketEachAndChangeNothingWhenReplayedAgain()
      throws Exception {
    final List<Reading> readings = readings();
    final List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
    readings.forEach(reading -> records.add(gatewayRecord(reading.getSensorId(), json(reading))));
    // Fails with either mapping: missing-field first, not-a-number once the sensor id is found.
    final ProducerRecord<byte[], byte[]> broken =
        gatewayRecord(
            "gw-broken",
            "{\"device\":\"gw-broken\",\"metric\":\"temperature\","
                + "\"timestamp\":\"2025-06-01T09:00:00Z\",\"value\":\"high\"}");
    records.add(broken);

    try (InProcessRun run =
        new InProcessRun(
            infrastructure.endpoints(),
            stateDir,
            2,
            Map.of(InputSettings.FORMAT, "json", WindowSettings.IDLE_TIMEOUT, "2s"))) {
      // Before the processor's first start there is no dead-letter topic: said, and not created.
      final CliRun beforeStart = cli(run, "dead-letters", "summary");
      assertThat(beforeStart.exitCode()).isEqualTo(1);
      assertThat(beforeStart.err())
          .isEqualTo(
              String.format(
                  "bucketer: dead-letter topic %s does not exist: run creates it at start"
                      + " (is dead.letter.topic the processor's?)%n",
                  run.config().deadLetterTopic()));

      final SimpleMeterRegistry wrongMeters = new SimpleMeterRegistry();
      try (BucketerApp app = run.start(wrongMeters)) {
        run.sendRecords(records);
        await()
            .atMost(InProcessRun.DEADLINE)
            .until(() -> run.deadLetters().size() == records.size());
        // bucketer_dead_letters_total{reason="missing-field"}: counted when forwarded, so a
        // transaction Kafka Streams aborted and repeated would count its records again
        assertThat(
                Meters.count(wrongMeters, BucketerMetrics.DEAD_LETTERS, "reason", "missing-field"))
            .isGreaterThanOrEqualTo(records.size());
        assertThat(
                Meters.count(wrongMeters, BucketerMetrics.DEAD_LETTERS, "reason", "not-a-number"))
            .isZero();
      }
      assertThat(run.store().documents(MINUTE)).isZero();

      final CliRun summary = cli(run, "dead-letters", "summary", "--json");
      assertThat(summary.exitCode()).as(summary.err()).isZero();
      final JsonNode counts = JSON.readTree(summary.out());
      assertThat(counts.get("records").asLong()).isEqualTo(records.size());
      assertThat(counts.get("by_reason").get("missing-field").asLong()).isEqualTo(records.size());
      assertThat(sum(counts.get("by_hour"))).isEqualTo(records.size());
      assertThat(counts.get("by_source").fieldNames())
          .toIterable()
          .containsExactlyInAnyOrder(
              run.config().inputTopic() + "-0", run.config().inputTopic() + "-1");
      assertThat(sum(counts.get("by_source"))).isEqualTo(records.size());

      // The same records, chosen by partitions of the dead-letter topic and by time.
      assertThat(recordsCounted(run, "--partition", "0") + recordsCounted(run, "--partition", "1-"))
          .isEqualTo(records.size());
      final String hour = counts.get("by_hour").fieldNames().next();
      assertThat(recordsCounted(run, "--from", hour)).isEqualTo(records.size());
      assertThat(recordsCounted(run, "--to", hour)).isZero();
      assertThat(recordsCounted(run, "--from", Instant.now().plusSeconds(3600).toString()))
          .isZero();

      final CliRun show =
          cli(run, "dead-letters", "show", "--reason", "missing-field", "--limit", "2");
      assertThat(show.exitCode()).as(show.err()).isZero();
      assertThat(show.out())
          .contains("missing-field")
          .contains("gateway: gw-7")
          .containsPattern("decodes now +1 reading: sensor-000\\d/temperature 2025-06-01T09:")
          .contains("2 records shown");
      final CliRun showJson =
          cli(run, "dead-letters", "show", "--reason", "missing-field", "--limit", "2", "--json");
      assertThat(showJson.exitCode()).as(showJson.err()).isZero();
      final List<JsonNode> shown = new ArrayList<>();
      for (final String line : showJson.out().split("\\R")) {
        shown.add(JSON.readTree(line));
      }
      assertThat(shown).hasSize(2);
      assertThat(shown)
          .allSatisfy(
              letter -> {
                assertThat(letter.get("reason").asText()).isEqualTo("missing-field");
                assertThat(letter.get("source").get("topic").asText())
                    .isEqualTo(run.config().inputTopic());
                assertThat(letter.get("headers").get("gateway").asText()).isEqualTo("gw-7");
                assertThat(letter.get("decodes_now").asText()).startsWith("1 reading: sensor-000");
              });

      final SimpleMeterRegistry fixedMeters = new SimpleMeterRegistry();
      try (BucketerApp app = run.start(FIXED, fixedMeters)) {
        final int inputRecords = inputRecords(run).size();
        final CliRun dryRun = cli(run, "dead-letters", "replay", "--dry-run");
        assertThat(dryRun.exitCode()).as(dryRun.err()).isZero();
        assertThat(dryRun.out())
            .contains(
                "dry run: "
                    + records.size()
                    + " records would be replayed to "
                    + run.config().inputTopic());
        assertThat(inputRecords(run)).hasSize(inputRecords);

        final CliRun replay = cli(run, "dead-letters", "replay");
        assertThat(replay.exitCode()).as(replay.err()).isZero();
        assertThat(replay.out())
            .contains(
                "done: " + records.size() + " records replayed to " + run.config().inputTopic());
        run.awaitReadingsInBuckets(readings.size(), MINUTE, HOUR);
        BucketStoreAssertions.assertStoreEqualsComputation(run.store(), readings, MINUTE, HOUR);
        assertReplayedAsTheOriginals(run);

        await()
            .atMost(InProcessRun.DEADLINE)
            .until(() -> run.deadLetters().size() == records.size() + 1);
        final List<DeadLetter> letters = run.deadLetters().stream().map(DeadLetter::of).toList();
        final DeadLetter failedAgain =
            letters.stream().filter(l -> l.replayOf().isPresent()).findFirst().orElseThrow();
        assertThat(letters).filteredOn(l -> l.replayOf().isPresent()).containsExactly(failedAgain);
        assertThat(failedAgain.reason()).isEqualTo("not-a-number");
        assertThat(failedAgain.value()).isEqualTo(broken.value());
        final DeadLetter original =
            letters.stream()
                .filter(l -> l.replayOf().isEmpty())
                .filter(l -> Arrays.equals(l.value(), broken.value()))
                .findFirst()
                .orElseThrow();
        assertThat(failedAgain.replayOf()).contains(original.coordinates());

        final List<BsonDocument> minutes = documents(run, MINUTE);
        final List<BsonDocument> hours = documents(run, HOUR);
        final CliRun again = cli(run, "dead-letters", "replay");
        assertThat(again.exitCode()).as(again.err()).isZero();
        assertThat(again.out())
            .contains(
                "done: " + readings.size() + " records replayed to " + run.config().inputTopic())
            .contains("not replayed: 1 failed replays")
            .contains("not replayed: 1 replayed before");
        await("every reading of the second replay counted as resent")
            .atMost(InProcessRun.DEADLINE)
            .until(
                () ->
                    Meters.count(fixedMeters, BucketerMetrics.READINGS, "outcome", "resent")
                        == readings.size());
        assertThat(documents(run, MINUTE)).isEqualTo(minutes);
        assertThat(documents(run, HOUR)).isEqualTo(hours);
        assertThat(run.store().readingsInBuckets(MINUTE)).isEqualTo(readings.size());
        assertThat(run.deadLetters()).hasSize(records.size() + 1);
      }
    }
  }

  /**
   * A gateway that floods new series past its tenant's limit: the readings of the series refused
   * are dead-lettered as {@code series-limit}, every other reading is bucketed; once the limit is
   * raised, {@code replay --reason series-limit} puts each refused reading in exactly one bucket.
   * The dead letters hold the reading as bucketer's JSON (its sensor id under "sensor_id"), which
   * the processor reads as such though its own mapping takes the sensor id from "device".
   */
  @Test
  void shouldBucketTheReadingsASeriesLimitRefusedOnceTheLimitIsRaisedAndTheyAreReplayed()
      throws Exception {
    final List<Reading> wellBehaved = readings();
    final List<Reading> flood = new ArrayList<>();
    for (int series = 0; series < 12; series++) {
      for (int i = 0; i < 3; i++) {
        flood.add(
            Reading.newBuilder()
                .setSensorId("gw9-" + series)
                .setMetric("temperature")
                .setTimestamp(HISTORY.plusSeconds(5L * i))
                .setValue(series + i * 0.5)
                .build());
      }
    }
    final List<Reading> all = new ArrayList<>(wellBehaved);
    all.addAll(flood);
    final List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
    all.forEach(reading -> records.add(gatewayRecord(reading.getSensorId(), json(reading))));

    final Map<String, String> settings = new LinkedHashMap<>(FIXED);
    settings.put(InputSettings.FORMAT, "json");
    settings.put(WindowSettings.IDLE_TIMEOUT, "2s");
    // Two series among six partitions: each task may start one series of gw9-.
    settings.put(WindowSettings.SERIES_LIMIT_TENANTS, "gw9-=2/1000");
    try (InProcessRun run = new InProcessRun(infrastructure.endpoints(), stateDir, 2, settings)) {
      try (BucketerApp app = run.start()) {
        run.sendRecords(records);
        await("every gw9- reading bucketed or dead-lettered, every other bucketed")
            .atMost(InProcessRun.DEADLINE)
            .until(
                () ->
                    run.store().readingsInBuckets(MINUTE) + run.deadLetters().size() == all.size()
                        && run.store().readingsInBuckets(HOUR)
                            == run.store().readingsInBuckets(MINUTE));
      }
      final List<DeadLetter> refused = run.deadLetters().stream().map(DeadLetter::of).toList();
      assertThat(refused).hasSizeBetween(6 * 3, 11 * 3);
      assertThat(refused)
          .allSatisfy(
              letter -> {
                assertThat(letter.reason()).isEqualTo("series-limit");
                assertThat(new String(letter.key(), StandardCharsets.UTF_8)).startsWith("gw9-");
                assertThat(
                        new String(
                            letter.headers().lastHeader("bucketer.dlq.tenant").value(),
                            StandardCharsets.UTF_8))
                    .isEqualTo("gw9-");
              });

      final Map<String, String> raised = new LinkedHashMap<>(settings);
      raised.put(WindowSettings.SERIES_LIMIT_TENANTS, "gw9-=1000/1000");
      try (BucketerApp app = run.start(raised, new SimpleMeterRegistry())) {
        final CliRun replay = cli(run, "dead-letters", "replay", "--reason", "series-limit");
        assertThat(replay.exitCode()).as(replay.err()).isZero();
        assertThat(replay.out())
            .contains(
                "done: " + refused.size() + " records replayed to " + run.config().inputTopic());
        run.awaitReadingsInBuckets(all.size(), MINUTE, HOUR);
        BucketStoreAssertions.assertStoreEqualsComputation(run.store(), all, MINUTE, HOUR);
        assertThat(run.deadLetters()).hasSize(refused.size());
      }
    }
  }

  /**
   * Every replayed input record is its original, sent once: key, value, timestamp and headers,
   * without the dead-letter headers, with the replay's.
   */
  private static void assertReplayedAsTheOriginals(final InProcessRun run) {
    final List<ConsumerRecord<byte[], byte[]>> input = inputRecords(run);
    final List<ConsumerRecord<byte[], byte[]>> replayed =
        input.stream().filter(r -> r.headers().lastHeader(ReplayHeaders.OF) != null).toList();
    final List<ConsumerRecord<byte[], byte[]>> originals =
        input.stream().filter(r -> r.headers().lastHeader(ReplayHeaders.OF) == null).toList();
    assertThat(replayed)
        .extracting(DeadLettersReplayIT::keyValueAndTime)
        .containsExactlyInAnyOrderElementsOf(
            originals.stream().map(DeadLettersReplayIT::keyValueAndTime).toList());
    assertThat(replayed)
        .allSatisfy(
            r -> {
              assertThat(text(r, "gateway")).isEqualTo("gw-7");
              assertThat(text(r, ReplayHeaders.REASON)).isEqualTo("missing-field");
              assertThat(StreamSupport.stream(r.headers().spliterator(), false))
                  .noneMatch(h -> h.key().startsWith("bucketer.dlq."));
            });
  }

  private static String keyValueAndTime(final ConsumerRecord<byte[], byte[]> record) {
    return new String(record.key(), StandardCharsets.UTF_8)
        + " "
        + new String(record.value(), StandardCharsets.UTF_8)
        + " "
        + record.timestamp();
  }

  private static String text(final ConsumerRecord<byte[], byte[]> record, final String header) {
    return new String(record.headers().lastHeader(header).value(), StandardCharsets.UTF_8);
  }

  private static List<ConsumerRecord<byte[], byte[]>> inputRecords(final InProcessRun run) {
    return DeadLetterTopic.committedRecords(
        infrastructure.endpoints().testClientProperties(), run.config().inputTopic());
  }

  private static List<BsonDocument> documents(
      final InProcessRun run, final Granularity granularity) {
    final List<BsonDocument> documents = new ArrayList<>(run.store().all(granularity));
    documents.sort(Comparator.comparing(d -> d.get("_id").toString()));
    return documents;
  }

  /** The records {@code summary} counts with these options. */
  private static long recordsCounted(final InProcessRun run, final String... options)
      throws Exception {
    final List<String> args = new ArrayList<>(List.of("dead-letters", "summary", "--json"));
    args.addAll(List.of(options));
    final CliRun summary = cli(run, args.toArray(new String[0]));
    assertThat(summary.exitCode()).as(summary.err()).isZero();
    return JSON.readTree(summary.out()).get("records").asLong();
  }

  private static long sum(final JsonNode counts) {
    long sum = 0;
    for (final JsonNode count : counts) {
      sum += count.asLong();
    }
    return sum;
  }

  /** Three sensors, a reading every 5 s for six minutes. */
  private static List<Reading> readings() {
    final List<Reading> readings = new ArrayList<>();
    for (int sensor = 1; sensor <= 3; sensor++) {
      for (int i = 0; i < 72; i++) {
        readings.add(
            Reading.newBuilder()
                .setSensorId("sensor-000" + sensor)
                .setMetric("temperature")
                .setTimestamp(HISTORY.plusSeconds(5L * i))
                .setValue(20 + sensor + (i % 17) * 0.25)
                .build());
      }
    }
    return readings;
  }

  /** What the gateways send: the sensor id under "device", not the default mapping's field. */
  private static String json(final Reading reading) {
    return "{\"device\":\""
        + reading.getSensorId()
        + "\",\"metric\":\""
        + reading.getMetric()
        + "\",\"timestamp\":\""
        + reading.getTimestamp()
        + "\",\"value\":"
        + reading.getValue()
        + "}";
  }

  private static ProducerRecord<byte[], byte[]> gatewayRecord(
      final String key, final String value) {
    final ProducerRecord<byte[], byte[]> record =
        new ProducerRecord<>(
            "", key.getBytes(StandardCharsets.UTF_8), value.getBytes(StandardCharsets.UTF_8));
    record.headers().add(new RecordHeader("gateway", "gw-7".getBytes(StandardCharsets.UTF_8)));
    return record;
  }

  /** A dead-letters command with the run's settings, the sensor id field fixed, as run has them. */
  private static CliRun cli(final InProcessRun run, final String... args) {
    final Map<String, String> settings = new LinkedHashMap<>(run.settings());
    settings.putAll(FIXED);
    return CliRun.withSettings(settings, args);
  }
}
