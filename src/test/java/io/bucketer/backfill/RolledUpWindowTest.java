package io.bucketer.backfill;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bucketer.buckets.BucketStats;
import io.bucketer.buckets.ClosedBucket;
import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.Measurement;
import io.bucketer.buckets.SeriesKey;
import io.bucketer.buckets.WindowSummary;
import io.bucketer.query.StoredWindows.StoredWindow;
import io.bucketer.sketch.ValueSketch;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class RolledUpWindowTest {

  private static final Granularity MINUTE = Granularity.parse("1m");
  private static final Granularity QUARTER = Granularity.parse("15m");
  private static final SeriesKey SERIES = new SeriesKey("s1", "temperature");
  private static final long START = Instant.parse("2026-03-01T10:15:00Z").toEpochMilli();

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
        RolledUpWindow.buckets(SERIES, QUARTER, MINUTE, START, sources, 100).get(0);

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
            RolledUpWindow.buckets(SERIES, QUARTER, MINUTE, START, oneWithout, 100).get(0).extras())
        .isNull();
    assertThat(
            RolledUpWindow.buckets(SERIES, QUARTER, MINUTE, START, accuracyChanged, 100)
                .get(0)
                .extras())
        .isNull();
  }

  @Test
  void shouldSummariseEverySourceWindowInStartOrderAndMergeTheirStatsAsTheStreamDoes() {
    final List<StoredWindow> sources =
        List.of(minute(0, 1, 0, 60), minute(3, 10, 0, 60), minute(14, 100, 0, 120));

    final List<ClosedBucket> buckets =
        RolledUpWindow.buckets(SERIES, QUARTER, MINUTE, START, sources, 100);

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

  @Test
  void shouldTakeTheSumOfTheSourceRevisionsAsItsRevision() {
    final List<StoredWindow> sources =
        List.of(minute(0, 1, 2, null), minute(1, 1, 0, null), minute(2, 1, 1, null));

    assertThat(RolledUpWindow.buckets(SERIES, QUARTER, MINUTE, START, sources, 100))
        .allMatch(bucket -> bucket.revision() == 3);
  }

  @Test
  void shouldCutTheSummariesIntoDocumentsAsTheStreamDoes() {
    final List<StoredWindow> sources = new ArrayList<>();
    for (int i = 0; i < 15; i++) {
      sources.add(minute(i, i, i % 2, 60));
    }

    final List<ClosedBucket> buckets =
        RolledUpWindow.buckets(SERIES, QUARTER, MINUTE, START, sources, 6);

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
                    10))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("out of order or outside");
    assertThatThrownBy(
            () ->
                RolledUpWindow.buckets(
                    SERIES, QUARTER, MINUTE, START, List.of(minute(15, 1, 0, null)), 10))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
