package io.bucketer.query;

import static io.bucketer.testing.GoldenBuckets.H0;
import static io.bucketer.testing.GoldenBuckets.T0;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.bucketer.buckets.BucketStats;
import io.bucketer.buckets.Measurement;
import io.bucketer.buckets.TimeWeighted;
import io.bucketer.buckets.WindowQuality;
import io.bucketer.testing.GoldenFiles;
import org.bson.BsonDocument;
import org.bson.RawBsonDocument;
import org.junit.jupiter.api.Test;

/**
 * The query side reads the golden documents ({@link GoldenFiles}) of every {@code schema_version}:
 * version 4, with the counts of resends and late readings, version 3, with the time-weighted parts,
 * version 2, which says so, and version 1, which has no {@code schema_version} and, from the oldest
 * builds, no first and last values or spread.
 */
class StoredDocumentVersionsTest {

  @Test
  void shouldReadTheCountsAndExpectedIntervalOfASchemaVersionFourDocument() {
    final BsonDocument hour = new RawBsonDocument(GoldenFiles.read("bucket-document-v4-1h.bson"));
    final BsonDocument part =
        new RawBsonDocument(GoldenFiles.read("bucket-document-v4-1m-part-2-of-2.bson"));
    final int version = StoredStats.schemaVersion(hour);

    assertThat(version).isEqualTo(4);
    // the minute before T0 took a late reading, the minute T0 a resend; the hour counts both
    assertThat(StoredStats.quality(hour.getDocument("window"), version))
        .isEqualTo(new WindowQuality(1, 1));
    assertThat(StoredStats.quality(hour.getArray("summaries").get(0).asDocument(), version))
        .isEqualTo(new WindowQuality(0, 1));
    assertThat(StoredStats.quality(hour.getArray("summaries").get(1).asDocument(), version))
        .isEqualTo(new WindowQuality(1, 0));
    assertThat(StoredStats.expectedInterval(hour.getDocument("window"), version)).isEqualTo(1_000);
    // nothing resent or late, known: no count written; and no interval expected
    assertThat(StoredStats.quality(part.getDocument("window"), StoredStats.schemaVersion(part)))
        .isEqualTo(WindowQuality.NONE);
    assertThat(StoredStats.expectedInterval(part.getDocument("window"), 4)).isNull();
  }

  @Test
  void shouldKnowNoCountsInDocumentsBeforeSchemaVersionFour() {
    for (final String name :
        new String[] {
          "bucket-document-v3-1h.bson", "bucket-document-v2-1h.bson", "bucket-document-v1-1m.bson"
        }) {
      final BsonDocument document = new RawBsonDocument(GoldenFiles.read(name));
      final int version = StoredStats.schemaVersion(document);
      assertThat(version).as(name).isLessThan(4);
      assertThat(StoredStats.quality(document.getDocument("window"), version)).as(name).isNull();
      assertThat(StoredStats.expectedInterval(document.getDocument("window"), version))
          .as(name)
          .isNull();
    }
  }

  @Test
  void shouldReadTheTimeWeightedPartsOfASchemaVersionThreeDocument() {
    final BsonDocument hour = new RawBsonDocument(GoldenFiles.read("bucket-document-v3-1h.bson"));

    final TimeWeighted window = StoredStats.timeWeighted(hour.getDocument("window"));
    final TimeWeighted lastMinute =
        StoredStats.timeWeighted(hour.getArray("summaries").get(1).asDocument());

    assertThat(hour.getInt32("schema_version").getValue()).isEqualTo(3);
    assertThat(StoredStats.of(hour.getDocument("window"), H0, H0 + 3_600_000).count()).isEqualTo(5);
    // the integral is stored in value·s, read back in value·ms
    assertThat(window)
        .isEqualTo(new TimeWeighted(362_000, 7_827_500, 2, 2_458_000, 780_000, 2_458_000));
    assertThat(window.twa()).hasValue(21.62292817679558);
    // a part without gaps is written without its gap fields, and read with none
    assertThat(hour.getArray("summaries").get(1).asDocument().containsKey("gaps")).isFalse();
    assertThat(lastMinute).isEqualTo(new TimeWeighted(60_000, 1_305_000, 0, 0, 0, 0));
  }

  @Test
  void shouldReadNoTimeWeightedPartFromDocumentsOfEarlierVersions() {
    for (final String name :
        new String[] {"bucket-document-v2-1h.bson", "bucket-document-v1-1m.bson"}) {
      final BsonDocument document = new RawBsonDocument(GoldenFiles.read(name));
      assertThat(StoredStats.timeWeighted(document.getDocument("window"))).as(name).isNull();
    }
    final BsonDocument hour = new RawBsonDocument(GoldenFiles.read("bucket-document-v2-1h.bson"));
    assertThat(StoredStats.timeWeighted(hour.getArray("summaries").get(0).asDocument())).isNull();
  }

  @Test
  void shouldReadTheWindowAndSummariesOfASchemaVersionTwoDocument() {
    final BsonDocument hour = new RawBsonDocument(GoldenFiles.read("bucket-document-v2-1h.bson"));

    final BucketStats window = StoredStats.of(hour.getDocument("window"), H0, H0 + 3_600_000);
    final BucketStats lastMinute =
        StoredStats.of(hour.getArray("summaries").get(1).asDocument(), T0, T0 + 60_000);

    assertThat(hour.getInt32("schema_version").getValue()).isEqualTo(2);
    assertThat(window.count()).isEqualTo(5);
    assertThat(window.sum()).isEqualTo(106.25);
    assertThat(window.average()).isEqualTo(21.25);
    assertThat(window.standardDeviation()).isCloseTo(0.7071067811865476, within(1e-15));
    assertThat(window.first()).isEqualTo(new Measurement(T0 - 60_000, 20.0));
    assertThat(window.last()).isEqualTo(new Measurement(T0 + 2_000, 21.75));
    assertThat(lastMinute.count()).isEqualTo(3);
    assertThat(lastMinute.min()).isEqualTo(21.5);
    assertThat(lastMinute.max()).isEqualTo(22.0);
  }

  @Test
  void shouldReadASchemaVersionOneDocumentWithWhatItLacksUnknown() {
    final BsonDocument minute = new RawBsonDocument(GoldenFiles.read("bucket-document-v1-1m.bson"));

    final BucketStats top = StoredStats.of(minute, T0, T0 + 60_000);
    final BucketStats window = StoredStats.of(minute.getDocument("window"), T0, T0 + 60_000);

    assertThat(minute.containsKey("schema_version")).isFalse();
    assertThat(top.count()).isEqualTo(3);
    assertThat(top.average()).isEqualTo(21.75);
    assertThat(top.first().timestamp()).isEqualTo(T0);
    assertThat(top.first().value()).isNaN();
    assertThat(top.hasSpread()).isFalse();
    assertThat(window.sum()).isEqualTo(65.25);
    // the window's first and last times are unknown: the window's bounds stand in
    assertThat(window.first().timestamp()).isEqualTo(T0);
    assertThat(window.last().timestamp()).isEqualTo(T0 + 59_999);
  }
}
