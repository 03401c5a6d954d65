package io.bucketer.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.bucketer.buckets.BucketStats;
import io.bucketer.buckets.ClosedBucket;
import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.Measurement;
import io.bucketer.buckets.SeriesKey;
import io.bucketer.buckets.WindowExtras;
import io.bucketer.buckets.WindowQuality;
import io.bucketer.buckets.WindowSummary;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.bson.BsonBinary;
import org.bson.BsonDocument;
import org.bson.BsonDouble;
import org.bson.BsonInt32;
import org.bson.BsonInt64;
import org.bson.codecs.BsonDocumentCodec;
import org.junit.jupiter.api.Test;

class WindowRepairTest {

  private static final Granularity MINUTE = Granularity.parse("1m");
  private static final Granularity HOUR = Granularity.parse("1h");
  private static final SeriesKey SERIES = new SeriesKey("s1", "temperature");
  private static final long START = Instant.parse("2026-03-01T10:00:00Z").toEpochMilli();

  /** An hour of {@code minutes} minute summaries, {@code perDocument} to a document. */
  private static List<ClosedBucket> hour(
      final int minutes, final int perDocument, final int revision) {
    final List<WindowSummary> summaries = new ArrayList<>();
    BucketStats window = null;
    for (int i = 0; i < minutes; i++) {
      final long start = START + i * 60_000L;
      final BucketStats stats =
          BucketStats.ofAll(
              List.of(new Measurement(start, i), new Measurement(start + 30_000, i + 0.5)), null);
      summaries.add(new WindowSummary(MINUTE, start, stats));
      window = window == null ? stats : window.merge(stats);
    }
    return ClosedBucket.ofSummaries(SERIES, HOUR, START, window, summaries, revision, perDocument);
  }

  private static List<BsonDocument> stored(final List<ClosedBucket> buckets) {
    return buckets.stream()
        .map(bucket -> BucketDocuments.toDocument(bucket).decode(new BsonDocumentCodec()))
        .toList();
  }

  @Test
  void shouldLeaveAWindowStoredWithTheSameContentWhateverItsRevisionAndRounding() {
    final List<BsonDocument> stored = stored(hour(6, 4, 5));
    final BsonDocument window = stored.get(0).getDocument("window");
    final double avg = window.getDouble("avg").getValue();
    window.put("avg", new BsonDouble(avg * (1 + 1e-14)));

    final List<WindowRepair.Window> windows = WindowRepair.windows(hour(6, 4, 0), stored);

    assertThat(windows).singleElement().satisfies(w -> assertThat(w.unchanged()).isTrue());
  }

  @Test
  void
      shouldLeaveAWindowWhoseStoredDocumentsHaveTimeWeightedFieldsAndSketchesABackfillDoesNotBuild() {
    final List<BsonDocument> stored = stored(hour(6, 4, 5));
    stored.get(0).getDocument("window").put("covered_ms", new BsonInt64(60_000));
    stored.get(0).getArray("summaries").get(0).asDocument().put("integral", new BsonDouble(1.5));
    stored.get(0).getDocument("window").put("quantile_sketch", new BsonBinary(new byte[] {1, 1}));
    stored
        .get(0)
        .getArray("summaries")
        .get(1)
        .asDocument()
        .put("quantile_sketch", new BsonBinary(new byte[] {1, 1}));
    final List<BsonDocument> otherwiseChanged = stored(hour(6, 4, 5));
    otherwiseChanged.get(0).getDocument("window").put("covered_ms", new BsonInt64(60_000));
    otherwiseChanged.get(0).getDocument("window").put("extra", new BsonInt64(1));

    assertThat(WindowRepair.windows(hour(6, 4, 0), stored).get(0).unchanged()).isTrue();
    assertThat(WindowRepair.windows(hour(6, 4, 0), otherwiseChanged).get(0).unchanged()).isFalse();
  }

  /**
   * {@code buckets} with their window's and summaries' counts known: {@code resends} in the window
   * and its first minute, and {@code expectedInterval} (null for none).
   */
  private static List<ClosedBucket> withQuality(
      final List<ClosedBucket> buckets, final long resends, final Long expectedInterval) {
    return buckets.stream()
        .map(
            bucket ->
                new ClosedBucket(
                    bucket.series(),
                    bucket.granularity(),
                    bucket.windowStart(),
                    bucket.stats(),
                    List.of(),
                    bucket.summaries().stream()
                        .map(
                            summary ->
                                new WindowSummary(
                                    summary.granularity(),
                                    summary.start(),
                                    summary.stats(),
                                    null,
                                    null,
                                    summary.start() == START
                                        ? new WindowQuality(resends, 0)
                                        : WindowQuality.NONE))
                        .toList(),
                    bucket.window(),
                    bucket.seq(),
                    bucket.buckets(),
                    bucket.revision(),
                    new WindowExtras(
                        null, null, null, null, new WindowQuality(resends, 0), expectedInterval)))
        .toList();
  }

  @Test
  void shouldLeaveAWindowWhoseStoredCountsOfResendsDifferOrAreUnknownToTheBackfill() {
    // the stream's hour counts 3 resends its stored minutes do not show yet, or the backfill's
    // sources are older than version 4
    final List<BsonDocument> stored = stored(withQuality(hour(6, 4, 5), 3, null));
    assertThat(stored.get(0).getInt32("schema_version").getValue()).isEqualTo(4);
    assertThat(stored.get(0).getDocument("window").getInt64("resends").getValue()).isEqualTo(3);

    assertThat(WindowRepair.windows(withQuality(hour(6, 4, 0), 1, null), stored).get(0).unchanged())
        .isTrue();
    assertThat(WindowRepair.windows(hour(6, 4, 0), stored).get(0).unchanged()).isTrue();
    // and the other way: a stored version 3 window the backfill now knows the counts of
    assertThat(
            WindowRepair.windows(withQuality(hour(6, 4, 0), 3, null), stored(hour(6, 4, 5)))
                .get(0)
                .unchanged())
        .isTrue();
  }

  @Test
  void shouldLeaveStoredExpectedReadingsABackfillDoesNotBuildButWriteThoseItDoes() {
    final List<BsonDocument> withExpected = stored(withQuality(hour(6, 4, 5), 0, 5_000L));
    final List<BsonDocument> withoutExpected = stored(withQuality(hour(6, 4, 5), 0, null));

    assertThat(
            WindowRepair.windows(withQuality(hour(6, 4, 0), 0, null), withExpected)
                .get(0)
                .unchanged())
        .isTrue();
    assertThat(
            WindowRepair.windows(withQuality(hour(6, 4, 0), 0, 5_000L), withoutExpected)
                .get(0)
                .unchanged())
        .isFalse();
    assertThat(
            WindowRepair.windows(withQuality(hour(6, 4, 0), 0, 60_000L), withExpected)
                .get(0)
                .unchanged())
        .isFalse();
  }

  @Test
  void shouldStillRewriteAWindowStoredAtSchemaVersionTwo() {
    final List<BsonDocument> stored = stored(hour(6, 4, 5));
    stored.forEach(document -> document.put("schema_version", new BsonInt32(2)));

    assertThat(WindowRepair.windows(withQuality(hour(6, 4, 0), 0, null), stored).get(0).unchanged())
        .isFalse();
  }

  @Test
  void shouldRewriteAWindowWhoseContentDiffersAboveItsHighestStoredRevision() {
    final List<BsonDocument> stored = stored(hour(6, 4, 5));
    stored.get(1).put("revision", new BsonInt32(7));
    stored.get(0).getDocument("window").put("count", new BsonInt64(11));

    final WindowRepair.Window window = WindowRepair.windows(hour(6, 4, 0), stored).get(0);

    assertThat(window.unchanged()).isFalse();
    assertThat(window.toWrite()).extracting(ClosedBucket::revision).containsExactly(8, 8);
    assertThat(window.stale()).isZero();
  }

  @Test
  void shouldDeleteTheStoredDocumentsBeyondTheNewCount() {
    final List<BsonDocument> stored = stored(hour(6, 2, 1)); // 3 documents
    final WindowRepair.Window window = WindowRepair.windows(hour(6, 4, 0), stored).get(0);

    assertThat(window.unchanged()).isFalse();
    assertThat(window.stale()).isEqualTo(1);
    assertThat(window.toWrite()).extracting(ClosedBucket::revision).containsExactly(2, 2);
  }

  @Test
  void shouldWriteAWindowNothingIsStoredOfAtItsOwnRevision() {
    final WindowRepair.Window window = WindowRepair.windows(hour(6, 4, 3), List.of()).get(0);

    assertThat(window.unchanged()).isFalse();
    assertThat(window.toWrite()).extracting(ClosedBucket::revision).containsExactly(3, 3);
  }
}
