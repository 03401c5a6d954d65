package io.bucketer.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.bucketer.avro.Reading;
import io.bucketer.buckets.ClosedBucket;
import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.Handover;
import io.bucketer.ingest.ReadingDecoder;
import io.bucketer.metrics.BucketerMetrics;
import io.bucketer.simulate.ReadingGenerator;
import io.bucketer.testing.ExpectedBuckets;
import io.bucketer.testing.FramedReadings;
import io.bucketer.topics.BucketerTopics;
import io.bucketer.topics.DeadLetterHeaders;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The topology with {@code readings.hold} set: readings wait for the hold on the wall clock, then
 * make the same buckets as readings applied as they come; a reading found too late once applied
 * goes to the dead-letter topic; a quiet series is closed a hold later.
 */
class ReadingHoldTopologyTest {

  private static final Granularity MINUTE = Granularity.parse("1m");
  private static final Duration HOLD = Duration.ofSeconds(5);
  private static final Duration IDLE_TIMEOUT = BucketTopologyTest.SETTINGS.idleTimeout();
  private static final Instant TEN = Instant.parse("2025-06-01T10:00:00Z");
  private static final int SCHEMA_ID = 1;

  @TempDir Path stateDir;

  private TopologyTestDriver driver;
  private TestInputTopic<byte[], byte[]> input;
  private TestOutputTopic<String, ClosedBucket> buckets;
  private TestOutputTopic<byte[], byte[]> deadLetters;

  @BeforeEach
  void startDriver() {
    driver = driver(stateDir, HOLD);
    final TopologyTopics topics = TopologyTopics.of(driver);
    input = topics.input();
    buckets = topics.buckets();
    deadLetters = topics.deadLetters();
  }

  @AfterEach
  void closeDriver() {
    driver.close();
  }

  @Test
  void shouldApplyReadingsOnlyOnceTheHoldHasPassed() {
    send(reading("s1", TEN.plusSeconds(5), 1.0));
    send(reading("s1", TEN.plusSeconds(70), 2.0)); // closes [10:00, 10:01) once applied
    driver.advanceWallClockTime(HOLD.minusSeconds(1));
    assertThat(buckets.isEmpty()).isTrue();

    driver.advanceWallClockTime(Duration.ofSeconds(1));

    final List<ClosedBucket> closed = buckets.readValuesToList();
    assertThat(closed).hasSize(1);
    assertThat(closed.get(0).granularity()).isEqualTo(MINUTE);
    assertThat(closed.get(0).stats().count()).isEqualTo(1);
    assertThat(closed.get(0).stats().sum()).isEqualTo(1.0);
  }

  /** A live fleet's shape: many series, a reading of each per second, some out of order. */
  @Test
  void shouldMakeTheBucketsOfReadingsAppliedAsTheyCome(@TempDir final Path otherStateDir) {
    final List<Reading> readings = fleet();
    final Map<String, ClosedBucket> held = bucketsOf(readings, driver, buckets);
    final Map<String, ClosedBucket> atOnce;
    try (TopologyTestDriver other = driver(otherStateDir, Duration.ZERO)) {
      atOnce =
          bucketsOf(
              readings,
              other,
              TopologyTopics.output(
                  other, BucketerTopics.closedBuckets(BucketTopologyTest.SETTINGS.bucketsTopic())));
    }

    assertThat(held.keySet()).isEqualTo(atOnce.keySet());
    atOnce.forEach(
        (key, expected) -> {
          final ClosedBucket actual = held.get(key);
          assertThat(actual.stats().count()).isEqualTo(expected.stats().count());
          assertThat(actual.stats().sum()).isCloseTo(expected.stats().sum(), within(1e-9));
          assertThat(actual.measurements()).isEqualTo(expected.measurements());
        });
    final Map<String, ExpectedBuckets.Expected> expected =
        ExpectedBuckets.compute(readings, MINUTE.sizeMillis());
    assertThat(held.values().stream().filter(b -> b.granularity().equals(MINUTE)))
        .hasSize(expected.size());
  }

  @Test
  void shouldDeadLetterAReadingFoundTooLateWhenApplied() {
    send(reading("s1", TEN.plusSeconds(5), 1.0));
    send(reading("s1", TEN.plusSeconds(3 * 3600), 2.0)); // the 10:00 minute past its horizon
    send(reading("s1", TEN.plusSeconds(30), 3.0));
    assertThat(deadLetters.isEmpty()).isTrue();

    driver.advanceWallClockTime(HOLD);

    final List<TestRecord<byte[], byte[]>> letters = deadLetters.readRecordsToList();
    assertThat(letters).hasSize(1);
    assertThat(TopologyTopics.header(letters.get(0), DeadLetterHeaders.REASON))
        .isEqualTo(DeadLetterHeaders.TOO_LATE);
    // Applied in a punctuation: no source record to name.
    assertThat(TopologyTopics.header(letters.get(0), DeadLetterHeaders.SOURCE_TOPIC)).isNull();
    assertThat(new String(letters.get(0).value(), StandardCharsets.UTF_8))
        .contains("\"value\":3.0");
  }

  @Test
  void shouldCloseAQuietSeriesAHoldAfterItsIdleTimeout() {
    send(reading("s1", TEN.plusSeconds(5), 1.0));
    driver.advanceWallClockTime(HOLD); // applied now
    driver.advanceWallClockTime(IDLE_TIMEOUT);
    assertThat(buckets.isEmpty()).isTrue(); // quiet for the idle timeout, as of a hold ago

    driver.advanceWallClockTime(HOLD);

    assertThat(buckets.readValuesToList())
        .extracting(b -> b.granularity().label())
        .containsExactly("1m", "1h");
  }

  /**
   * A deployment a rescale replaces holds nothing once the handover has come, so that it holds no
   * reading when it may stop: its late readings are applied as they come.
   */
  @Test
  void shouldApplyReadingsAsTheyComeOnceTheHandoverHasComeWhenHandingOver(
      @TempDir final Path otherStateDir) {
    final Instant now = Instant.now();
    final Handover replaced =
        new Handover(
            Handover.Side.BEFORE,
            now.minus(Duration.ofHours(1)).toEpochMilli(),
            now.plus(Duration.ofHours(1)).toEpochMilli());
    try (TopologyTestDriver handingOver =
        TopologyTopics.driver(
            otherStateDir,
            () -> new ReadingDecoder(id -> Reading.getClassSchema()),
            new BucketerMetrics(new SimpleMeterRegistry()),
            now,
            BucketTopologyTest.SETTINGS.withHandover(replaced).withReadingsHold(HOLD))) {
      final TopologyTopics topics = TopologyTopics.of(handingOver);
      topics
          .input()
          .pipeInput(
              null, FramedReadings.frame(reading("s1", TEN.plusSeconds(5), 1.0), SCHEMA_ID), now);
      topics
          .input()
          .pipeInput(
              null, FramedReadings.frame(reading("s1", TEN.plusSeconds(70), 2.0), SCHEMA_ID), now);

      assertThat(topics.buckets().readValuesToList()).hasSize(1); // no wall clock moved
    }
  }

  private Map<String, ClosedBucket> bucketsOf(
      final List<Reading> readings,
      final TopologyTestDriver testDriver,
      final TestOutputTopic<String, ClosedBucket> output) {
    final TestInputTopic<byte[], byte[]> in =
        TopologyTopics.input(
            testDriver, BucketerTopics.input(BucketTopologyTest.SETTINGS.inputTopic()));
    for (int i = 0; i < readings.size(); i++) {
      in.pipeInput(null, FramedReadings.frame(readings.get(i), SCHEMA_ID));
      if (i % 20 == 19) {
        testDriver.advanceWallClockTime(Duration.ofSeconds(1)); // 20 series a second
      }
    }
    testDriver.advanceWallClockTime(IDLE_TIMEOUT.plus(HOLD).plusSeconds(2));
    final Map<String, ClosedBucket> byKey = new TreeMap<>();
    output.readKeyValuesToList().forEach(kv -> byKey.put(kv.key, kv.value));
    return byKey;
  }

  private static List<Reading> fleet() {
    final ReadingGenerator generator =
        new ReadingGenerator(
            new ReadingGenerator.Options(
                20, TEN, Duration.ofSeconds(1), Duration.ofMillis(300), 0.2, 5, 20 * 200, 11));
    final List<Reading> readings = new ArrayList<>();
    generator.forEachRemaining(readings::add);
    return readings;
  }

  private static TopologyTestDriver driver(final Path stateDir, final Duration hold) {
    return TopologyTopics.driver(
        stateDir,
        () -> new ReadingDecoder(id -> Reading.getClassSchema()),
        new BucketerMetrics(new SimpleMeterRegistry()),
        Instant.now(),
        BucketTopologyTest.SETTINGS.withReadingsHold(hold));
  }

  private void send(final Reading reading) {
    input.pipeInput(null, FramedReadings.frame(reading, SCHEMA_ID));
  }

  private static Reading reading(final String sensor, final Instant time, final double value) {
    return FramedReadings.temperature(sensor, time, value);
  }
}
