package io.bucketer.backfill;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.bucketer.buckets.BucketStats;
import io.bucketer.buckets.ClosedBucket;
import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.Interpolation;
import io.bucketer.buckets.Measurement;
import io.bucketer.buckets.SeriesKey;
import io.bucketer.buckets.TimeWeighted;
import io.bucketer.buckets.TimeWeighting;
import io.bucketer.buckets.WindowQuality;
import io.bucketer.buckets.WindowSummary;
import io.bucketer.query.StoredBuckets.NearReading;
import io.bucketer.query.StoredWindows.StoredWindow;
import io.bucketer.sink.BucketDocuments;
import io.bucketer.sketch.ValueSketch;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.Function;
import java.util.function.Supplier;
import org.bson.BsonDocument;
import org.junit.jupiter.api.Test;

class RolledUpWindowTest {

  private static final Granularity MINUTE = Granularity.parse("1m");
  private static final Granularity QUARTER = Granularity.parse("15m");
  private static final SeriesKey SERIES = new SeriesKey("s1", "temperature");
  private static final long START = Instant.parse("2026-03-01T10:15:00Z").toEpochMilli();
  private static final long END = START + 900_000;

  /** For windows whose sources have no time-weighted part: their neighbours are never asked for. */
  private static final Supplier<NearReading> UNASKED =
      () -> {
        throw new AssertionError("a neighbouring reading asked for without time-weighted parts");
      };

  /** A minute of two readings, {@code value} and {@code value + 1}, at offset {@code offset}. */
  private static StoredWindow minute(
      final int index, final double value, final int revision, final Integer offset) {
    final long start = START + index * 60_000L;
    return new StoredWindow(
        SERIES,
        start,
        revision,
        BucketStats.ofAll(
            List.of(
                new Measurement(start + 5_000, value), new Measurement(start + 35_000, value + 1)),
            offset),
        null);
  }

  /** {@link #minute} with the sketch of its two readings at {@code accuracy}. */
  private static StoredWindow sketchedMinute(
      final int index, final double value, final double accuracy) {
    final StoredWindow minute = minute(index, value, 0, null);
    return new StoredWindow(
        SERIES,
        minute.start(),
        0,
        minute.stats(),
        ValueSketch.of(new double[] {value, value + 1}, accuracy));
  }

  @Test
  void shouldCarryEachSourceSketchAndMergeThemIntoTheWindowsAsTheStreamDoes() {
    final List<StoredWindow> sources =
        List.of(
            sketchedMinute(0, 1, 0.01), sketchedMinute(4, 20, 0.01), sketchedMinute(9, 300, 0.01));

    final ClosedBucket bucket =
        RolledUpWindow.buckets(SERIES, QUARTER, MINUTE, START, sources, 100, UNASKED, UNASKED)
            .get(0);

    assertThat(bucket.summaries())
        .extracting(WindowSummary::sketch)
        .containsExactlyElementsOf(sources.stream().map(StoredWindow::sketch).toList());
    assertThat(bucket.extras().sketch())
        .isEqualTo(ValueSketch.of(new double[] {1, 2, 20, 21, 300, 301}, 0.01));
    assertThat(bucket.extras().timeWeighted()).isNull();
  }

  @Test
  void shouldLeaveTheWindowWithoutASketchWhenASourceHasNoneOrAnotherAccuracy() {
    final List<StoredWindow> oneWithout =
        List.of(sketchedMinute(0, 1, 0.01), minute(4, 20, 0, null));
    final List<StoredWindow> accuracyChanged =
        List.of(sketchedMinute(0, 1, 0.01), sketchedMinute(4, 20, 0.001));

    assertThat(
            RolledUpWindow.buckets(
                    SERIES, QUARTER, MINUTE, START, oneWithout, 100, UNASKED, UNASKED)
                .get(0)
                .extras())
        .isNull();
    assertThat(
            RolledUpWindow.buckets(
                    SERIES, QUARTER, MINUTE, START, accuracyChanged, 100, UNASKED, UNASKED)
                .get(0)
                .extras())
        .isNull();
  }

  @Test
  void shouldSummariseEverySourceWindowInStartOrderAndMergeTheirStatsAsTheStreamDoes() {
    final List<StoredWindow> sources =
        List.of(minute(0, 1, 0, 60), minute(3, 10, 0, 60), minute(14, 100, 0, 120));

    final List<ClosedBucket> buckets =
        RolledUpWindow.buckets(SERIES, QUARTER, MINUTE, START, sources, 100, UNASKED, UNASKED);

    assertThat(buckets).singleElement();
    final ClosedBucket bucket = buckets.get(0);
    assertThat(bucket.summaries())
        .extracting(WindowSummary::start)
        .containsExactly(START, START + 180_000, START + 840_000);
    assertThat(bucket.summaries()).allMatch(summary -> summary.granularity().equals(MINUTE));
    final BucketStats merged =
        sources.get(0).stats().merge(sources.get(1).stats()).merge(sources.get(2).stats());
    assertThat(bucket.window()).isEqualTo(merged);
    assertThat(bucket.window().count()).isEqualTo(6);
    assertThat(bucket.window().sum()).isEqualTo(2 * (1 + 10 + 100) + 3);
    assertThat(bucket.window().utcOffsetMinutes()).isEqualTo(120);
    assertThat(bucket.revision()).isZero();
  }

  /** Each source window's quality by its start; a start not given is unknown. */
  private static Function<StoredWindow, SourceQuality> qualities(
      final Map<Long, SourceQuality> byStart) {
    return stored -> byStart.getOrDefault(stored.start(), SourceQuality.UNKNOWN);
  }

  @Test
  void shouldCarryEachSourcesCountsIntoItsSummaryAndTheirSumIntoTheWindow() {
    final List<StoredWindow> sources =
        List.of(minute(0, 1, 0, null), minute(3, 10, 1, null), minute(14, 100, 0, null));
    final Map<Long, SourceQuality> stated =
        Map.of(
            sources.get(0).start(), new SourceQuality(WindowQuality.NONE, 5_000L),
            sources.get(1).start(), new SourceQuality(new WindowQuality(2, 1), 5_000L),
            sources.get(2).start(), new SourceQuality(new WindowQuality(3, 0), 5_000L));

    final ClosedBucket bucket =
        RolledUpWindow.buckets(
                SERIES, QUARTER, MINUTE, START, sources, 100, UNASKED, UNASKED, qualities(stated))
            .get(0);

    assertThat(bucket.summaries())
        .extracting(WindowSummary::quality)
        .containsExactly(WindowQuality.NONE, new WindowQuality(2, 1), new WindowQuality(3, 0));
    assertThat(bucket.extras().quality()).isEqualTo(new WindowQuality(5, 1));
    assertThat(bucket.extras().expectedIntervalMillis()).isEqualTo(5_000L);
    // written as the stream writes it: version 4, 180 readings expected in a quarter at 5 s
    final BsonDocument document = BucketDocuments.toDocument(bucket);
    assertThat(document.getInt32("schema_version").getValue()).isEqualTo(4);
    assertThat(document.getDocument("window").getInt64("resends").getValue()).isEqualTo(5);
    assertThat(document.getDocument("window").getInt64("late_readings").getValue()).isEqualTo(1);
    assertThat(document.getDocument("window").getDouble("expected").getValue()).isEqualTo(180.0);
    assertThat(document.getArray("summaries").get(0).asDocument()).doesNotContainKey("resends");
  }

  @Test
  void shouldLeaveTheWindowsCountsUnknownWhenOneSourceDoesNotKnowThem() {
    final List<StoredWindow> sources =
        List.of(minute(0, 1, 0, null), minute(3, 10, 0, null), minute(14, 100, 0, null));
    // the middle minute's document is older than schema_version 4
    final Map<Long, SourceQuality> stated =
        Map.of(
            sources.get(0).start(), new SourceQuality(new WindowQuality(1, 0), null),
            sources.get(2).start(), new SourceQuality(WindowQuality.NONE, null));

    final ClosedBucket bucket =
        RolledUpWindow.buckets(
                SERIES, QUARTER, MINUTE, START, sources, 100, UNASKED, UNASKED, qualities(stated))
            .get(0);

    // nothing else known of the window: no extras at all
    assertThat(bucket.extras()).isNull();
    assertThat(bucket.summaries())
        .extracting(WindowSummary::quality)
        .containsExactly(new WindowQuality(1, 0), null, WindowQuality.NONE);
    // a version 3 document, without counts: unknown, not 1
    final BsonDocument document = BucketDocuments.toDocument(bucket);
    assertThat(document.getInt32("schema_version").getValue()).isEqualTo(3);
    assertThat(document.getDocument("window")).doesNotContainKey("resends");
    assertThat(document.getArray("summaries").get(0).asDocument()).doesNotContainKey("resends");
  }

  @Test
  void shouldExpectTheIntervalItsSourcesAgreeOnAndNoneWhenTheyDiffer() {
    final List<StoredWindow> sources = List.of(minute(0, 1, 0, null), minute(3, 10, 0, null));
    final long first = sources.get(0).start();
    final long second = sources.get(1).start();

    final Function<Map<Long, SourceQuality>, Long> expected =
        stated ->
            RolledUpWindow.buckets(
                    SERIES,
                    QUARTER,
                    MINUTE,
                    START,
                    sources,
                    100,
                    UNASKED,
                    UNASKED,
                    qualities(stated))
                .get(0)
                .extras()
                .expectedIntervalMillis();

    assertThat(
            expected.apply(
                Map.of(
                    first, new SourceQuality(WindowQuality.NONE, 5_000L),
                    second, new SourceQuality(WindowQuality.NONE, 5_000L))))
        .isEqualTo(5_000L);
    // changed within the window
    assertThat(
            expected.apply(
                Map.of(
                    first, new SourceQuality(WindowQuality.NONE, 5_000L),
                    second, new SourceQuality(WindowQuality.NONE, 10_000L))))
        .isNull();
    // set for a part of it only
    assertThat(
            expected.apply(
                Map.of(
                    first, new SourceQuality(WindowQuality.NONE, null),
                    second, new SourceQuality(WindowQuality.NONE, 5_000L))))
        .isNull();
  }

  @Test
  void shouldKnowNoSourcesQualityAsTheQuerySidesReaderReadsThem() {
    final List<StoredWindow> sources = List.of(minute(0, 1, 0, null), minute(3, 10, 0, null));

    final ClosedBucket bucket =
        RolledUpWindow.buckets(
                SERIES,
                QUARTER,
                MINUTE,
                START,
                sources,
                100,
                UNASKED,
                UNASKED,
                SourceQuality.AS_READ)
            .get(0);

    // nothing but the stats is known of these sources: no extras, a version 3 document
    assertThat(bucket.extras()).isNull();
    assertThat(BucketDocuments.toDocument(bucket).getInt32("schema_version").getValue())
        .isEqualTo(3);
  }

  @Test
  void shouldTakeTheSumOfTheSourceRevisionsAsItsRevision() {
    final List<StoredWindow> sources =
        List.of(minute(0, 1, 2, null), minute(1, 1, 0, null), minute(2, 1, 1, null));

    assertThat(
            RolledUpWindow.buckets(SERIES, QUARTER, MINUTE, START, sources, 100, UNASKED, UNASKED))
        .allMatch(bucket -> bucket.revision() == 3);
  }

  @Test
  void shouldCutTheSummariesIntoDocumentsAsTheStreamDoes() {
    final List<StoredWindow> sources = new ArrayList<>();
    for (int i = 0; i < 15; i++) {
      sources.add(minute(i, i, i % 2, 60));
    }

    final List<ClosedBucket> buckets =
        RolledUpWindow.buckets(SERIES, QUARTER, MINUTE, START, sources, 6, UNASKED, UNASKED);

    final List<WindowSummary> summaries =
        sources.stream().map(w -> new WindowSummary(MINUTE, w.start(), w.stats())).toList();
    final BucketStats window =
        sources.stream().map(StoredWindow::stats).reduce(BucketStats::merge).orElseThrow();
    assertThat(buckets)
        .isEqualTo(ClosedBucket.ofSummaries(SERIES, QUARTER, START, window, summaries, 7, 6));
    assertThat(buckets).extracting(ClosedBucket::seq).containsExactly(0, 1, 2);
    assertThat(buckets).extracting(b -> b.summaries().size()).containsExactly(6, 6, 3);
    assertThat(buckets).allMatch(b -> b.buckets() == 3 && b.window().equals(window));
  }

  @Test
  void shouldRefuseSourceWindowsOutOfOrderOrOutsideTheWindow() {
    assertThatThrownBy(
            () ->
                RolledUpWindow.buckets(
                    SERIES,
                    QUARTER,
                    MINUTE,
                    START,
                    List.of(minute(2, 1, 0, null), minute(1, 1, 0, null)),
                    10,
                    UNASKED,
                    UNASKED))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("out of order or outside");
    assertThatThrownBy(
            () ->
                RolledUpWindow.buckets(
                    SERIES,
                    QUARTER,
                    MINUTE,
                    START,
                    List.of(minute(15, 1, 0, null)),
                    10,
                    UNASKED,
                    UNASKED))
        .isInstanceOf(IllegalArgumentException.class);
  }

  /**
   * Readings every 20 to 100 s from 10:05, but for two silences: from 10:12:30 to 10:17:10, so the
   * quarter from 10:15 starts with two minutes without readings, held by no reading (the max gap is
   * 2 minutes), and from 10:21:40 for 7 minutes, minutes without readings inside it.
   */
  private static List<Measurement> readings() {
    final List<Measurement> readings = new ArrayList<>();
    final SplittableRandom random = new SplittableRandom(5);
    long time = START - 600_000;
    while (time < END + 600_000) {
      if (time > START - 150_000 && time < START + 130_000) {
        time = START + 130_000;
      } else if (time > START + 400_000 && time < START + 820_000) {
        time = START + 820_000;
      }
      readings.add(new Measurement(time, Math.round(random.nextDouble(-20, 80) * 100) / 100.0));
      time += random.nextLong(20_000, 100_000);
    }
    return readings;
  }

  /** The minutes of the quarter with readings, each with its part as the stream stores it. */
  private static List<StoredWindow> storedMinutes(
      final List<Measurement> all, final TimeWeighting how) {
    final List<StoredWindow> minutes = new ArrayList<>();
    for (long start = START; start < END; start += 60_000) {
      final long from = start;
      final long to = start + 60_000;
      final List<Measurement> inside =
          all.stream().filter(r -> r.timestamp() >= from && r.timestamp() < to).toList();
      if (!inside.isEmpty()) {
        final Measurement carryIn = heldInto(all, from, how);
        minutes.add(
            new StoredWindow(
                SERIES,
                from,
                0,
                BucketStats.ofAll(inside, null),
                null,
                TimeWeighted.ofReadings(
                    from, to, carryIn, inside, firstFrom(all, to).orElse(null), how),
                how,
                carryIn));
      }
    }
    return minutes;
  }

  private static Measurement heldInto(
      final List<Measurement> all, final long time, final TimeWeighting how) {
    Measurement last = null;
    for (final Measurement reading : all) {
      if (reading.timestamp() < time) {
        last = reading;
      }
    }
    return last != null && last.timestamp() + how.maxGapMillis() > time ? last : null;
  }

  private static java.util.Optional<Measurement> firstFrom(
      final List<Measurement> all, final long time) {
    return all.stream().filter(r -> r.timestamp() >= time).findFirst();
  }

  @Test
  void shouldFoldTheSourcesPartsWithTheBridgesBetweenThemIntoTheStreamsPart() {
    final List<Measurement> all = readings();
    for (final TimeWeighting how :
        List.of(
            new TimeWeighting(120_000, Interpolation.STEP),
            new TimeWeighting(120_000, Interpolation.LINEAR))) {
      final List<StoredWindow> minutes = storedMinutes(all, how);
      final List<String> asked = new ArrayList<>();
      final Measurement before =
          all.stream().filter(r -> r.timestamp() < START).reduce((a, b) -> b).orElseThrow();

      final ClosedBucket quarter =
          RolledUpWindow.buckets(
                  SERIES,
                  QUARTER,
                  MINUTE,
                  START,
                  minutes,
                  100,
                  () -> {
                    asked.add("before");
                    return new NearReading(true, before);
                  },
                  () -> {
                    asked.add("after");
                    return new NearReading(true, firstFrom(all, END).orElse(null));
                  })
              .get(0);

      final List<Measurement> inQuarter =
          all.stream().filter(r -> r.timestamp() >= START && r.timestamp() < END).toList();
      final TimeWeighted expected =
          TimeWeighted.ofReadings(
              START,
              END,
              heldInto(all, START, how),
              inQuarter,
              firstFrom(all, END).orElse(null),
              how);
      final TimeWeighted built = quarter.extras().timeWeighted();
      assertThat(minutes.get(0).start())
          .as("the quarter starts without readings")
          .isGreaterThan(START);
      assertThat(built.coveredMillis()).as("%s", how).isEqualTo(expected.coveredMillis());
      assertThat(built.gaps()).isEqualTo(expected.gaps()).isPositive();
      assertThat(built.longestGapMillis()).isEqualTo(expected.longestGapMillis());
      assertThat(built.gapAtStartMillis()).isEqualTo(expected.gapAtStartMillis());
      assertThat(built.gapAtEndMillis()).isEqualTo(expected.gapAtEndMillis());
      assertThat(built.integral())
          .isCloseTo(expected.integral(), within(1e-9 * Math.abs(expected.integral())));
      assertThat(quarter.extras().carryIn()).isEqualTo(heldInto(all, START, how));
      assertThat(quarter.extras().weighting()).isEqualTo(how);
      assertThat(quarter.summaries())
          .extracting(WindowSummary::timeWeighted)
          .containsExactlyElementsOf(minutes.stream().map(StoredWindow::timeWeighted).toList());
      // the first minute carries nothing in, so the reading before the quarter is looked up
      assertThat(minutes.get(0).carryIn()).isNull();
      assertThat(asked).contains("before");
    }
  }

  @Test
  void shouldBuildNoPartWhenASourceHasNoneOrTheReadingBeforeIsUnknown() {
    final TimeWeighting how = new TimeWeighting(120_000, Interpolation.STEP);
    final List<StoredWindow> minutes = new ArrayList<>(storedMinutes(readings(), how));
    final Supplier<NearReading> unknown = () -> new NearReading(false, null);

    assertThat(
            RolledUpWindow.buckets(SERIES, QUARTER, MINUTE, START, minutes, 100, unknown, UNASKED)
                .get(0)
                .extras())
        .isNull();
    final StoredWindow second = minutes.get(1);
    minutes.set(
        1, new StoredWindow(SERIES, second.start(), 0, second.stats(), null, null, null, null));
    assertThat(
            RolledUpWindow.buckets(SERIES, QUARTER, MINUTE, START, minutes, 100, UNASKED, UNASKED)
                .get(0)
                .extras())
        .isNull();
  }
}
