package io.bucketer.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.bucketer.avro.Reading;
import io.bucketer.buckets.BucketLayout;
import io.bucketer.buckets.ClosedBucket;
import io.bucketer.buckets.ExpectedIntervals;
import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.Measurement;
import io.bucketer.buckets.SeriesKey;
import io.bucketer.buckets.WindowSummary;
import io.bucketer.ingest.ReadingDecoder;
import io.bucketer.metrics.BucketerMetrics;
import io.bucketer.metrics.BucketerMetrics.ReadingOutcome;
import io.bucketer.simulate.ReadingGenerator;
import io.bucketer.testing.ExpectedBuckets;
import io.bucketer.testing.FramedReadings;
import io.bucketer.testing.Meters;
import io.bucketer.topics.BucketerTopics;
import io.bucketer.topics.DeadLetterHeaders;
import io.bucketer.windows.DuplicateTimestamps;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole topology in memory. Readings are from 2025, so the mock wall clock (now) is past them.
 */
class BucketTopologyTest {

  private static final int SCHEMA_ID = 7;
  private static final Granularity MINUTE = Granularity.parse("1m");
  private static final Granularity HOUR = Granularity.parse("1h");
  private static final Instant TEN = Instant.parse("2025-06-01T10:00:00Z");
  private static final Duration IDLE_TIMEOUT = Duration.ofSeconds(30);
  private static final Duration HORIZON = Duration.ofHours(1);

  /** bucketer's defaults: floor 2000-01-01, an hour of future skew, 64 KiB per reading. */
  static final ReadingChecks CHECKS =
      new ReadingChecks(Instant.parse("2000-01-01T00:00:00Z"), Duration.ofHours(1), 65_536);

  /** bucketer's default budget for the open windows kept as objects. */
  static final long WINDOW_CACHE_BYTES = 256L * 1024 * 1024;

  static final BucketTopology.Settings SETTINGS =
      new BucketTopology.Settings(
          "iot.readings",
          "iot.buckets",
          "iot.readings.dlq",
          List.of(MINUTE, HOUR),
          Duration.ofSeconds(10),
          IDLE_TIMEOUT,
          new InputPartitioning.BySeries(2),
          HORIZON,
          BucketLayout.finestKeepsMeasurements(1000),
          CHECKS,
          WINDOW_CACHE_BYTES,
          DuplicateTimestamps.KEEP_LAST);

  @TempDir Path stateDir;

  private final BucketerMetrics metrics = new BucketerMetrics(new SimpleMeterRegistry());

  private TopologyTestDriver driver;
  private TestInputTopic<byte[], byte[]> input;
  private TestOutputTopic<String, ClosedBucket> buckets;
  private TestOutputTopic<byte[], byte[]> deadLetters;

  /** At or before the driver's wall clock, which only advanceWallClockTime moves. */
  private Instant driverStartedAfter;

  @BeforeEach
  void startDriver() {
    driverStartedAfter = Instant.ofEpochMilli(System.currentTimeMillis());
    driver = newDriver(stateDir, metrics);
    final TopologyTopics topics = TopologyTopics.of(driver);
    input = topics.input();
    buckets = topics.buckets();
    deadLetters = topics.deadLetters();
  }

  @AfterEach
  void closeDriver() {
    driver.close();
  }

  static TopologyTestDriver newDriver(final Path stateDir, final BucketerMetrics metrics) {
    return TopologyTopics.driver(
        stateDir, () -> new ReadingDecoder(id -> Reading.getClassSchema()), metrics, Instant.now());
  }

  /**
   * Every Kafka Streams store metric carries the same tag keys, so that one Prometheus meter takes
   * them all: the batcher's hook store, which holds nothing, reports none.
   */
  @Test
  void shouldReportStoreMetricsOfTheRocksDbStoresOnly() {
    assertThat(driver.metrics().keySet())
        .filteredOn(name -> name.group().equals("stream-state-metrics"))
        .isNotEmpty()
        .allSatisfy(name -> assertThat(name.tags()).containsKey("rocksdb-state-id"));
  }

  @Test
  void shouldEmitAMinuteBucketOnlyWhenItsSeriesEventTimePassesItsEndPlusGrace() {
    send(reading("s1", "10:00:05", 1.0));
    send(reading("s1", "10:00:30", 3.0));
    send(reading("s1", "10:01:09.999", 5.0)); // end + grace is 10:01:10: still open
    assertThat(buckets.isEmpty()).isTrue();

    send(reading("s2", "10:01:10", 0.0)); // another series' time closes nothing of s1
    assertThat(buckets.isEmpty()).isTrue();

    send(reading("s1", "10:01:10", 0.0)); // close [10:00, 10:01)

    final List<ClosedBucket> closed = buckets.readValuesToList();
    assertThat(closed).hasSize(1);
    final ClosedBucket minute = closed.get(0);
    assertThat(minute.series().sensorId()).isEqualTo("s1");
    assertThat(minute.granularity()).isEqualTo(MINUTE);
    assertThat(minute.windowStart()).isEqualTo(at("10:00:00"));
    assertThat(minute.stats().count()).isEqualTo(2);
    assertThat(minute.stats().sum()).isEqualTo(4.0);
    assertThat(minute.measurements())
        .containsExactly(
            new Measurement(at("10:00:05"), 1.0), new Measurement(at("10:00:30"), 3.0));
  }

  @Test
  void shouldPutAReadingAtAWindowsEndIntoTheNextWindow() {
    send(reading("s1", "10:00:59.999", 1.0));
    send(reading("s1", "10:01:00", 2.0));
    send(reading("s1", "10:02:10", 0.0)); // close [10:00, 10:01) and [10:01, 10:02)

    assertThat(buckets.readValuesToList())
        .extracting(b -> b.windowStart(), b -> b.stats().count())
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(at("10:00:00"), 1L),
            org.assertj.core.groups.Tuple.tuple(at("10:01:00"), 1L));
  }

  @Test
  void shouldRollTheHourUpFromItsClosedMinutes() {
    final List<Reading> readings = new ArrayList<>();
    for (int second = 0; second < 3600; second += 7) {
      readings.add(reading("s1", TEN.plusSeconds(second), second % 13));
    }
    readings.forEach(this::send);
    send(reading("s1", TEN.plus(Duration.ofMinutes(61)), 0)); // close 10:00-11:00

    final List<ClosedBucket> closed = buckets.readValuesToList();
    final List<ClosedBucket> minutes =
        closed.stream().filter(b -> b.granularity().equals(MINUTE)).toList();
    final List<ClosedBucket> hours =
        closed.stream().filter(b -> b.granularity().equals(HOUR)).toList();
    assertThat(minutes).hasSize(60);
    assertThat(hours).hasSize(1);
    final ClosedBucket hour = hours.get(0);
    assertThat(hour.stats().count()).isEqualTo(readings.size());
    assertThat(hour.stats().sum())
        .isCloseTo(readings.stream().mapToDouble(Reading::getValue).sum(), within(1e-9));
    // The hour holds a summary of each minute, as that minute was emitted; readings once.
    assertThat(hour.measurements()).isEmpty();
    assertThat(hour.summaries())
        .extracting(WindowSummary::start, WindowSummary::stats)
        .containsExactlyElementsOf(
            minutes.stream()
                .map(m -> org.assertj.core.groups.Tuple.tuple(m.windowStart(), m.stats()))
                .toList());
    // The hour is emitted after the minutes it is made of.
    assertThat(closed.get(closed.size() - 1)).isEqualTo(hour);
  }

  /**
   * The expected interval reaches the buckets topic from the settings: configured for one metric,
   * learned from each window's readings for another, none for the rest.
   */
  @Test
  void shouldWriteEachWindowsExpectedIntervalConfiguredOrLearned(
      @TempDir final Path otherStateDir) {
    final BucketTopology.Settings settings =
        SETTINGS.withComputations(
            SETTINGS
                .computations()
                .withExpectedIntervals(
                    new ExpectedIntervals(
                        0, Map.of("temperature", Duration.ofSeconds(5), "door", Duration.ZERO))));
    final Map<String, ClosedBucket> closed = new HashMap<>();
    try (TopologyTestDriver other =
        TopologyTopics.driver(
            otherStateDir,
            () -> new ReadingDecoder(id -> Reading.getClassSchema()),
            new BucketerMetrics(new SimpleMeterRegistry()),
            Instant.now(),
            settings)) {
      final TestInputTopic<byte[], byte[]> in =
          TopologyTopics.input(other, BucketerTopics.input(settings.inputTopic()));
      for (final String metric : List.of("temperature", "door", "flow")) {
        // 10:00:00, :05, :10, :30: intervals 5 s, 5 s, 20 s; then a reading that closes the hour
        for (final String time :
            List.of("10:00:00", "10:00:05", "10:00:10", "10:00:30", "11:01:00")) {
          in.pipeInput(null, frame(withMetric(reading("s1", time, 1.0), metric)));
        }
      }
      TopologyTopics.output(other, BucketerTopics.closedBuckets(settings.bucketsTopic()))
          .readValuesToList()
          .forEach(
              bucket -> closed.put(bucket.series().metric() + " " + bucket.granularity(), bucket));
    }

    assertThat(closed.get("temperature 1m").extras().expectedIntervalMillis()).isEqualTo(5_000L);
    assertThat(closed.get("temperature 1h").extras().expectedIntervalMillis()).isEqualTo(5_000L);
    assertThat(closed.get("temperature 1m").extras().learnedIntervalMillis()).isNull();
    assertThat(closed.get("door 1m").extras().learnedIntervalMillis()).isEqualTo(5_000L);
    assertThat(closed.get("door 1h").extras().learnedIntervalMillis()).isEqualTo(5_000L);
    assertThat(closed.get("door 1m").extras().expectedIntervalMillis()).isNull();
    assertThat(closed.get("flow 1m").extras().intervalMillis()).isNull();
    assertThat(closed.get("flow 1h").extras().intervalMillis()).isNull();
  }

  private static Reading withMetric(final Reading reading, final String metric) {
    reading.setMetric(metric);
    return reading;
  }

  @Test
  void shouldGiveTheSameBucketsForOutOfOrderInputWithinGraceAsForSortedInput(
      @TempDir final Path otherStateDir) {
    final List<Reading> shuffled = generated(0.3);
    final List<Reading> sorted = new ArrayList<>(shuffled);
    sorted.sort(Comparator.comparing(Reading::getTimestamp));

    final Map<String, ClosedBucket> fromShuffled = bucketsOf(shuffled, this.driver, buckets);
    final Map<String, ClosedBucket> fromSorted;
    try (TopologyTestDriver other =
        newDriver(otherStateDir, new BucketerMetrics(new SimpleMeterRegistry()))) {
      fromSorted =
          bucketsOf(
              sorted,
              other,
              TopologyTopics.output(other, BucketerTopics.closedBuckets(SETTINGS.bucketsTopic())));
    }

    assertThat(fromShuffled.keySet()).isEqualTo(fromSorted.keySet());
    fromSorted.forEach(
        (key, expected) -> {
          final ClosedBucket actual = fromShuffled.get(key);
          assertThat(actual.stats().count()).isEqualTo(expected.stats().count());
          assertThat(actual.stats().sum()).isCloseTo(expected.stats().sum(), within(1e-9));
          assertThat(actual.measurements()).isEqualTo(expected.measurements());
        });
    // And both equal an independent computation of the minute buckets.
    final Map<String, ExpectedBuckets.Expected> expected =
        ExpectedBuckets.compute(sorted, MINUTE.sizeMillis());
    assertThat(fromSorted.values().stream().filter(b -> b.granularity().equals(MINUTE)))
        .hasSize(expected.size());
  }

  @Test
  void shouldCloseTheWindowsOfAnIdlePartitionOnTheWallClock() {
    send(reading("s1", "10:00:05", 1.0));
    driver.advanceWallClockTime(IDLE_TIMEOUT.minusSeconds(1));
    assertThat(buckets.isEmpty()).isTrue();

    driver.advanceWallClockTime(Duration.ofSeconds(2));

    assertThat(buckets.readValuesToList())
        .extracting(b -> b.granularity().label())
        .containsExactly("1m", "1h");
  }

  @Test
  void shouldMergeALateReadingWithinTheHorizonAndWriteTheWindowAgainWithAHigherRevision() {
    send(reading("s1", "10:00:05", 1.0));
    send(reading("s1", "10:01:10", 2.0)); // close [10:00, 10:01)
    send(reading("s1", "10:00:50", 9.0)); // late for the closed minute; the hour is still open
    send(reading("s1", "11:00:10", 0.0)); // close the rest of 10:00-11:00

    final List<ClosedBucket> closed = buckets.readValuesToList();
    final List<ClosedBucket> tenOClockMinute =
        closed.stream()
            .filter(b -> b.granularity().equals(MINUTE) && b.windowStart() == at("10:00:00"))
            .toList();
    assertThat(tenOClockMinute).extracting(ClosedBucket::revision).containsExactly(0, 1);
    assertThat(tenOClockMinute.get(1).measurements())
        .containsExactly(
            new Measurement(at("10:00:05"), 1.0), new Measurement(at("10:00:50"), 9.0));
    final ClosedBucket hour =
        closed.stream().filter(b -> b.granularity().equals(HOUR)).findFirst().orElseThrow();
    assertThat(hour.revision()).isZero();
    assertThat(hour.stats().count()).isEqualTo(3);
    assertThat(hour.stats().sum()).isEqualTo(12.0);
    assertThat(deadLetters.isEmpty()).isTrue();
    assertThat(
            Meters.count(
                metrics.registry(),
                BucketerMetrics.READINGS,
                "outcome",
                ReadingOutcome.ON_TIME.tag()))
        .isEqualTo(3);
    // [11:00, 11:01) is open; its hour opens when the first of its minutes closes into it
    assertThat((long) Meters.gauge(metrics.registry(), BucketerMetrics.OPEN_BUCKETS)).isEqualTo(1);
    assertThat(
            Meters.count(
                metrics.registry(),
                BucketerMetrics.READINGS,
                "outcome",
                ReadingOutcome.LATE_MERGED.tag()))
        .isEqualTo(1);
    assertThat(
            Meters.count(
                metrics.registry(),
                BucketerMetrics.READINGS,
                "outcome",
                ReadingOutcome.TOO_LATE.tag()))
        .isZero();
  }

  @Test
  void shouldReviseTheClosedHourToo() {
    send(reading("s1", "10:00:05", 1.0));
    send(reading("s1", "11:00:20", 2.0)); // close [10:00, 10:01) and [10:00, 11:00)
    send(reading("s1", "10:30:00", 5.0)); // late for a minute that never opened, and the hour

    final List<ClosedBucket> closed = buckets.readValuesToList();
    assertThat(closed)
        .extracting(b -> b.granularity().label(), b -> b.windowStart(), ClosedBucket::revision)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("1m", at("10:00:00"), 0),
            org.assertj.core.groups.Tuple.tuple("1h", at("10:00:00"), 0),
            org.assertj.core.groups.Tuple.tuple("1m", at("10:30:00"), 0),
            org.assertj.core.groups.Tuple.tuple("1h", at("10:00:00"), 1));
    final ClosedBucket revisedHour = closed.get(3);
    assertThat(revisedHour.summaries())
        .extracting(WindowSummary::start, summary -> summary.stats().last())
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(
                at("10:00:00"), new Measurement(at("10:00:05"), 1.0)),
            org.assertj.core.groups.Tuple.tuple(
                at("10:30:00"), new Measurement(at("10:30:00"), 5.0)));
    assertThat(revisedHour.stats().count()).isEqualTo(2);
  }

  /**
   * A stop-all upgrade from the builds that sent one series per repartition record (format 4, the
   * series in the record's key): the records they left in the topic are read and bucketed with
   * those this build sends, every series' readings in their windows.
   */
  @Test
  void shouldBucketTheRepartitionRecordsOfOneSeriesThatEarlierBuildsLeftInTheTopic() {
    final TestInputTopic<SeriesKey, byte[]> leftInTheTopic =
        driver.createInputTopic(
            TopologyNames.readingsBySeriesTopic("bucketer-test"),
            new SeriesKeySerde().serializer(),
            new ByteArraySerializer());
    final ReadingBatch left = new ReadingBatch(2);
    left.add(at("10:00:05"), 1.0, null);
    left.add(at("10:00:20"), 2.0, null);
    leftInTheTopic.pipeInput(
        new SeriesKey("s1", "temperature"), ReadingBatchSerde.encode(left), at("10:00:20"));

    send(reading("s1", "10:00:40", 4.0));
    send(reading("s1", "10:01:10", 0.0)); // close [10:00, 10:01)

    final ClosedBucket minute = buckets.readValuesToList().get(0);
    assertThat(minute.series()).isEqualTo(new SeriesKey("s1", "temperature"));
    assertThat(minute.stats().count()).isEqualTo(3);
    assertThat(minute.stats().sum()).isEqualTo(7.0);
  }

  @Test
  void shouldDeadLetterAReadingBeyondTheLatenessHorizon() {
    send(reading("s1", "10:00:05", 1.0));
    send(reading("s1", "11:02:00", 1.0)); // the 10:00 minute closed over an hour ago
    send(reading("s1", "10:00:50", 9.0)); // too late

    final TestRecord<byte[], byte[]> dead = deadLetters.readRecord();
    assertThat(header(dead, DeadLetterHeaders.REASON)).isEqualTo("too-late");
    assertThat(dead.getRecordTime()).as("set aside").isBetween(driverStartedAfter, Instant.now());
    assertThat(header(dead, DeadLetterHeaders.SOURCE_TIMESTAMP)).isNotNull();
    assertThat(
            Meters.count(
                metrics.registry(),
                BucketerMetrics.READINGS,
                "outcome",
                ReadingOutcome.TOO_LATE.tag()))
        .isEqualTo(1);
    assertThat(Meters.count(metrics.registry(), BucketerMetrics.DEAD_LETTERS, "reason", "too-late"))
        .isEqualTo(1);
    // the series crossed the repartition topic in the key only, and is back in the dead letter
    assertThat(new String(dead.value(), StandardCharsets.UTF_8))
        .contains("\"value\":9.0")
        .contains("\"sensor_id\":\"s1\"");
    assertThat(buckets.readValuesToList())
        .filteredOn(b -> b.windowStart() == at("10:00:00"))
        .extracting(ClosedBucket::revision)
        .containsOnly(0);
  }

  @Test
  void shouldSplitAFullWindowIntoCappedBucketsThatEachKnowTheWindowTotals() {
    final List<Reading> burst = new ArrayList<>();
    for (int i = 0; i < 2_500; i++) { // 100 readings a second for 25 seconds
      burst.add(reading("fast", TEN.plusMillis(10L * i), i));
    }
    burst.forEach(this::send);
    send(reading("fast", TEN.plus(Duration.ofMinutes(70)), 0)); // close 10:00 minute and hour

    final List<ClosedBucket> minute =
        buckets.readValuesToList().stream().filter(b -> b.granularity().equals(MINUTE)).toList();
    assertThat(minute).extracting(ClosedBucket::seq).containsExactly(0, 1, 2);
    assertThat(minute).extracting(b -> b.measurements().size()).containsExactly(1000, 1000, 500);
    assertThat(minute).extracting(ClosedBucket::buckets).containsOnly(3);
    assertThat(minute.get(1).stats().min()).isEqualTo(1000.0);
    assertThat(minute.get(1).stats().max()).isEqualTo(1999.0);
    assertThat(minute).extracting(b -> b.window().count()).containsOnly(2500L);
    assertThat(minute.get(2).window().sum()).isEqualTo(2499.0 * 2500 / 2);
  }

  /**
   * A dead letter is stamped with the wall clock when it is set aside, the original's timestamp in
   * a header: a record timestamped with its readings' old time would otherwise fall to the topic's
   * retention at once.
   */
  @Test
  void shouldDeadLetterBadBytesWithTheirReasonAndOrigin() {
    final byte[] garbage = "not avro".getBytes(StandardCharsets.UTF_8);
    input.pipeInput(
        new TestRecord<>(
            "key".getBytes(StandardCharsets.UTF_8), garbage, Instant.ofEpochMilli(at("09:00:00"))));
    send(reading("", "10:00:00", 1.0));
    send(reading("s1", "10:00:00", Double.NaN));

    final List<TestRecord<byte[], byte[]>> dead = deadLetters.readRecordsToList();
    assertThat(dead)
        .extracting(r -> header(r, DeadLetterHeaders.REASON))
        .containsExactly("not-wire-format", "invalid-sensor-id", "invalid-value");
    assertThat(dead.get(0).value()).isEqualTo(garbage);
    assertThat(dead.get(0).key()).isEqualTo("key".getBytes(StandardCharsets.UTF_8));
    assertThat(header(dead.get(0), DeadLetterHeaders.SOURCE_TOPIC)).isEqualTo("iot.readings");
    assertThat(header(dead.get(0), DeadLetterHeaders.SOURCE_OFFSET)).isEqualTo("0");
    assertThat(header(dead.get(0), DeadLetterHeaders.SOURCE_TIMESTAMP))
        .isEqualTo(Long.toString(at("09:00:00")));
    assertThat(dead.get(0).getRecordTime()).isBetween(driverStartedAfter, Instant.now());
  }

  @Test
  void shouldLeaveNoStateBehindOnceEveryWindowHasClosed() {
    send(reading("s1", "10:00:05", 1.0));
    send(reading("s1", "12:00:00", 1.0));
    driver.advanceWallClockTime(Duration.ofDays(1));

    for (final Granularity granularity : SETTINGS.granularities()) {
      assertThat(entries(TopologyNames.windowStore(granularity))).isZero();
    }
    assertThat(entries(TopologyNames.SEALED_READINGS_STORE)).isZero();
    assertThat(buckets.readValuesToList()).hasSize(4);
  }

  private long entries(final String storeName) {
    long count = 0;
    @SuppressWarnings("unchecked")
    final ReadOnlyKeyValueStore<Bytes, byte[]> store =
        (ReadOnlyKeyValueStore<Bytes, byte[]>) driver.getAllStateStores().get(storeName);
    try (var all = store.all()) {
      while (all.hasNext()) {
        all.next();
        count++;
      }
    }
    return count;
  }

  private Map<String, ClosedBucket> bucketsOf(
      final List<Reading> readings,
      final TopologyTestDriver testDriver,
      final TestOutputTopic<String, ClosedBucket> output) {
    final TestInputTopic<byte[], byte[]> in =
        TopologyTopics.input(testDriver, BucketerTopics.input(SETTINGS.inputTopic()));
    readings.forEach(r -> in.pipeInput(null, frame(r)));
    testDriver.advanceWallClockTime(IDLE_TIMEOUT.plusSeconds(1));
    final Map<String, ClosedBucket> byKey = new TreeMap<>();
    output.readKeyValuesToList().forEach(kv -> byKey.put(kv.key, kv.value));
    return byKey;
  }

  private static List<Reading> generated(final double outOfOrderFraction) {
    final ReadingGenerator generator =
        new ReadingGenerator(
            new ReadingGenerator.Options(
                6,
                TEN,
                Duration.ofSeconds(2),
                Duration.ofMillis(300),
                outOfOrderFraction,
                12,
                3000,
                7));
    final List<Reading> readings = new ArrayList<>();
    generator.forEachRemaining(readings::add);
    return readings;
  }

  private void send(final Reading reading) {
    input.pipeInput(null, frame(reading));
  }

  private static String header(final TestRecord<?, ?> record, final String name) {
    final Header header = record.headers().lastHeader(name);
    return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
  }

  static byte[] frame(final Reading reading) {
    return FramedReadings.frame(reading, SCHEMA_ID);
  }

  private static long at(final String time) {
    return Instant.parse("2025-06-01T" + time + "Z").toEpochMilli();
  }

  private static Reading reading(final String sensor, final String time, final double value) {
    return reading(sensor, Instant.ofEpochMilli(at(time)), value);
  }

  private static Reading reading(final String sensor, final Instant time, final double value) {
    return FramedReadings.temperature(sensor, time, value);
  }
}
