package io.bucketer.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import io.bucketer.avro.Reading;
import io.bucketer.buckets.ClosedBucket;
import io.bucketer.buckets.Granularity;
import io.bucketer.deadletters.DeadLetter;
import io.bucketer.deadletters.ReplayRecords;
import io.bucketer.ingest.ReadingDecoder;
import io.bucketer.ingest.sparkplug.SparkplugMessages.EdgeNode;
import io.bucketer.ingest.sparkplug.SparkplugMessages.Message;
import io.bucketer.ingest.sparkplug.SparkplugSettings;
import io.bucketer.ingest.sparkplug.SparkplugTopicSource;
import io.bucketer.metrics.BucketerMetrics;
import io.bucketer.metrics.BucketerMetrics.ReadingOutcome;
import io.bucketer.tenants.TenantLimits;
import io.bucketer.tenants.TenantLimits.Limits;
import io.bucketer.tenants.TenantLimits.Tenant;
import io.bucketer.testing.ExpectedBuckets;
import io.bucketer.testing.FramedReadings;
import io.bucketer.testing.Meters;
import io.bucketer.topics.DeadLetterHeaders;
import io.bucketer.topics.ReplayHeaders;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A gateway that invents a series id per reading, beside a tenant that reports as it should: the
 * flood is held to its tenant's series limit and dead-lettered past it, naming the tenant, and the
 * other tenant's buckets are exact.
 */
class SeriesLimitTopologyTest {

  private static final Instant TEN = Instant.parse("2025-06-01T10:00:00Z");
  private static final Granularity MINUTE = Granularity.parse("1m");

  /** The gateway gw9- may hold 5 series; the rest of the fleet the defaults. */
  private static final TenantLimits LIMITS =
      new TenantLimits(new Limits(1_000, 1_000), List.of(new Tenant("gw9-", new Limits(5, 1_000))));

  @TempDir Path stateDir;

  private final BucketerMetrics metrics = new BucketerMetrics(new SimpleMeterRegistry());
  private TopologyTestDriver driver;

  @AfterEach
  void closeDriver() {
    if (driver != null) {
      driver.close();
    }
  }

  @Test
  void shouldHoldAFloodOfNewSeriesToItsTenantsLimitAndLeaveTheOtherTenantExact() {
    final TopologyTopics topics = start(LIMITS);
    final List<Reading> wellBehaved = new ArrayList<>();
    for (int second = 0; second < 135; second++) { // 10:00:00 to 10:02:14
      final Instant time = TEN.plusSeconds(second);
      for (final String sensor : List.of("plant-1", "plant-2")) {
        final Reading reading = reading(sensor, time, second * 0.5 + sensor.length());
        wellBehaved.add(reading);
        topics.input().pipeInput(null, FramedReadings.frame(reading, 7));
      }
      topics.input().pipeInput(null, FramedReadings.frame(reading("gw9-" + second, time, 1.0), 7));
    }

    final List<ClosedBucket> plantMinutes =
        topics.buckets().readValuesToList().stream()
            .filter(b -> b.granularity().equals(MINUTE))
            .filter(b -> b.series().sensorId().startsWith("plant-"))
            .toList();
    final Map<String, ExpectedBuckets.Expected> expected =
        ExpectedBuckets.compute(
            wellBehaved.stream()
                .filter(r -> r.getTimestamp().isBefore(TEN.plusSeconds(120)))
                .toList(),
            MINUTE.sizeMillis());
    assertThat(plantMinutes).hasSize(expected.size()).hasSize(4);
    for (final ClosedBucket minute : plantMinutes) {
      final ExpectedBuckets.Expected want =
          expected.get(
              ExpectedBuckets.key(
                  minute.series().sensorId(), minute.series().metric(), minute.windowStart()));
      assertThat(minute.stats().count()).isEqualTo(want.count());
      assertThat(minute.stats().sum()).isEqualTo(want.sum());
      assertThat(minute.stats().min()).isEqualTo(want.min());
      assertThat(minute.stats().max()).isEqualTo(want.max());
    }

    final List<TestRecord<byte[], byte[]>> dead = topics.deadLetters().readRecordsToList();
    assertThat(dead).hasSize(130);
    assertThat(dead)
        .allSatisfy(
            letter -> {
              assertThat(header(letter, DeadLetterHeaders.REASON)).isEqualTo("series-limit");
              assertThat(header(letter, DeadLetterHeaders.TENANT)).isEqualTo("gw9-");
              assertThat(header(letter, DeadLetterHeaders.MESSAGE))
                  .isEqualTo(
                      "tenant gw9- holds its limit of 5 active series (5 in this series"
                          + " partition, 1 of 1)");
              assertThat(new String(letter.value(), StandardCharsets.UTF_8))
                  .contains("\"sensor_id\":\"gw9-");
            });
    assertThat(new String(dead.get(0).value(), StandardCharsets.UTF_8))
        .contains("\"sensor_id\":\"gw9-5\"");

    final MeterRegistry registry = metrics.registry();
    assertThat(refused(registry, "gw9-", "active-series")).isEqualTo(130);
    assertThat(refused(registry, "*", "active-series")).isZero();
    assertThat(gauge(registry, BucketerMetrics.TENANT_SERIES_ACTIVE, "gw9-")).isEqualTo(5);
    assertThat(gauge(registry, BucketerMetrics.TENANT_SERIES_HEADROOM, "gw9-")).isZero();
    assertThat(gauge(registry, BucketerMetrics.TENANT_SERIES_ACTIVE, "*")).isEqualTo(2);
    assertThat(gauge(registry, BucketerMetrics.TENANT_SERIES_HEADROOM, "*")).isEqualTo(998);
    assertThat(gauge(registry, BucketerMetrics.TENANT_SERIES_LIMIT, "gw9-")).isEqualTo(5);
    assertThat(
            Meters.count(
                registry, BucketerMetrics.READINGS, "outcome", ReadingOutcome.SERIES_LIMIT.tag()))
        .isEqualTo(130);
    assertThat(Meters.count(registry, BucketerMetrics.DEAD_LETTERS, "reason", "series-limit"))
        .isEqualTo(130);
  }

  /**
   * Once the tenant's limit is raised, {@code dead-letters replay}'s records of the refused
   * readings (their JSON, keyed by sensor id, with the replay's headers) are read as readings,
   * though the input is Avro, and bucketed; a JSON that is not a reading goes back as malformed.
   */
  @Test
  void shouldBucketTheRefusedReadingsReplayedOnceTheLimitIsRaised(
      @TempDir final Path otherStateDir) {
    final TopologyTopics flooded = start(LIMITS);
    for (int second = 0; second < 20; second++) {
      flooded
          .input()
          .pipeInput(
              null,
              FramedReadings.frame(reading("gw9-" + second, TEN.plusSeconds(second), second), 7));
    }
    final List<TestRecord<byte[], byte[]>> dead = flooded.deadLetters().readRecordsToList();
    assertThat(dead).hasSize(15);
    assertThat(dead)
        .extracting(letter -> new String(letter.key(), StandardCharsets.UTF_8))
        .startsWith("gw9-5", "gw9-6");
    driver.close();

    stateDir = otherStateDir;
    final TopologyTopics raised =
        start(
            new TenantLimits(
                LIMITS.defaults(), List.of(new Tenant("gw9-", new Limits(1_000, 1_000)))));
    replay(dead, raised);
    final RecordHeaders notAReading = new RecordHeaders();
    notAReading.add(ReplayHeaders.REASON, "series-limit".getBytes(StandardCharsets.UTF_8));
    raised
        .input()
        .pipeInput(
            new TestRecord<>(
                "gw9-x".getBytes(StandardCharsets.UTF_8),
                "{\"sensor\": \"gw9-x\"}".getBytes(StandardCharsets.UTF_8),
                notAReading,
                TEN));
    driver.advanceWallClockTime(Duration.ofMinutes(1)); // the quiet series' windows close

    final List<ClosedBucket> minutes =
        raised.buckets().readValuesToList().stream()
            .filter(b -> b.granularity().equals(MINUTE))
            .toList();
    assertThat(minutes).hasSize(15);
    assertThat(minutes)
        .allSatisfy(
            minute -> {
              final int second = Integer.parseInt(minute.series().sensorId().substring(4));
              assertThat(second).isBetween(5, 19);
              assertThat(minute.series().metric()).isEqualTo("temperature");
              assertThat(minute.stats().count()).isEqualTo(1);
              assertThat(minute.stats().sum()).isEqualTo(second);
              assertThat(minute.stats().lastTimestamp())
                  .isEqualTo(TEN.plusSeconds(second).toEpochMilli());
            });
    final List<TestRecord<byte[], byte[]>> failed = raised.deadLetters().readRecordsToList();
    assertThat(failed).hasSize(1);
    assertThat(header(failed.get(0), DeadLetterHeaders.REASON)).isEqualTo("missing-field");
  }

  /**
   * Sparkplug B input: a device's readings over its tenant's limit are dead-lettered as their JSON
   * like any input's, and once the limit is raised, replayed, they are read as that JSON (no MQTT
   * topic, no birth) and bucketed.
   */
  @Test
  void shouldBucketTheRefusedReadingsOfASparkplugInputReplayedOnceTheLimitIsRaised(
      @TempDir final Path otherStateDir) {
    final EdgeNode press = new EdgeNode("plant", "press", SparkplugTopologyTest.METRICS);
    // The press's devices may hold two series: the first device's two metrics.
    final TenantLimits twoSeries =
        new TenantLimits(
            new Limits(1_000, 1_000), List.of(new Tenant("plant/press/", new Limits(2, 1_000))));
    final TopologyTopics flooded = startSparkplug(twoSeries);
    final long ten = TEN.toEpochMilli();
    send(flooded, press.nbirth(ten, 20.0, 0));
    for (int device = 1; device <= 3; device++) {
      send(flooded, press.dbirth("motor-" + device, ten, 40.0, 900));
      send(flooded, press.ddata("motor-" + device, ten + 5_000, device * 10.0, device * 100));
    }
    final List<TestRecord<byte[], byte[]>> dead = flooded.deadLetters().readRecordsToList();
    assertThat(dead)
        .extracting(letter -> new String(letter.key(), StandardCharsets.UTF_8))
        .containsExactly(
            "plant/press/motor-2",
            "plant/press/motor-2",
            "plant/press/motor-3",
            "plant/press/motor-3");
    assertThat(dead)
        .allSatisfy(
            letter ->
                assertThat(header(letter, DeadLetterHeaders.REASON)).isEqualTo("series-limit"));
    driver.close();

    stateDir = otherStateDir;
    final TopologyTopics raised =
        startSparkplug(new TenantLimits(new Limits(1_000, 1_000), List.of()));
    replay(dead, raised);
    driver.advanceWallClockTime(Duration.ofMinutes(1)); // the quiet series' windows close

    assertThat(raised.deadLetters().isEmpty()).as("replayed readings dead-lettered again").isTrue();
    assertThat(
            raised.buckets().readValuesToList().stream()
                .filter(b -> b.granularity().equals(MINUTE)))
        .extracting(
            b -> b.series().sensorId(),
            b -> b.series().metric(),
            b -> b.stats().count(),
            b -> b.stats().sum(),
            b -> b.windowStart())
        .containsExactlyInAnyOrder(
            tuple("plant/press/motor-2", "temperature", 1L, 20.0, ten),
            tuple("plant/press/motor-2", "rpm", 1L, 200.0, ten),
            tuple("plant/press/motor-3", "temperature", 1L, 30.0, ten),
            tuple("plant/press/motor-3", "rpm", 1L, 300.0, ten));
  }

  /** Sends {@code dead} back to {@code topics}' input as {@code dead-letters replay} does. */
  private void replay(final List<TestRecord<byte[], byte[]>> dead, final TopologyTopics topics) {
    for (int i = 0; i < dead.size(); i++) {
      final TestRecord<byte[], byte[]> letter = dead.get(i);
      final ProducerRecord<byte[], byte[]> replay =
          ReplayRecords.toInput(
              new DeadLetter(
                  base().deadLetterTopic(),
                  0,
                  i,
                  letter.timestamp(),
                  letter.key(),
                  letter.value(),
                  letter.headers()),
              base().inputTopic());
      topics
          .input()
          .pipeInput(
              new TestRecord<>(replay.key(), replay.value(), replay.headers(), replay.timestamp()));
    }
  }

  private BucketTopology.Settings base() {
    return BucketTopologyTest.SETTINGS;
  }

  /** The topology with {@code limits} and one series partition, in a new driver. */
  private TopologyTopics start(final TenantLimits limits) {
    driver =
        TopologyTopics.driver(
            stateDir,
            () -> new ReadingDecoder(id -> Reading.getClassSchema()),
            metrics,
            Instant.now(),
            settings(limits));
    return TopologyTopics.of(driver);
  }

  /** As {@link #start}, for Sparkplug B input whose MQTT topic is the record's key. */
  private TopologyTopics startSparkplug(final TenantLimits limits) {
    driver =
        TopologyTopics.driver(
            stateDir,
            () -> {
              throw new AssertionError("Sparkplug B input asks no decoder");
            },
            metrics,
            Instant.now(),
            settings(limits)
                .withSparkplug(new SparkplugSettings(new SparkplugTopicSource.Key(), false)));
    return TopologyTopics.of(driver);
  }

  private static void send(final TopologyTopics topics, final Message message) {
    topics
        .input()
        .pipeInput(
            message.topic().getBytes(StandardCharsets.UTF_8),
            message.payload(),
            TEN.toEpochMilli());
  }

  private BucketTopology.Settings settings(final TenantLimits limits) {
    // One series partition: the test driver runs one task, which then holds a whole share.
    return TopologyDescriptionTest.partitioned(new InputPartitioning.BySeries(1))
        .withSeriesLimits(limits);
  }

  private static double refused(
      final MeterRegistry registry, final String tenant, final String limit) {
    return registry
        .get(BucketerMetrics.TENANT_SERIES_REFUSED)
        .tag("tenant", tenant)
        .tag("limit", limit)
        .functionCounter()
        .count();
  }

  private static double gauge(
      final MeterRegistry registry, final String name, final String tenant) {
    return registry.get(name).tag("tenant", tenant).gauge().value();
  }

  private static String header(final TestRecord<?, ?> record, final String name) {
    final Header header = record.headers().lastHeader(name);
    return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
  }

  private static Reading reading(final String sensor, final Instant time, final double value) {
    return FramedReadings.temperature(sensor, time, value);
  }
}
