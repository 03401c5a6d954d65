package io.bucketer.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

import io.bucketer.app.BucketerApp;
import io.bucketer.avro.Reading;
import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.IntegralUnits;
import io.bucketer.buckets.Measurement;
import io.bucketer.buckets.Retention;
import io.bucketer.buckets.SeriesKey;
import io.bucketer.buckets.TimeWeighting;
import io.bucketer.buckets.WindowComputations;
import io.bucketer.config.KafkaSettings;
import io.bucketer.config.WindowSettings;
import io.bucketer.metrics.BucketerMetrics;
import io.bucketer.query.LiveWindows;
import io.bucketer.query.SeriesQueries;
import io.bucketer.query.StoredDocuments;
import io.bucketer.simulate.ReadingGenerator;
import io.bucketer.testing.BucketStoreAssertions;
import io.bucketer.testing.Endpoints;
import io.bucketer.testing.ExactQuantiles;
import io.bucketer.testing.GeneratedReadings;
import io.bucketer.testing.InProcessRun;
import io.bucketer.testing.IrregularReadings;
import io.bucketer.testing.TimeWeightAssertions;
import io.bucketer.testing.TimeWeightOracle;
import io.bucketer.topics.DeadLetterHeaders;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The pipeline end to end, against whatever Kafka, registry and MongoDB a subclass provides:
 * readings produced to the input topic must come out as exactly the bucket documents that an
 * independent computation of the same readings gives.
 */
@Tag("integration")
abstract class PipelineContract {

  private static final Granularity MINUTE = Granularity.parse("1m");
  private static final Granularity HOUR = Granularity.parse("1h");
  private static final Instant HISTORY = Instant.parse("2025-06-01T09:00:00Z");

  @TempDir Path stateDir;

  abstract Endpoints endpoints();

  @Test
  void shouldWriteEveryBucketOfAGeneratedStreamAsTheIndependentComputationSays() throws Exception {
    final List<Reading> readings =
        GeneratedReadings.of(
            new ReadingGenerator.Options(
                12, HISTORY, Duration.ofSeconds(3), Duration.ofMillis(500), 0.05, 24, 4000, 11));

    try (InProcessRun run = newRun("2s");
        BucketerApp app = run.start()) {
      run.send(readings);
      run.awaitReadingsInBuckets(readings.size(), MINUTE, HOUR);
      BucketStoreAssertions.assertStoreEqualsComputation(run.store(), readings, MINUTE, HOUR);
    }
  }

  /**
   * The readings cross the repartition topic in batches, one record per partition and task and
   * commit at most, each series' readings in it: here every reading waits in the input before the
   * processor starts, so a batch holds many. The buckets are the same.
   */
  @Test
  void shouldRepartitionEachSeriesReadingsInBatchesAndBucketThemAll() throws Exception {
    final List<Reading> readings =
        GeneratedReadings.of(
            new ReadingGenerator.Options(
                12, HISTORY, Duration.ofSeconds(3), Duration.ofMillis(500), 0.05, 24, 4000, 17));

    try (InProcessRun run = newRun("2s")) {
      run.send(readings);
      try (BucketerApp app = run.start()) {
        run.awaitReadingsInBuckets(readings.size(), MINUTE, HOUR);
        BucketStoreAssertions.assertStoreEqualsComputation(run.store(), readings, MINUTE, HOUR);
        final String repartition = run.config().applicationId() + "-readings-by-series-repartition";
        assertThat(recordsSent(app, repartition)).isPositive().isLessThan(readings.size() / 4);
      }
    }
  }

  /** Records the processor's Kafka Streams producers sent to {@code topic}. */
  private static long recordsSent(final BucketerApp app, final String topic) {
    return app.kafkaStreamsMetrics().entrySet().stream()
        .filter(metric -> metric.getKey().group().equals("producer-topic-metrics"))
        .filter(metric -> metric.getKey().name().equals("record-send-total"))
        .filter(metric -> topic.equals(metric.getKey().tags().get("topic")))
        .mapToLong(metric -> ((Number) metric.getValue().metricValue()).longValue())
        .sum();
  }

  /**
   * Windows must close on event time alone, promptly, even when the readings that close them come
   * in one fast burst and when event time leaps hours ahead: the DSL's once-a-second emit throttle,
   * record caches and store retention each lost or delayed such buckets. The idle timeout is an
   * hour here, so only event time can close anything.
   */
  @Test
  void shouldCloseWindowsFromABurstAndALeapOfEventTimeWithoutWaitingForTheWallClock()
      throws Exception {
    final List<Reading> readings = new ArrayList<>();
    for (int second = 0; second < 600; second += 5) {
      readings.add(reading("burst", HISTORY.plusSeconds(second), second));
    }
    // Leap three hours ahead: closes every minute and the 09:00 hour at once.
    final Reading leap = reading("burst", HISTORY.plus(Duration.ofHours(3)), -1);

    try (InProcessRun run = newRun("1h");
        BucketerApp app = run.start()) {
      final StoredDocuments store = run.store();
      run.send(readings);
      await().atMost(InProcessRun.DEADLINE).until(() -> store.documents(MINUTE) == 9);
      run.send(List.of(leap));
      run.awaitReadingsInBuckets(readings.size(), HOUR);
      assertThat(store.documents(MINUTE)).isEqualTo(10);
      BucketStoreAssertions.assertStoreEqualsComputation(store, readings, MINUTE, HOUR);
    }
  }

  /**
   * Readings that arrive after their windows closed, within the lateness horizon, are merged: the
   * minute and the hour that hold them are written again, whole, with a higher revision, and
   * MongoDB ends up equal to the computation over every reading.
   */
  @Test
  void shouldMergeLateReadingsIntoClosedWindowsAndWriteThemAgain() throws Exception {
    final List<Reading> onTime =
        GeneratedReadings.of(
            new ReadingGenerator.Options(
                4, HISTORY, Duration.ofSeconds(2), Duration.ZERO, 0, 0, 1200, 5));
    final List<Reading> late = new ArrayList<>();
    for (int sensor = 0; sensor < 4; sensor++) {
      final String id = String.format("sensor-%04d", sensor);
      final String metric = sensor % 3 == 2 ? "humidity" : "temperature";
      late.add(reading(id, metric, HISTORY.plusSeconds(185).plusMillis(500), 100 + sensor));
      late.add(reading(id, metric, HISTORY.plusSeconds(420).plusMillis(250), 200 + sensor));
    }
    final List<Reading> all = new ArrayList<>(onTime);
    all.addAll(late);

    try (InProcessRun run = newRun("2s");
        BucketerApp app = run.start()) {
      final StoredDocuments store = run.store();
      run.send(onTime);
      // Every window closes: on event time, then the last ones on the idle timeout.
      run.awaitReadingsInBuckets(onTime.size(), HOUR);
      run.send(late);
      run.awaitReadingsInBuckets(all.size(), MINUTE, HOUR);
      BucketStoreAssertions.assertStoreEqualsComputation(store, all, MINUTE, HOUR);
      assertThat(store.all(HOUR))
          .extracting(d -> d.getInt32("revision").getValue())
          .containsOnly(2);
      assertThat(store.all(MINUTE))
          .filteredOn(d -> d.getInt32("revision").getValue() == 1)
          .hasSize(8);
    }
  }

  /**
   * Gateways resend: some readings twice at once, some after their windows closed, some after the
   * processor restarted; and two readings come again with another value. Each reading counts once
   * (the corrected ones with their later value, keep-last), and windows nothing changed in are not
   * written again.
   */
  @Test
  void shouldCountResentReadingsOnceAtOnceAfterTheirWindowsClosedAndAfterARestart()
      throws Exception {
    final List<Reading> readings =
        GeneratedReadings.of(
            new ReadingGenerator.Options(
                4, HISTORY, Duration.ofSeconds(2), Duration.ZERO, 0, 0, 1200, 17));
    final List<Reading> withResendsAtOnce = new ArrayList<>();
    for (int i = 0; i < readings.size(); i++) {
      withResendsAtOnce.add(readings.get(i));
      if (i % 5 == 0) {
        withResendsAtOnce.add(readings.get(i));
      }
    }
    final List<Reading> resentAfterClosing = everyNth(readings, 7);
    final List<Reading> resentAfterRestart = everyNth(readings, 11);
    final List<Reading> corrected = new ArrayList<>(readings);
    final List<Reading> corrections = new ArrayList<>();
    for (final int index : List.of(10, 600)) {
      final Reading correction = Reading.newBuilder(readings.get(index)).setValue(1e6).build();
      corrections.add(correction);
      corrected.set(index, correction);
    }

    try (InProcessRun run = newRun("2s")) {
      final StoredDocuments store = run.store();
      final SimpleMeterRegistry meters = new SimpleMeterRegistry();
      try (BucketerApp app = run.start(meters)) {
        run.send(withResendsAtOnce);
        run.awaitReadingsInBuckets(readings.size(), MINUTE, HOUR);
        run.send(resentAfterClosing);
        awaitResent(meters, withResendsAtOnce.size() - readings.size() + resentAfterClosing.size());
        BucketStoreAssertions.assertStoreEqualsComputation(store, readings, MINUTE, HOUR);
        assertThat(store.all(MINUTE))
            .extracting(d -> d.getInt32("revision").getValue())
            .containsOnly(0);
      }
      // Without an instance.id the stopped instance left its group: the next one starts at once.
      assertThat(groupMembers(run, run.config().applicationId())).isZero();
      final SimpleMeterRegistry restarted = new SimpleMeterRegistry();
      try (BucketerApp app = run.start(restarted)) {
        run.send(resentAfterRestart);
        awaitResent(restarted, resentAfterRestart.size());
        run.send(corrections);
        await()
            .atMost(InProcessRun.DEADLINE)
            .until(
                () ->
                    store.all(MINUTE).stream()
                            .filter(d -> d.getInt32("revision").getValue() == 1)
                            .count()
                        == 2);
        run.awaitReadingsInBuckets(readings.size(), MINUTE, HOUR);
        await()
            .atMost(InProcessRun.DEADLINE)
            .untilAsserted(
                () ->
                    BucketStoreAssertions.assertStoreEqualsComputation(
                        store, corrected, MINUTE, HOUR));
        assertThat(readingsCounted(restarted, "replaced")).isEqualTo(2);
      }
    }
  }

  private static int groupMembers(final InProcessRun run, final String group) throws Exception {
    try (Admin admin = Admin.create(run.config().kafkaProperties())) {
      return admin
          .describeConsumerGroups(List.of(group))
          .describedGroups()
          .get(group)
          .get()
          .members()
          .size();
    }
  }

  private static <T> List<T> everyNth(final List<T> items, final int n) {
    final List<T> chosen = new ArrayList<>();
    for (int i = 0; i < items.size(); i += n) {
      chosen.add(items.get(i));
    }
    return chosen;
  }

  private static void awaitResent(final SimpleMeterRegistry meters, final long resent) {
    await("" + resent + " readings counted as resent")
        .atMost(InProcessRun.DEADLINE)
        .until(() -> readingsCounted(meters, "resent") == resent);
  }

  private static double readingsCounted(final SimpleMeterRegistry meters, final String outcome) {
    return meters.get(BucketerMetrics.READINGS).tag("outcome", outcome).counter().count();
  }

  /** 100 readings a second: each minute is six capped documents, each hour many more. */
  @Test
  void shouldSplitTheWindowsOfAFastSensorIntoCappedDocuments() throws Exception {
    final List<Reading> readings =
        GeneratedReadings.of(
            new ReadingGenerator.Options(
                1, HISTORY, Duration.ofMillis(10), Duration.ZERO, 0, 0, 15_000, 9));

    try (InProcessRun run = newRun("2s");
        BucketerApp app = run.start()) {
      final StoredDocuments store = run.store();
      run.send(readings);
      run.awaitReadingsInBuckets(readings.size(), MINUTE, HOUR);
      BucketStoreAssertions.assertStoreEqualsComputation(store, readings, MINUTE, HOUR);
      assertThat(store.all(MINUTE)).hasSize(15);
      assertThat(store.all(MINUTE))
          .allSatisfy(d -> assertThat(d.getArray("measurements")).hasSizeLessThanOrEqualTo(1000));
      // The hour holds its minutes' summaries: one document at any reading rate.
      assertThat(store.all(HOUR))
          .singleElement()
          .satisfies(d -> assertThat(d.getArray("summaries")).hasSize(3));
    }
  }

  /**
   * input.partitioning=by-sensor: the gateways key readings by sensor id, so the topology keeps its
   * state per input partition and writes no repartition topic; the buckets are the same.
   */
  @Test
  void shouldBucketInputKeyedBySensorWithoutARepartitionTopic() throws Exception {
    final List<Reading> readings =
        GeneratedReadings.of(
            new ReadingGenerator.Options(
                12, HISTORY, Duration.ofSeconds(3), Duration.ofMillis(500), 0.05, 24, 4000, 13));

    try (InProcessRun run =
            new InProcessRun(
                endpoints(),
                stateDir,
                3,
                Map.of(
                    WindowSettings.IDLE_TIMEOUT,
                    "2s",
                    KafkaSettings.INPUT_PARTITIONING,
                    KafkaSettings.PARTITIONING_BY_SENSOR));
        BucketerApp app = run.start()) {
      run.send(readings);
      run.awaitReadingsInBuckets(readings.size(), MINUTE, HOUR);
      BucketStoreAssertions.assertStoreEqualsComputation(run.store(), readings, MINUTE, HOUR);
      assertThat(run.deadLetters()).isEmpty();
      try (Admin admin = Admin.create(run.config().kafkaProperties())) {
        assertThat(admin.listTopics().names().get())
            .filteredOn(topic -> topic.startsWith(run.config().applicationId()))
            .isNotEmpty()
            .noneMatch(topic -> topic.contains("repartition"));
      }
    }
  }

  /**
   * Each input format, with what gateways do in every format: messages that come late (after their
   * windows closed), messages resent at once and after their windows closed, and records wrong in
   * each way the format can be, sent among the good ones. Every document equals the computation
   * over the messages' readings, each counted once, and every bad record is dead-lettered once,
   * whole, with its reason.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("io.bucketer.pipeline.FormatCases#all")
  void shouldBucketEachFormatWithLateResentAndBadRecordsAsTheComputationSays(
      final FormatCase format) throws Exception {
    final List<GatewayMessages.Message> messages =
        GatewayMessages.generate(4, HISTORY, Duration.ofSeconds(5), Duration.ofMinutes(6), 23);
    final List<GatewayMessages.Message> late = everyNth(messages, 9);
    final List<GatewayMessages.Message> onTime = new ArrayList<>(messages);
    onTime.removeAll(late);
    final Map<String, String> settings = new HashMap<>(format.settings());
    settings.put(WindowSettings.IDLE_TIMEOUT, "2s");

    try (InProcessRun run = new InProcessRun(endpoints(), stateDir, 2, settings);
        BucketerApp app = run.start()) {
      final FormatCase.Registry registry =
          new FormatCase.Registry(
              run.encoder(), run.registryClient(), run.config().inputTopic() + "-value");
      final List<FormatCase.BadRecord> bad = format.badRecords(registry);
      final List<FormatCase.OutgoingRecord> first = new ArrayList<>(format.preamble(registry));
      for (int i = 0; i < onTime.size(); i++) {
        first.add(format.record(onTime.get(i), registry));
        if (i % 5 == 0) {
          first.add(format.record(onTime.get(i), registry)); // resent at once
        }
        if (i % 40 == 20 && i / 40 < bad.size()) {
          first.add(bad.get(i / 40).record());
        }
      }
      bad.stream().skip(onTime.size() / 40).forEach(b -> first.add(b.record()));
      run.sendRecords(first.stream().map(FormatCase.OutgoingRecord::toProducerRecord).toList());
      run.awaitReadingsInBuckets(GatewayMessages.readings(onTime).size(), MINUTE, HOUR);

      final List<FormatCase.OutgoingRecord> second = new ArrayList<>();
      late.forEach(m -> second.add(format.record(m, registry)));
      everyNth(onTime, 7).forEach(m -> second.add(format.record(m, registry))); // resent late
      run.sendRecords(second.stream().map(FormatCase.OutgoingRecord::toProducerRecord).toList());
      final List<Reading> readings =
          GatewayMessages.readings(messages).stream().map(format::asRead).toList();
      run.awaitReadingsInBuckets(readings.size(), MINUTE, HOUR);
      BucketStoreAssertions.assertStoreEqualsComputation(run.store(), readings, MINUTE, HOUR);
      // The late messages came after their hours closed: those were written again.
      assertThat(run.store().all(HOUR))
          .extracting(d -> d.getInt32("revision").getValue())
          .anyMatch(revision -> revision > 0);
      await()
          .atMost(InProcessRun.DEADLINE)
          .untilAsserted(
              () ->
                  assertThat(run.deadLetters())
                      .extracting(
                          dead ->
                              tuple(
                                  new String(
                                      dead.headers().lastHeader(DeadLetterHeaders.REASON).value(),
                                      StandardCharsets.UTF_8),
                                  dead.value()))
                      .containsExactlyInAnyOrderElementsOf(
                          bad.stream().map(b -> tuple(b.reason(), b.record().value())).toList()));
    }
  }

  /**
   * What a user asks of a range, answered from the documents this pipeline wrote, as the query API
   * answers it: for series that report on change (steady spells, bursts, and silences longer than
   * the default max gap of five minutes), the range's count, time-weighted average, integral,
   * covered time and gaps equal an independent computation over the raw readings, and its p50, p90,
   * p95 and p99 lie within the sketch's α of the exact quantiles. Ranges cut minutes and hours, and
   * start or end inside silences. Against real MongoDB wherever Docker runs.
   */
  @Test
  void shouldAnswerRangesOfIrregularSeriesAsTheIndependentComputationOfTheirReadingsSays()
      throws Exception {
    final long start = HISTORY.toEpochMilli();
    final SplittableRandom random = new SplittableRandom(31);
    final Map<String, List<Measurement>> sent = new TreeMap<>();
    final List<Reading> readings = new ArrayList<>();
    for (final String sensor : List.of("meter-1", "meter-2", "meter-3")) {
      final List<Measurement> series = IrregularReadings.of(random, start, 3 * 3_600_000);
      sent.put(sensor, series);
      series.forEach(
          m -> readings.add(reading(sensor, Instant.ofEpochMilli(m.timestamp()), m.value())));
    }
    readings.sort(Comparator.comparing(Reading::getTimestamp));
    final List<long[]> ranges = new ArrayList<>();
    ranges.add(new long[] {start, start + 3 * 3_600_000}); // whole hours
    ranges.add(new long[] {start + 1_800_000, start + 7_230_500}); // cuts hours and minutes
    for (int i = 0; i < 20; i++) {
      final long from = start - 600_000 + random.nextLong(3 * 3_600_000);
      ranges.add(new long[] {from, from + 1 + random.nextLong(2 * 3_600_000)});
    }

    try (InProcessRun run = newRun("2s");
        BucketerApp app = run.start()) {
      run.send(readings);
      run.awaitReadingsInBuckets(readings.size(), MINUTE, HOUR);
      final WindowComputations computations = run.config().windows().computations();
      final SeriesQueries queries =
          new SeriesQueries(
              run.store().buckets(List.of(MINUTE, HOUR)),
              Retention.NONE,
              Clock.systemUTC(),
              computations,
              IntegralUnits.SECONDS);
      // a window whose edge a later reading moved may still be on its way to MongoDB
      await()
          .atMost(InProcessRun.DEADLINE)
          .untilAsserted(
              () -> {
                for (final Map.Entry<String, List<Measurement>> series : sent.entrySet()) {
                  final SeriesKey key = new SeriesKey(series.getKey(), null);
                  for (final long[] range : ranges) {
                    assertRangeAnswered(
                        queries.statistics(key, range[0], range[1], LiveWindows.NONE),
                        series.getValue(),
                        range,
                        computations.timeWeightings().of(key),
                        computations.sketchAccuracies().of(key).orElseThrow(),
                        key + " [" + range[0] + ", " + range[1] + ")");
                  }
                }
              });
    }
  }

  private static void assertRangeAnswered(
      final SeriesQueries.Statistics answer,
      final List<Measurement> readings,
      final long[] range,
      final TimeWeighting weighting,
      final double alpha,
      final String what) {
    final double[] exact = ExactQuantiles.sortedValues(readings, range[0], range[1]);
    assertThat(answer.count()).as(what + " count").isEqualTo(exact.length);
    TimeWeightAssertions.assertPartMatches(
        answer.timeWeight().part(),
        TimeWeightOracle.of(readings, range[0], range[1], weighting),
        what);
    for (final double level : new double[] {0.5, 0.9, 0.95, 0.99}) {
      if (exact.length > 0) {
        final double x = ExactQuantiles.nearestRank(exact, level);
        final double bound = alpha * Math.abs(x) * (1 + 1e-12);
        assertThat(answer.sketch().sketch().quantile(level).orElseThrow())
            .as("%s q %s: exact %s", what, level, x)
            .isBetween(x - bound, x + bound);
      }
    }
  }

  /** A run on two input partitions whose idle timeout closes quiet windows after {@code idle}. */
  private InProcessRun newRun(final String idle) throws Exception {
    return new InProcessRun(endpoints(), stateDir, 2, Map.of(WindowSettings.IDLE_TIMEOUT, idle));
  }

  private static Reading reading(final String sensor, final Instant time, final double value) {
    return reading(sensor, null, time, value);
  }

  private static Reading reading(
      final String sensor, final String metric, final Instant time, final double value) {
    return Reading.newBuilder()
        .setSensorId(sensor)
        .setMetric(metric)
        .setTimestamp(time)
        .setValue(value)
        .build();
  }
}
