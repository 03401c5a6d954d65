package io.bucketer.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.mongodb.reactivestreams.client.MongoClient;
import com.mongodb.reactivestreams.client.MongoClients;
import io.bucketer.buckets.BucketStats;
import io.bucketer.buckets.ClosedBucket;
import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.Measurement;
import io.bucketer.buckets.Retention;
import io.bucketer.buckets.SeriesKey;
import io.bucketer.embedded.EmbeddedMongoServer;
import io.bucketer.query.SeriesQueries.Points;
import io.bucketer.sink.MongoBucketWriter;
import io.bucketer.testing.ReadingTotals;
import io.bucketer.testing.SeriesBuckets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Charts at a picked resolution over bucket documents in the MongoDB stand-in: each point equals
 * the totals of the readings in its span, computed straight from them; the documents read are the
 * hours whose summaries hold the minutes, or the hours themselves; the points of a real gap in the
 * readings are filled by each rule from the readings around it; an open window in the state makes
 * its point open.
 */
class StoredChartPointsTest {

  private static final Granularity MINUTE = Granularity.parse("1m");
  private static final Granularity HOUR = Granularity.parse("1h");
  private static final List<Granularity> GRANULARITIES = List.of(MINUTE, HOUR);
  private static final SeriesKey SERIES = new SeriesKey("sensor-3", "temperature");
  private static final SeriesKey OTHER = new SeriesKey("sensor-4", "temperature");
  private static final Duration TIMEOUT = Duration.ofSeconds(30);
  private static final long START = at("12:00");
  private static final long FIFTEEN_MINUTES = 900_000;

  /** Three hours at about 1 Hz, but for a gap from 12:40 to 13:20: no reading, no window. */
  private static final List<Measurement> READINGS =
      SeriesBuckets.readings(SERIES, START, 3 * 3_600).stream()
          .filter(m -> m.timestamp() < at("12:40") || m.timestamp() >= at("13:20"))
          .toList();

  private static EmbeddedMongoServer server;
  private static MongoClient client;
  private static SeriesQueries queries;

  @BeforeAll
  static void storeBuckets() {
    server = EmbeddedMongoServer.start();
    client = MongoClients.create(server.connectionString());
    final List<ClosedBucket> buckets = new ArrayList<>();
    buckets.addAll(SeriesBuckets.closed(SERIES, GRANULARITIES, READINGS));
    // another series in the same collections must not leak into the points
    buckets.addAll(
        SeriesBuckets.closed(
            OTHER, GRANULARITIES, SeriesBuckets.readings(OTHER, START, 3 * 3_600)));
    new MongoBucketWriter(
            client.getDatabase("iot"), "buckets_", GRANULARITIES, Retention.NONE, 500, 4)
        .write(buckets, TIMEOUT);
    queries =
        new SeriesQueries(
            new StoredBuckets(client.getDatabase("iot"), "buckets_", GRANULARITIES, TIMEOUT));
  }

  @AfterAll
  static void stop() {
    client.close();
    server.close();
  }

  @Test
  void shouldMergeMinutesFromTheHoursSummariesIntoPointsEqualToTheirReadings() {
    final Resolution resolution = pick(at("12:07"), at("14:52"), OptionalLong.of(11));
    final Points found = queries.points(SERIES, resolution, GapFill.NONE, LiveWindows.NONE);

    // 165 minutes in 11 points: fifteen minutes a point, on the quarter hours
    assertThat(resolution.read()).isEqualTo(MINUTE);
    assertThat(resolution.windowsPerPoint()).isEqualTo(15);
    assertThat(found.readFrom()).isEqualTo("buckets_1h summaries");
    assertThat(found.documentsRead()).isEqualTo(3);
    assertThat(found.stateWindowsRead()).isZero();
    // the points of the independent computation: each quarter hour with readings, whole
    final TreeSet<Long> withReadings = new TreeSet<>();
    READINGS.forEach(m -> withReadings.add(m.timestamp() / FIFTEEN_MINUTES * FIFTEEN_MINUTES));
    assertThat(found.points().stream().map(ChartPoint::start))
        .containsExactlyElementsOf(withReadings);
    for (final ChartPoint point : found.points()) {
      assertThat(point).isInstanceOf(ChartPoint.Measured.class);
      assertThat(point.end() - point.start()).isEqualTo(FIFTEEN_MINUTES);
      assertEqualsReadings(((ChartPoint.Measured) point).totals());
    }
    // the gap from 12:40 to 13:20 leaves out the points of 12:45 and 13:00
    assertThat(found.points()).hasSize(12 - 2);
  }

  @Test
  void shouldReadTheHoursThemselvesWhenAPointIsAnHour() {
    final Points found =
        queries.points(
            SERIES,
            pick(at("12:00"), at("15:00"), OptionalLong.of(3)),
            GapFill.NONE,
            LiveWindows.NONE);

    assertThat(found.resolution().read()).isEqualTo(HOUR);
    assertThat(found.resolution().windowsPerPoint()).isEqualTo(1);
    assertThat(found.readFrom()).isEqualTo("buckets_1h");
    assertThat(found.documentsRead()).isEqualTo(3);
    assertThat(found.points()).hasSize(3);
    found.points().forEach(point -> assertEqualsReadings(((ChartPoint.Measured) point).totals()));
  }

  @Test
  void shouldFillTheQuarterHoursOfARealGapByEachRule() {
    final Resolution resolution = pick(at("12:00"), at("15:00"), OptionalLong.of(12));
    final List<ChartPoint> unfilled =
        queries.points(SERIES, resolution, GapFill.NONE, LiveWindows.NONE).points();
    final Measurement lastBefore =
        READINGS.stream()
            .filter(m -> m.timestamp() < at("12:40"))
            .reduce((a, b) -> b)
            .orElseThrow();
    final Measurement firstAfter =
        READINGS.stream().filter(m -> m.timestamp() >= at("13:20")).findFirst().orElseThrow();

    for (final GapFill fill : List.of(GapFill.NULL, GapFill.PREVIOUS, GapFill.LINEAR)) {
      final Points found = queries.points(SERIES, resolution, fill, LiveWindows.NONE);

      assertThat(found.points()).as(fill.label()).hasSize(12);
      // the points with readings are those of the unfilled chart, unchanged
      assertThat(found.points().stream().filter(ChartPoint.Measured.class::isInstance))
          .as(fill.label())
          .containsExactlyElementsOf(unfilled);
      assertThat(found.documentsRead()).isEqualTo(3);
      for (final long gap : List.of(at("12:45"), at("13:00"))) {
        final ChartPoint.Filled filled =
            (ChartPoint.Filled) found.points().get((int) ((gap - at("12:00")) / FIFTEEN_MINUTES));
        assertThat(filled.start()).isEqualTo(gap);
        assertThat(filled.rule()).isEqualTo(fill);
        final double middle = gap + FIFTEEN_MINUTES / 2.0;
        final double expected =
            switch (fill) {
              case PREVIOUS -> lastBefore.value();
              case LINEAR ->
                  lastBefore.value()
                      + (firstAfter.value() - lastBefore.value())
                          * (middle - lastBefore.timestamp())
                          / (firstAfter.timestamp() - lastBefore.timestamp());
              default -> Double.NaN;
            };
        if (Double.isNaN(expected)) {
          assertThat(filled.value()).isNaN();
        } else {
          assertThat(filled.value()).as(fill.label()).isCloseTo(expected, within(1e-9));
        }
      }
    }
  }

  @Test
  void shouldMakeAPointOpenWhileOneOfItsWindowsIsOpenInTheState() {
    final List<Measurement> live =
        List.of(
            new Measurement(at("15:05") + 1_000, 30),
            new Measurement(at("15:05") + 2_000, 31),
            new Measurement(at("15:05") + 3_000, 29));
    final LiveWindows openMinute = new OneOpenMinute(at("15:05"), BucketStats.ofAll(live, null));

    final Points found =
        queries.points(
            SERIES, pick(at("14:00"), at("15:15"), OptionalLong.of(5)), GapFill.NULL, openMinute);

    final ChartPoint last = found.points().get(found.points().size() - 1);
    assertThat(last.start()).isEqualTo(at("15:00"));
    final WindowTotals totals = ((ChartPoint.Measured) last).totals();
    assertThat(totals.open()).isTrue();
    assertThat(totals.count()).isEqualTo(3);
    assertThat(totals.max()).isEqualTo(31);
    // the open minute, and its readings, for its time-weighted part and sketch (this state holds
    // none: they stay unknown)
    assertThat(found.stateWindowsRead()).isEqualTo(2);
    assertThat(totals.timeWeighted()).isNull();
    assertThat(totals.sketch()).isNull();
    assertThat(found.points().stream().filter(ChartPoint.Measured.class::isInstance))
        .as("the stored quarter hours are closed")
        .allMatch(point -> point == last || !((ChartPoint.Measured) point).totals().open());
  }

  /** The state of a processor holding one open minute of {@link #SERIES}. */
  private record OneOpenMinute(long start, BucketStats stats) implements LiveWindows {
    @Override
    public List<Window> windows(
        final SeriesKey series, final Granularity granularity, final long from, final long to) {
      return series.equals(SERIES) && granularity.equals(MINUTE) && start >= from && start < to
          ? List.of(new Window(start, stats, true))
          : List.of();
    }

    @Override
    public List<Measurement> measurements(final SeriesKey series, final long from, final long to) {
      return List.of();
    }

    @Override
    public boolean holdsAny(final SeriesKey series, final Granularity granularity) {
      return series.equals(SERIES);
    }
  }

  private static Resolution pick(final long from, final long to, final OptionalLong points) {
    return Resolution.pick(
        GRANULARITIES, from, to, Resolution.step(to - from, points, OptionalLong.empty()), 1_000);
  }

  /** A point's totals against those computed from the readings in its span, whole. */
  private static void assertEqualsReadings(final WindowTotals point) {
    final List<Measurement> inPoint =
        READINGS.stream()
            .filter(m -> m.timestamp() >= point.start() && m.timestamp() < point.end())
            .toList();
    final ReadingTotals expected = ReadingTotals.of(inPoint);
    final String what = Instant.ofEpochMilli(point.start()).toString();
    expected.assertAnswered(what, point.count(), point.sum(), point.min(), point.max());
    assertThat(point.average()).as(what).isCloseTo(expected.sum() / expected.count(), within(1e-9));
    assertThat(point.stats().standardDeviation())
        .as(what)
        .isCloseTo(expected.standardDeviation(), within(1e-9 * (1 + expected.standardDeviation())));
    assertThat(point.stats().first()).as(what).isEqualTo(expected.first());
    assertThat(point.stats().last()).as(what).isEqualTo(expected.last());
  }

  private static long at(final String time) {
    return Instant.parse("2026-11-22T" + time + ":00Z").toEpochMilli();
  }
}
