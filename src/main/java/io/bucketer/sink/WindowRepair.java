package io.bucketer.sink;

import static io.bucketer.buckets.BucketDocumentNames.AVG;
import static io.bucketer.buckets.BucketDocumentNames.CARRY_IN;
import static io.bucketer.buckets.BucketDocumentNames.COVERAGE;
import static io.bucketer.buckets.BucketDocumentNames.COVERED_MS;
import static io.bucketer.buckets.BucketDocumentNames.EXPECTED;
import static io.bucketer.buckets.BucketDocumentNames.EXPECTED_INTERVAL_MS;
import static io.bucketer.buckets.BucketDocumentNames.GAPS;
import static io.bucketer.buckets.BucketDocumentNames.GAP_AT_END_MS;
import static io.bucketer.buckets.BucketDocumentNames.GAP_AT_START_MS;
import static io.bucketer.buckets.BucketDocumentNames.ID;
import static io.bucketer.buckets.BucketDocumentNames.INTEGRAL;
import static io.bucketer.buckets.BucketDocumentNames.INTERPOLATION;
import static io.bucketer.buckets.BucketDocumentNames.LATE_READINGS;
import static io.bucketer.buckets.BucketDocumentNames.LEARNED_INTERVAL_MS;
import static io.bucketer.buckets.BucketDocumentNames.LONGEST_GAP_MS;
import static io.bucketer.buckets.BucketDocumentNames.MAX_GAP_MS;
import static io.bucketer.buckets.BucketDocumentNames.METRIC;
import static io.bucketer.buckets.BucketDocumentNames.QUANTILE_SKETCH;
import static io.bucketer.buckets.BucketDocumentNames.RESENDS;
import static io.bucketer.buckets.BucketDocumentNames.REVISION;
import static io.bucketer.buckets.BucketDocumentNames.SCHEMA_VERSION;
import static io.bucketer.buckets.BucketDocumentNames.SENSOR_ID;
import static io.bucketer.buckets.BucketDocumentNames.SEQ;
import static io.bucketer.buckets.BucketDocumentNames.START_DATE;
import static io.bucketer.buckets.BucketDocumentNames.STDDEV;
import static io.bucketer.buckets.BucketDocumentNames.TWA;

import com.mongodb.client.model.DeleteManyModel;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.WriteModel;
import io.bucketer.buckets.ClosedBucket;
import io.bucketer.buckets.SeriesKey;
import java.util.ArrayList;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.bson.BsonArray;
import org.bson.BsonDocument;
import org.bson.BsonValue;
import org.bson.conversions.Bson;

/**
 * Which windows a repair rewrites: those whose stored documents differ from the ones built, at a
 * revision above every stored one, with the stored documents beyond the new count ({@code seq} past
 * {@code buckets}) to delete. A window stored with the same content, revisions aside and averages,
 * deviations and integrals to a relative 1e-12 (a backfill merges them from their stored form, the
 * stream from an exact one), is left as it is, so a repair run twice changes nothing the second
 * time.
 *
 * <p>The counts of resends and late readings do not make a window differ, either way, and neither
 * does {@code schema_version} 3 against 4, which differ in those counts only: a backfill sums them
 * from the stored finer windows, which may not show yet a resend that the stored coarser window
 * counts (a resend alone does not rewrite a closed window), and does not know them at all from
 * finer documents older than version 4. A window rewritten for another reason takes the backfill's.
 */
final class WindowRepair {

  /** Averages and deviations that differ by less than this, relatively, are the same. */
  static final double ROUNDING = 1e-12;

  /**
   * One window's built buckets and its stored documents.
   *
   * @param built the window's buckets, in {@code seq} order
   * @param stored its documents as stored, any order; empty when none
   */
  record Window(List<ClosedBucket> built, List<BsonDocument> stored) {

    /** The stored documents are those built, but for revisions and rounding. */
    boolean unchanged() {
      if (stored.size() != built.size()) {
        return false;
      }
      final Map<BsonDocument, BsonDocument> byId = new LinkedHashMap<>();
      stored.forEach(document -> byId.put(document.getDocument(ID), document));
      for (final ClosedBucket bucket : built) {
        final BsonDocument document = byId.get(BucketDocuments.idOf(bucket));
        if (document == null || !same(BucketDocuments.toDocument(bucket), document, "")) {
          return false;
        }
      }
      return true;
    }

    /**
     * The buckets to write: as built when nothing is stored (their revision is the backfill's),
     * otherwise at one revision above the highest stored.
     */
    List<ClosedBucket> toWrite() {
      if (stored.isEmpty()) {
        return built;
      }
      final int revision =
          stored.stream()
                  .mapToInt(document -> document.getInt32(REVISION).getValue())
                  .max()
                  .orElse(0)
              + 1;
      return built.stream().map(bucket -> bucket.atRevision(revision)).toList();
    }

    /** Stored documents beyond the built count: a longer, older cutting of the window. */
    long stale() {
      final int count = built.size();
      return stored.stream().filter(document -> document.getInt32(SEQ).getValue() >= count).count();
    }

    /** Deletes the stored documents beyond the built count. */
    WriteModel<BsonDocument> deleteStale() {
      final ClosedBucket first = built.get(0);
      return new DeleteManyModel<>(
          Filters.and(
              Filters.eq(SENSOR_ID, first.series().sensorId()),
              Filters.eq(METRIC, first.series().metric()),
              Filters.eq(START_DATE, new Date(first.windowStart())),
              Filters.gte(SEQ, built.size())));
    }
  }

  private WindowRepair() {}

  /**
   * The filter that finds the stored documents of the windows of {@code buckets}, all of one
   * granularity: per series, its range of starts, so a batch of consecutive windows is one read.
   */
  static Bson storedOf(final List<ClosedBucket> buckets) {
    final Map<SeriesKey, long[]> ranges = new LinkedHashMap<>();
    for (final ClosedBucket bucket : buckets) {
      final long[] range =
          ranges.computeIfAbsent(bucket.series(), s -> new long[] {Long.MAX_VALUE, Long.MIN_VALUE});
      range[0] = Math.min(range[0], bucket.windowStart());
      range[1] = Math.max(range[1], bucket.windowStart());
    }
    final List<Bson> series = new ArrayList<>();
    ranges.forEach(
        (key, range) ->
            series.add(
                Filters.and(
                    Filters.eq(SENSOR_ID, key.sensorId()),
                    Filters.eq(METRIC, key.metric()),
                    Filters.gte(START_DATE, new Date(range[0])),
                    Filters.lte(START_DATE, new Date(range[1])))));
    return series.size() == 1 ? series.get(0) : Filters.or(series);
  }

  /** The windows of {@code buckets}, in their order, each with its stored documents. */
  static List<Window> windows(final List<ClosedBucket> buckets, final List<BsonDocument> stored) {
    final Map<BsonDocument, List<ClosedBucket>> built = new LinkedHashMap<>();
    for (final ClosedBucket bucket : buckets) {
      built.computeIfAbsent(windowKey(bucket), k -> new ArrayList<>()).add(bucket);
    }
    final Map<BsonDocument, List<BsonDocument>> documents = new LinkedHashMap<>();
    for (final BsonDocument document : stored) {
      final BsonDocument key = document.getDocument(ID).clone();
      key.remove(SEQ);
      documents.computeIfAbsent(key, k -> new ArrayList<>()).add(document);
    }
    final List<Window> windows = new ArrayList<>(built.size());
    built.forEach(
        (key, parts) -> windows.add(new Window(parts, documents.getOrDefault(key, List.of()))));
    return windows;
  }

  /** The {@code _id} of a window's documents without their {@code seq}. */
  private static BsonDocument windowKey(final ClosedBucket bucket) {
    final BsonDocument key = BucketDocuments.idOf(bucket);
    key.remove(SEQ);
    return key;
  }

  /**
   * Fields of the time-weighted part, the quantile sketch and the expected readings, which a
   * backfill cannot always build (not from source windows written before them, or when the reading
   * before a window is unknown): a stored window that has them, and is otherwise the same, is left
   * as it is, rather than rewritten without them.
   */
  private static final Set<String> FIELDS_BACKFILL_DOES_NOT_BUILD =
      Set.of(
          COVERED_MS,
          COVERAGE,
          INTEGRAL,
          TWA,
          GAPS,
          LONGEST_GAP_MS,
          GAP_AT_START_MS,
          GAP_AT_END_MS,
          CARRY_IN,
          MAX_GAP_MS,
          INTERPOLATION,
          QUANTILE_SKETCH,
          EXPECTED_INTERVAL_MS,
          LEARNED_INTERVAL_MS,
          EXPECTED);

  /** Counts that do not make a window differ (see the class's comment). */
  private static final Set<String> COUNTS_NOT_COMPARED = Set.of(RESENDS, LATE_READINGS);

  /** The same version, or versions 3 and 4, which differ in the counts only. */
  private static boolean sameVersion(final BsonValue built, final BsonValue stored) {
    return built.equals(stored) || (countsOnly(built) && countsOnly(stored));
  }

  private static boolean countsOnly(final BsonValue version) {
    return version.isInt32()
        && (version.asInt32().getValue() == BucketDocuments.SCHEMA_VERSION_WRITTEN
            || version.asInt32().getValue() == BucketDocuments.SCHEMA_VERSION_WITHOUT_QUALITY);
  }

  /**
   * Equal but for the revision, averages, deviations, integrals and time-weighted averages to
   * {@link #ROUNDING} (a backfill sums a window's integral from its sources' stored ones), and the
   * fields a backfill could not build that only the stored document has.
   */
  private static boolean same(final BsonValue built, final BsonValue stored, final String name) {
    if (name.equals(AVG) || name.equals(STDDEV) || name.equals(INTEGRAL) || name.equals(TWA)) {
      if (!built.isNumber() || !stored.isNumber()) {
        return false;
      }
      final double one = built.asNumber().doubleValue();
      final double other = stored.asNumber().doubleValue();
      return Math.abs(one - other) <= ROUNDING * Math.max(Math.abs(one), Math.abs(other));
    }
    if (built.isDocument() && stored.isDocument()) {
      final BsonDocument one = built.asDocument();
      final BsonDocument other = stored.asDocument();
      for (final String field : other.keySet()) {
        if (!one.containsKey(field)
            && !FIELDS_BACKFILL_DOES_NOT_BUILD.contains(field)
            && !COUNTS_NOT_COMPARED.contains(field)) {
          return false;
        }
      }
      for (final String field : one.keySet()) {
        if (COUNTS_NOT_COMPARED.contains(field)) {
          continue;
        }
        if (!other.containsKey(field)) {
          return false;
        }
        final boolean top = name.isEmpty();
        if (!(top && field.equals(REVISION))
            && !(top
                && field.equals(SCHEMA_VERSION)
                && sameVersion(one.get(field), other.get(field)))
            && !same(one.get(field), other.get(field), field)) {
          return false;
        }
      }
      return true;
    }
    if (built.isArray() && stored.isArray()) {
      final BsonArray one = built.asArray();
      final BsonArray other = stored.asArray();
      if (one.size() != other.size()) {
        return false;
      }
      for (int i = 0; i < one.size(); i++) {
        if (!same(one.get(i), other.get(i), "")) {
          return false;
        }
      }
      return true;
    }
    return built.equals(stored);
  }
}
