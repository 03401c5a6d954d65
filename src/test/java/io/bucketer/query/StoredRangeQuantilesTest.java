package io.bucketer.query;

import static io.bucketer.query.StoredRangeFixture.GRANULARITIES;
import static io.bucketer.query.StoredRangeFixture.HOUR;
import static io.bucketer.query.StoredRangeFixture.MINUTE;
import static io.bucketer.query.StoredRangeFixture.TEN;
import static io.bucketer.query.StoredRangeFixture.TIMEOUT;
import static io.bucketer.testing.ExactQuantiles.nearestRank;
import static io.bucketer.testing.ExactQuantiles.sortedValues;
import static org.assertj.core.api.Assertions.assertThat;

import io.bucketer.buckets.BucketStats;
import io.bucketer.buckets.ClosedBucket;
import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.IntegralUnits;
import io.bucketer.buckets.Measurement;
import io.bucketer.buckets.Retention;
import io.bucketer.buckets.SeriesKey;
import io.bucketer.buckets.SketchAccuracies;
import io.bucketer.buckets.TimeWeightings;
import io.bucketer.buckets.WindowComputations;
import io.bucketer.metrics.BucketerMetrics;
import io.bucketer.query.SeriesQueries.RangeSketch;
import io.bucketer.sketch.ValueSketch;
import io.bucketer.testing.SketchedDocuments;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.SplittableRandom;
import org.bson.BsonDocument;
import org.bson.BsonValue;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

/**
 * The quantiles of a range's statistics, merged from the sketches stored documents hold, a sketch
 * of the raw readings where an edge cuts a minute, and the readings of the windows the processor's
 * state holds (open, not in MongoDB), against an independent computation over the readings sent:
 * every quantile asked within α·|x| of x, the exact nearest-rank quantile of the readings in {@code
 * [from, to)}, and the merged sketch counting each of them once. Ranges over documents without
 * sketches, with sketches of another accuracy, or with bytes that are no sketch, and a series with
 * quantiles off, answer none and say why.
 */
class StoredRangeQuantilesTest {

  private static final long ELEVEN = TEN + 3_600_000;
  private static final long TWELVE = ELEVEN + 3_600_000;

  /** From here on the state holds the series' windows, open: MongoDB has none of them. */
  private static final long OPEN_FROM = TWELVE + 37 * 60_000;

  private static final SeriesKey TEMPERATURE = new SeriesKey("s1", "temperature");
  private static final SeriesKey POWER = new SeriesKey("s1", "power");

  /** Its documents of the hour from 11:00 hold no sketches: written before they were kept. */
  private static final SeriesKey OLDER = new SeriesKey("s2", "temperature");

  /** Its documents' sketches were built with α = 2 %. */
  private static final SeriesKey COARSER = new SeriesKey("s3", "temperature");

  /** Its documents of the hour from 10:00 hold bytes that are no sketch. */
  private static final SeriesKey BROKEN = new SeriesKey("s4", "temperature");

  private static final double ALPHA = ValueSketch.DEFAULT_RELATIVE_ACCURACY;
  private static final double[] LEVELS = {0, 0.01, 0.25, 0.5, 0.9, 0.95, 0.99, 0.999, 1};

  private static final Map<SeriesKey, List<Measurement>> SENT =
      StoredRangeFixture.readings(List.of(TEMPERATURE, POWER, OLDER, COARSER, BROKEN));
  private static StoredRangeFixture fixture;
  private static final SimpleMeterRegistry METERS = new SimpleMeterRegistry();
  private static StoredBuckets stored;
  private static SeriesQueries queries;

  @BeforeAll
  static void storeDocumentsWithSketches() {
    final List<ClosedBucket> emitted = StoredRangeFixture.emitted(SENT, TimeWeightings.DEFAULT);
    fixture = StoredRangeFixture.start();
    // By _id: a window emitted again (a later revision) replaces its document, as the sink's does.
    final Map<Granularity, Map<BsonValue, BsonDocument>> documents = new LinkedHashMap<>();
    for (final ClosedBucket bucket : emitted) {
      if (openInState(bucket)) {
        continue;
      }
      final List<Measurement> sent = SENT.get(bucket.series());
      final long hour = HOUR.windowStart(bucket.windowStart());
      final BsonDocument document;
      if (bucket.series().equals(OLDER) && hour == ELEVEN) {
        document = SketchedDocuments.without(bucket);
      } else if (bucket.series().equals(COARSER)) {
        document = SketchedDocuments.of(bucket, sent, 0.02);
      } else if (bucket.series().equals(BROKEN) && hour == TEN) {
        document =
            SketchedDocuments.corrupted(
                SketchedDocuments.of(bucket, sent, ALPHA), new byte[] {1, 1, 9, 9, 9});
      } else {
        document = SketchedDocuments.of(bucket, sent, ALPHA);
      }
      documents
          .computeIfAbsent(bucket.granularity(), g -> new LinkedHashMap<>())
          .put(document.get("_id"), document);
    }
    documents.forEach(
        (granularity, inserted) ->
            Mono.from(
                    fixture.collection(granularity).insertMany(new ArrayList<>(inserted.values())))
                .block(TIMEOUT));
    // counting in the meter the query API exports, as the app wires it
    stored =
        new StoredBuckets(
            fixture.database(),
            "buckets_",
            GRANULARITIES,
            Set.of(),
            TIMEOUT,
            new BucketerMetrics(METERS)::malformedSketchRead);
    queries = queries(SketchAccuracies.DEFAULT);
  }

  /** The hour from 12:00 is open, and so is every minute from {@link #OPEN_FROM}. */
  private static boolean openInState(final ClosedBucket bucket) {
    return bucket.granularity().equals(HOUR)
        ? bucket.windowStart() >= TWELVE
        : bucket.windowStart() >= OPEN_FROM;
  }

  private static SeriesQueries queries(final SketchAccuracies accuracies) {
    return new SeriesQueries(
        stored,
        Retention.NONE,
        Clock.systemUTC(),
        WindowComputations.DEFAULT.withSketchAccuracies(accuracies),
        IntegralUnits.SECONDS);
  }

  @AfterAll
  static void stop() {
    fixture.close();
  }

  @Test
  void shouldAnswerEachQuantileWithinTheSketchsBoundOfTheExactOne() {
    final SplittableRandom random = new SplittableRandom(7);
    final Map<String, Integer> kinds = new LinkedHashMap<>();
    for (final SeriesKey series : List.of(TEMPERATURE, POWER)) {
      final LiveWindows live = new OpenWindows(series, SENT.get(series));
      final List<long[]> ranges = new ArrayList<>();
      ranges.add(new long[] {TEN, TEN + 3 * 3_600_000}); // whole hours, the last one open
      ranges.add(new long[] {TEN, TWELVE}); // whole stored hours
      ranges.add(new long[] {TEN + 30_500, TEN + 305_250}); // cuts two minutes
      ranges.add(new long[] {TEN + 1_800_000, TWELVE + 1_800_000}); // cuts hours
      ranges.add(new long[] {OPEN_FROM + 5_000, OPEN_FROM + 65_000}); // open minutes only
      ranges.add(new long[] {TEN - 3_600_000, TEN + 5 * 3_600_000}); // beyond the readings
      for (int i = 0; i < 150; i++) {
        final long from = TEN - 600_000 + random.nextLong(4 * 3_600_000);
        ranges.add(new long[] {from, from + 1 + random.nextLong(2 * 3_600_000)});
      }
      for (final long[] range : ranges) {
        final String what = series + " [" + range[0] + ", " + range[1] + ")";
        final SeriesQueries.Statistics answer =
            queries.statistics(series, range[0], range[1], live);
        final double[] exact = sortedValues(SENT.get(series), range[0], range[1]);
        final RangeSketch sketch = answer.sketch();
        assertThat(sketch.missing()).as(what).isNull();
        assertThat(sketch.relativeAccuracy()).as(what).hasValue(ALPHA);
        assertThat(sketch.sketch().count()).as(what).isEqualTo(exact.length);
        assertThat(sketch.sketch().count()).as(what).isEqualTo(answer.count());
        for (final double level : LEVELS) {
          if (exact.length == 0) {
            assertThat(sketch.sketch().quantile(level)).as(what).isEmpty();
            continue;
          }
          final double x = nearestRank(exact, level);
          assertThat(sketch.sketch().quantile(level).orElseThrow())
              .as("%s q %s: exact %s", what, level, x)
              .isBetween(x - bound(x), x + bound(x));
        }
        tally(kinds, range, exact.length, answer);
      }
    }
    assertThat(kinds)
        .as("kinds of ranges checked")
        .containsKeys(
            "cuts minutes", "cuts hours", "whole stored hours", "into open windows", "empty");
  }

  @Test
  void shouldSayQuantilesAreOffForASeriesWithoutThem() {
    final RangeSketch answer =
        queries(SketchAccuracies.OFF)
            .statistics(TEMPERATURE, TEN, ELEVEN, LiveWindows.NONE)
            .sketch();

    assertThat(answer.sketch()).isNull();
    assertThat(answer.relativeAccuracy()).isEmpty();
    assertThat(answer.missing()).isEqualTo(RangeQuantiles.QUANTILES_OFF);
  }

  @Test
  void shouldAnswerNoneOverDocumentsWithoutSketches() {
    // a range that cuts two minutes around a whole one with readings, of the hour without sketches
    final long minute =
        SENT.get(OLDER).stream()
            .mapToLong(m -> MINUTE.windowStart(m.timestamp()))
            .filter(start -> start > ELEVEN + 60_000 && start < TWELVE - 120_000)
            .findFirst()
            .orElseThrow();
    for (final long[] range :
        List.of(
            new long[] {ELEVEN, TWELVE},
            new long[] {TEN + 1_800_000, ELEVEN + 1_800_000},
            new long[] {minute - 30_000, minute + 90_000})) {
      final RangeSketch answer =
          queries.statistics(OLDER, range[0], range[1], LiveWindows.NONE).sketch();
      assertThat(answer.sketch()).as("%s", range[0]).isNull();
      assertThat(answer.missing()).isEqualTo(RangeQuantiles.WITHOUT_SKETCH);
    }
    // the hour before, with sketches, is answered
    final RangeSketch before =
        queries.statistics(OLDER, TEN, ELEVEN - 30_000, LiveWindows.NONE).sketch();
    assertThat(before.missing()).isNull();
    assertThat(before.sketch().count())
        .isEqualTo(sortedValues(SENT.get(OLDER), TEN, ELEVEN - 30_000).length);
  }

  @Test
  void shouldNotMergeSketchesOfAnotherAccuracy() {
    final RangeSketch whole =
        queries.statistics(COARSER, TEN, ELEVEN + 90_000, LiveWindows.NONE).sketch();
    assertThat(whole.sketch()).isNull();
    assertThat(whole.missing()).isEqualTo(RangeQuantiles.ACCURACY_CHANGED);

    // a stretch of raw readings, inside one minute, is sketched at the series' own accuracy
    final List<Measurement> sent = SENT.get(COARSER);
    final Measurement reading = sent.get(sent.size() / 2);
    final long minute = MINUTE.windowStart(reading.timestamp());
    final RangeSketch inside =
        queries.statistics(COARSER, minute + 1, minute + 59_999, LiveWindows.NONE).sketch();
    assertThat(inside.missing()).isNull();
    assertThat(inside.sketch().relativeAccuracy()).isEqualTo(ALPHA);
  }

  @Test
  void shouldAnswerNoneForStoredBytesThatAreNoSketchWithoutFailingTheRead() {
    final Counter malformed = METERS.get(BucketerMetrics.QUERY_MALFORMED_SKETCHES).counter();
    final double before = malformed.count();

    final SeriesQueries.Statistics answer =
        queries.statistics(BROKEN, TEN, ELEVEN, LiveWindows.NONE);

    assertThat(answer.count()).isEqualTo(sortedValues(SENT.get(BROKEN), TEN, ELEVEN).length);
    assertThat(answer.sketch().sketch()).isNull();
    assertThat(answer.sketch().missing()).isEqualTo(RangeQuantiles.WITHOUT_SKETCH);
    // the range is the hour document of 10:00, whose sketch is the one read
    assertThat(malformed.count()).isEqualTo(before + 1);
    // counted, not described: nothing of the bytes or the decoder's message in a tag
    assertThat(malformed.getId().getTags()).isEmpty();
    // the next hour's documents are whole, and not counted
    assertThat(queries.statistics(BROKEN, ELEVEN, TWELVE, LiveWindows.NONE).sketch().missing())
        .isNull();
    assertThat(malformed.count()).isEqualTo(before + 1);
  }

  @Test
  void shouldGiveEachChartPointTheQuantilesOfItsReadingsFromTheHoursSummaries() {
    // 10:00 to 12:00 in quarter hours: each point fifteen minute summaries of an hour document
    final Resolution resolution =
        Resolution.pick(
            GRANULARITIES,
            TEN,
            TWELVE,
            Resolution.step(TWELVE - TEN, OptionalLong.of(8), OptionalLong.empty()),
            1_000);
    final SeriesQueries.Points found =
        queries.points(TEMPERATURE, resolution, GapFill.NULL, LiveWindows.NONE);

    assertThat(resolution.windowsPerPoint()).isEqualTo(15);
    assertThat(found.readFrom()).isEqualTo("buckets_1h summaries");
    assertThat(found.points()).hasSize(8);
    int measured = 0;
    for (final ChartPoint point : found.points()) {
      final double[] exact = sortedValues(SENT.get(TEMPERATURE), point.start(), point.end());
      if (point instanceof ChartPoint.Measured m) {
        measured++;
        final ValueSketch sketch = m.totals().sketch();
        assertThat(sketch.count()).as("%s", point.start()).isEqualTo(exact.length);
        for (final double level : LEVELS) {
          final double x = nearestRank(exact, level);
          assertThat(sketch.quantile(level).orElseThrow()).isBetween(x - bound(x), x + bound(x));
        }
      } else {
        assertThat(exact).isEmpty();
      }
    }
    assertThat(measured).isPositive();
    // a point of a window without a sketch knows none
    final SeriesQueries.Points older =
        queries.points(OLDER, resolution, GapFill.NONE, LiveWindows.NONE);
    for (final ChartPoint point : older.points()) {
      final ValueSketch sketch = ((ChartPoint.Measured) point).totals().sketch();
      if (point.start() >= ELEVEN) {
        assertThat(sketch).as("%s", point.start()).isNull();
      } else {
        assertThat(sketch).as("%s", point.start()).isNotNull();
      }
    }
  }

  /** How far a quantile may be from the exact x: α·|x|, and floating rounding. */
  private static double bound(final double x) {
    return ALPHA * Math.abs(x) * (1 + 1e-12);
  }

  private static void tally(
      final Map<String, Integer> kinds,
      final long[] range,
      final int readings,
      final SeriesQueries.Statistics answer) {
    if (range[0] % 60_000 != 0 || range[1] % 60_000 != 0) {
      kinds.merge("cuts minutes", 1, Integer::sum);
    }
    if (range[0] % 3_600_000 != 0 && range[1] % 3_600_000 != 0 && range[1] - range[0] > 3_600_000) {
      kinds.merge("cuts hours", 1, Integer::sum);
    }
    if (range[0] <= TEN && range[1] >= TWELVE && answer.documentsRead() <= 3) {
      kinds.merge("whole stored hours", 1, Integer::sum);
    }
    if (range[1] > OPEN_FROM && answer.stateWindowsRead() > 0) {
      kinds.merge("into open windows", 1, Integer::sum);
    }
    if (readings == 0) {
      kinds.merge("empty", 1, Integer::sum);
    }
  }

  /**
   * The processor's state as this test's documents leave it: the open hour from 12:00, with the
   * readings of its minutes that closed (stored in MongoDB as minutes), and its open minutes from
   * {@link #OPEN_FROM}, with their readings.
   */
  private static final class OpenWindows implements LiveWindows {

    private final SeriesKey series;
    private final List<Measurement> sent;

    OpenWindows(final SeriesKey series, final List<Measurement> sent) {
      this.series = series;
      this.sent = sent;
    }

    @Override
    public List<Window> windows(
        final SeriesKey asked, final Granularity granularity, final long from, final long to) {
      final List<Window> windows = new ArrayList<>();
      if (!asked.equals(series)) {
        return windows;
      }
      if (granularity.equals(HOUR)) {
        final List<Measurement> closedMinutes = between(TWELVE, OPEN_FROM);
        if (TWELVE >= from && TWELVE < to && !closedMinutes.isEmpty()) {
          windows.add(new Window(TWELVE, BucketStats.ofAll(closedMinutes, null), true));
        }
        return windows;
      }
      for (long start = OPEN_FROM; start < to; start += 60_000) {
        final List<Measurement> inMinute = between(start, start + 60_000);
        if (start >= from && !inMinute.isEmpty()) {
          windows.add(new Window(start, BucketStats.ofAll(inMinute, null), true));
        }
      }
      return windows;
    }

    @Override
    public List<Measurement> measurements(final SeriesKey asked, final long from, final long to) {
      return asked.equals(series) ? between(Math.max(from, OPEN_FROM), to) : List.of();
    }

    @Override
    public boolean holdsAny(final SeriesKey asked, final Granularity granularity) {
      return asked.equals(series);
    }

    private List<Measurement> between(final long from, final long to) {
      return sent.stream().filter(m -> m.timestamp() >= from && m.timestamp() < to).toList();
    }
  }
}
