package io.bucketer.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.mongodb.reactivestreams.client.MongoClient;
import com.mongodb.reactivestreams.client.MongoClients;
import io.bucketer.avro.Reading;
import io.bucketer.buckets.ClosedBucket;
import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.Measurement;
import io.bucketer.buckets.Retention;
import io.bucketer.buckets.SeriesKey;
import io.bucketer.buckets.WindowQuality;
import io.bucketer.embedded.EmbeddedMongoServer;
import io.bucketer.ingest.ReadingDecoder;
import io.bucketer.metrics.BucketerMetrics;
import io.bucketer.query.ChartPoint;
import io.bucketer.query.GapFill;
import io.bucketer.query.LiveWindows;
import io.bucketer.query.Resolution;
import io.bucketer.query.SeriesQueries;
import io.bucketer.query.SeriesQueries.Statistics;
import io.bucketer.query.StoredBuckets;
import io.bucketer.query.WindowTotals;
import io.bucketer.sink.MongoBucketWriter;
import io.bucketer.testing.ReadingTotals;
import io.bucketer.testing.SeriesBuckets;
import io.bucketer.testing.TimeWeightOracle;
import io.bucketer.windows.PublishedWindows;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Queries that include open buckets: readings go through the real topology (in a test driver), its
 * closed buckets go to MongoDB except the last few (a sink that lags), and a late reading re-closes
 * a minute whose newer revision MongoDB does not have yet. Statistics and chart windows over ranges
 * that cut minutes, span whole hours and reach into the open ones must equal a computation straight
 * from the readings sent.
 */
class LiveSeriesQueriesTest {

  private static final Granularity MINUTE = Granularity.parse("1m");
  private static final Granularity HOUR = Granularity.parse("1h");
  private static final SeriesKey SERIES = new SeriesKey("s-live", "temperature");
  private static final SeriesKey NEIGHBOUR = new SeriesKey("s-next", "temperature");

  /** A series that has only just started: all its windows are open, none is in MongoDB. */
  private static final SeriesKey FRESH = new SeriesKey("s-fresh", null);

  private static final long TEN = Instant.parse("2025-06-01T10:00:00Z").toEpochMilli();
  private static final Duration TIMEOUT = Duration.ofSeconds(30);

  /** Buckets the sink has not written yet: the newest closed minutes are only in the state. */
  private static final int IN_FLIGHT = 3;

  @TempDir static Path stateDir;

  private static final List<Measurement> SENT = new ArrayList<>();
  private static TopologyTestDriver driver;
  private static EmbeddedMongoServer mongo;
  private static MongoClient client;
  private static SeriesQueries queries;
  private static LiveWindows live;

  /** The open windows the aggregator holds in memory, as queries find them. */
  private static final PublishedWindows.Directory PUBLISHED = new PublishedWindows.Directory();

  @BeforeAll
  static void runTheTopologyAndTheSink() {
    driver =
        TopologyTopics.driver(
            stateDir,
            () -> new ReadingDecoder(id -> Reading.getClassSchema()),
            new BucketerMetrics(new SimpleMeterRegistry()),
            Instant.now(),
            BucketTopologyTest.SETTINGS,
            PUBLISHED);
    final TopologyTopics topics = TopologyTopics.of(driver);
    final TestInputTopic<byte[], byte[]> input = topics.input();
    // 10:00 to about 12:57:30 at about 1 Hz: hours 10 and 11 close, hour 12 and its last minute
    // stay open.
    final List<Measurement> onTime = SeriesBuckets.readings(SERIES, TEN, 3 * 3_600 - 150);
    for (final Measurement reading : onTime) {
      send(input, SERIES, reading);
    }
    // late, within the horizon: minute 12:40 closed long ago and is emitted again, revision 1
    send(input, SERIES, new Measurement(TEN + 2 * 3_600_000L + 40 * 60_000L + 1_234, 99.5));
    // another series in the same stores and collections must not leak into the answers
    for (final Measurement reading : SeriesBuckets.readings(NEIGHBOUR, TEN, 3 * 3_600)) {
      input.pipeInput(null, BucketTopologyTest.frame(reading(NEIGHBOUR, reading)));
    }

    for (int second = 0; second < 30; second++) {
      input.pipeInput(
          null,
          BucketTopologyTest.frame(
              reading(FRESH, new Measurement(at(12, 57) + second * 1_000L, second))));
    }
    // resends, which change no figure: the first five of the fresh series' open minute, and one
    // reading of 12:41, closed and written, which no new revision tells MongoDB of
    for (int second = 0; second < 5; second++) {
      input.pipeInput(
          null,
          BucketTopologyTest.frame(
              reading(FRESH, new Measurement(at(12, 57) + second * 1_000L, second))));
    }
    input.pipeInput(
        null,
        BucketTopologyTest.frame(
            reading(
                SERIES,
                onTime.stream()
                    .filter(m -> m.timestamp() >= at(12, 41))
                    .findFirst()
                    .orElseThrow())));

    final List<ClosedBucket> closed = topics.buckets().readValuesToList();
    final List<ClosedBucket> ofSeries =
        closed.stream().filter(bucket -> bucket.series().equals(SERIES)).toList();
    final List<ClosedBucket> written = new ArrayList<>(closed);
    // the sink lags: the newest closed buckets of the series, the late revision among them
    written.removeAll(ofSeries.subList(ofSeries.size() - IN_FLIGHT, ofSeries.size()));
    assertThat(ofSeries.get(ofSeries.size() - 1).revision()).isEqualTo(1);

    mongo = EmbeddedMongoServer.start();
    client = MongoClients.create(mongo.connectionString());
    new MongoBucketWriter(
            client.getDatabase("iot"), "buckets_", List.of(MINUTE, HOUR), Retention.NONE, 500, 4)
        .write(written, TIMEOUT);
    queries =
        new SeriesQueries(
            new StoredBuckets(
                client.getDatabase("iot"), "buckets_", List.of(MINUTE, HOUR), TIMEOUT));
    live = new StateStoreWindows(LiveSeriesQueriesTest::store, MINUTE, PUBLISHED.of(0));
  }

  @SuppressWarnings("unchecked")
  private static ReadOnlyKeyValueStore<Bytes, byte[]> store(final String name) {
    // the window stores are bucketer's own type, which only this accessor hands out
    return (ReadOnlyKeyValueStore<Bytes, byte[]>) driver.getAllStateStores().get(name);
  }

  @AfterAll
  static void stop() {
    driver.close();
    client.close();
    mongo.close();
  }

  @Test
  void shouldCountTheOpenHourAndItsOpenMinute() {
    final Statistics openHour = queries.statistics(SERIES, at(12, 0), at(13, 0), live);

    assertEqualsSent(openHour, at(12, 0), at(13, 0));
    assertThat(openHour.documentsRead()).as("no hour 12:00 in MongoDB yet").isZero();
    assertThat(openHour.stateWindowsRead()).isPositive();
  }

  @Test
  void shouldReadAClosedHourFromOneDocumentOnceTheStateForgotAllButItsLastMinutes() {
    final Statistics closedHour = queries.statistics(SERIES, at(10, 0), at(11, 0), live);

    assertEqualsSent(closedHour, at(10, 0), at(11, 0));
    assertThat(closedHour.documentsRead()).isEqualTo(1);
    // the state forgot the hour but for 10:55 - 10:59, kept for the default 5 minute max gap: the
    // readings a window of 11:00 may carry in
    assertThat(closedHour.stateWindowsRead()).isEqualTo(5);
  }

  @Test
  void shouldAnswerTheTimeWeightedPartOfRangesIntoTheStatesWindowsFromTheirReadings() {
    final List<Measurement> all = new ArrayList<>(SENT);
    all.sort(Comparator.comparingLong(Measurement::timestamp));
    final List<long[]> ranges = new ArrayList<>();
    ranges.add(new long[] {at(12, 0), at(13, 0)}); // the open hour and its open minute
    ranges.add(new long[] {at(11, 30) + 500, at(12, 58)});
    // the late minute's newer revision, and the minutes the sink has not written yet
    ranges.add(new long[] {at(12, 39) + 10, at(12, 57) + 30_000});
    final SplittableRandom random = new SplittableRandom(31);
    for (int i = 0; i < 30; i++) {
      final long from = TEN + random.nextLong(0, 3 * 3_600_000L);
      ranges.add(new long[] {from, from + 1 + random.nextLong(0, 2 * 3_600_000L)});
    }
    for (final long[] range : ranges) {
      final SeriesQueries.TimeWeight answer =
          queries.statistics(SERIES, range[0], range[1], live).timeWeight();
      final TimeWeightOracle expected = TimeWeightOracle.of(all, range[0], range[1], 300_000);
      final String what = "[" + range[0] + ", " + range[1] + ")";
      assertThat(answer.missing()).as(what).isNull();
      assertThat(answer.part().coveredMillis()).as(what).isEqualTo(expected.covered());
      assertThat(answer.part().gaps()).as(what).isEqualTo(expected.gaps());
      assertThat(answer.part().longestGapMillis()).as(what).isEqualTo(expected.longest());
      assertThat(Math.abs(answer.part().integral() - expected.integral().doubleValue()))
          .as(what)
          .isLessThanOrEqualTo(1e-9 * Math.abs(expected.integral().doubleValue()));
    }
  }

  @Test
  void shouldAnswerTheQuantilesOfRangesIntoTheStatesWindowsWithinTheSketchsBound() {
    final SplittableRandom random = new SplittableRandom(37);
    final List<long[]> ranges = new ArrayList<>();
    ranges.add(new long[] {at(12, 0), at(13, 0)}); // the open hour and its open minute
    ranges.add(new long[] {at(10, 0), at(12, 0)}); // two stored hours
    // the late minute's newer revision, and the minutes the sink has not written yet
    ranges.add(new long[] {at(12, 39) + 10, at(12, 57) + 30_000});
    for (int i = 0; i < 30; i++) {
      final long from = TEN + random.nextLong(0, 3 * 3_600_000L);
      ranges.add(new long[] {from, from + 1 + random.nextLong(0, 2 * 3_600_000L)});
    }
    for (final long[] range : ranges) {
      final String what = "[" + range[0] + ", " + range[1] + ")";
      final Statistics answer = queries.statistics(SERIES, range[0], range[1], live);
      final double[] exact =
          between(range[0], range[1]).stream().mapToDouble(Measurement::value).sorted().toArray();
      assertThat(answer.sketch().missing()).as(what).isNull();
      assertThat(answer.sketch().sketch().count()).as(what).isEqualTo(exact.length);
      for (final double q : new double[] {0, 0.5, 0.9, 0.95, 0.99, 1}) {
        // the nearest rank: the smallest value whose 1-based rank is at least q·n
        final int rank =
            BigDecimal.valueOf(q)
                .multiply(BigDecimal.valueOf(exact.length))
                .setScale(0, RoundingMode.CEILING)
                .intValueExact();
        final double x = exact[Math.max(1, rank) - 1];
        final double alpha = answer.sketch().relativeAccuracy().orElseThrow();
        assertThat(answer.sketch().sketch().quantile(q).orElseThrow())
            .as("%s q %s", what, q)
            .isCloseTo(x, within(alpha * Math.abs(x) * (1 + 1e-12)));
      }
    }
  }

  @Test
  void shouldGiveChartPointsOfTheStatesWindowsTheirTimeWeightedPartsAndSketches() {
    final List<Measurement> all = new ArrayList<>(SENT);
    all.sort(Comparator.comparingLong(Measurement::timestamp));
    for (final Resolution resolution :
        List.of(
            Resolution.of(MINUTE, at(12, 30), at(13, 0)),
            Resolution.of(HOUR, at(10, 0), at(13, 0)))) {
      final SeriesQueries.Points points = queries.points(SERIES, resolution, GapFill.NONE, live);
      int open = 0;
      for (final ChartPoint point : points.points()) {
        final WindowTotals window = ((ChartPoint.Measured) point).totals();
        final String what = resolution.read() + "@" + window.start();
        final TimeWeightOracle expected =
            TimeWeightOracle.of(all, window.start(), window.end(), 300_000);
        assertThat(window.timeWeighted()).as(what).isNotNull();
        assertThat(window.timeWeighted().coveredMillis()).as(what).isEqualTo(expected.covered());
        assertThat(window.timeWeighted().gaps()).as(what).isEqualTo(expected.gaps());
        assertThat(Math.abs(window.timeWeighted().integral() - expected.integral().doubleValue()))
            .as(what)
            .isLessThanOrEqualTo(1e-9 * Math.abs(expected.integral().doubleValue()));
        assertThat(window.sketch().count()).as(what).isEqualTo(window.count());
        open += window.open() ? 1 : 0;
      }
      assertThat(open).as("open windows among %s", resolution.read()).isEqualTo(1);
    }
  }

  @Test
  void shouldTakeTheStatesNewerRevisionOfALateMinute() {
    final Statistics minute = queries.statistics(SERIES, at(12, 40), at(12, 41), live);

    assertEqualsSent(minute, at(12, 40), at(12, 41));
    assertThat(minute.max()).isEqualTo(99.5);
  }

  @Test
  void shouldEqualTheReadingsOverRandomRangesIntoTheOpenWindows() {
    final SplittableRandom random = new SplittableRandom(5);
    for (int i = 0; i < 60; i++) {
      final long from = TEN + random.nextLong(0, 3 * 3_600_000L);
      final long to = from + 1 + random.nextLong(0, 2 * 3_600_000L);
      assertEqualsSent(queries.statistics(SERIES, from, to, live), from, to);
    }
  }

  @Test
  void shouldChartMinutesUpToTheOpenOneAndHoursUpToTheOpenOne() {
    final SeriesQueries.Windows minutes =
        queries.windows(SERIES, MINUTE, at(12, 30) + 15_000, at(13, 0), live);
    assertWindowsEqualSent(minutes.windows(), MINUTE, at(12, 30), at(13, 0));
    assertThat(minutes.windows().get(minutes.windows().size() - 1).open()).isTrue();
    assertThat(minutes.windows().stream().filter(WindowTotals::open)).hasSize(1);

    final SeriesQueries.Windows hours = queries.windows(SERIES, HOUR, at(10, 0), at(13, 0), live);
    assertWindowsEqualSent(hours.windows(), HOUR, at(10, 0), at(13, 0));
    assertThat(hours.windows()).extracting(WindowTotals::open).containsExactly(false, false, true);
  }

  @Test
  void shouldCountTheResendsAndLateReadingsOfTheWindowsTheStateHolds() {
    final Statistics lateMinute = queries.statistics(SERIES, at(12, 40), at(12, 41), live);
    final Statistics resentMinute = queries.statistics(SERIES, at(12, 41), at(12, 42), live);
    final Statistics openHour = queries.statistics(SERIES, at(12, 0), at(13, 0), live);
    final Statistics fresh = queries.statistics(FRESH, at(12, 0), at(13, 0), live);
    final Statistics storedHours = queries.statistics(SERIES, at(10, 0), at(12, 0), live);
    final SeriesQueries.Points freshMinutes =
        queries.points(FRESH, Resolution.of(MINUTE, at(12, 0), at(13, 0)), GapFill.NONE, live);

    // the state's counts, newer than what MongoDB holds of these minutes
    assertThat(lateMinute.quality().counts()).isEqualTo(new WindowQuality(0, 1));
    assertThat(resentMinute.quality().counts()).isEqualTo(new WindowQuality(1, 0));
    // the open hour took both minutes: their counts are its own
    assertThat(openHour.documentsRead()).isZero();
    assertThat(openHour.quality().counts()).isEqualTo(new WindowQuality(1, 1));
    assertThat(fresh.quality().counts()).isEqualTo(new WindowQuality(5, 0));
    // the sink's documents count too: none in the hours before, known
    assertThat(storedHours.documentsRead()).isPositive();
    assertThat(storedHours.quality().counts()).isEqualTo(WindowQuality.NONE);
    assertThat(freshMinutes.points()).hasSize(1);
    assertThat(freshMinutes.quality(freshMinutes.points().get(0)).counts())
        .isEqualTo(new WindowQuality(5, 0));
  }

  @Test
  void shouldKnowASeriesThatOnlyTheStateHolds() {
    assertThat(queries.exists(SERIES, live)).isTrue();
    assertThat(queries.exists(new SeriesKey("s-none", "temperature"), live)).isFalse();
    assertThat(queries.exists(FRESH, live)).isTrue();
    final Statistics fresh = queries.statistics(FRESH, at(12, 0), at(13, 0), live);
    assertThat(fresh.count()).isEqualTo(30);
    assertThat(fresh.sum()).isEqualTo(29 * 30 / 2.0);
    assertThat(fresh.documentsRead()).isZero();
  }

  private static void assertWindowsEqualSent(
      final List<WindowTotals> windows,
      final Granularity granularity,
      final long from,
      final long to) {
    final List<Long> expectedStarts = new ArrayList<>();
    for (long start = from; start < to; start += granularity.sizeMillis()) {
      if (!between(start, granularity.windowEnd(start)).isEmpty()) {
        expectedStarts.add(start);
      }
    }
    assertThat(windows).extracting(WindowTotals::start).containsExactlyElementsOf(expectedStarts);
    for (final WindowTotals window : windows) {
      ReadingTotals.of(between(window.start(), window.end()))
          .assertAnswered(
              window.toString(), window.count(), window.sum(), window.min(), window.max());
    }
  }

  private static void assertEqualsSent(final Statistics found, final long from, final long to) {
    ReadingTotals.of(between(from, to))
        .assertAnswered(
            "[" + from + ", " + to + ")", found.count(), found.sum(), found.min(), found.max());
  }

  private static List<Measurement> between(final long from, final long to) {
    return SENT.stream().filter(m -> m.timestamp() >= from && m.timestamp() < to).toList();
  }

  private static void send(
      final TestInputTopic<byte[], byte[]> input, final SeriesKey series, final Measurement m) {
    SENT.add(m);
    input.pipeInput(null, BucketTopologyTest.frame(reading(series, m)));
  }

  private static Reading reading(final SeriesKey series, final Measurement measurement) {
    return Reading.newBuilder()
        .setSensorId(series.sensorId())
        .setMetric(series.metric())
        .setTimestamp(Instant.ofEpochMilli(measurement.timestamp()))
        .setValue(measurement.value())
        .build();
  }

  private static long at(final int hour, final int minute) {
    return TEN + (hour - 10) * 3_600_000L + minute * 60_000L;
  }
}
