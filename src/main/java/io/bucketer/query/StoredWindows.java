package io.bucketer.query;

import static io.bucketer.buckets.BucketDocumentNames.BUCKETS;
import static io.bucketer.buckets.BucketDocumentNames.METRIC;
import static io.bucketer.buckets.BucketDocumentNames.REVISION;
import static io.bucketer.buckets.BucketDocumentNames.SCHEMA_VERSION;
import static io.bucketer.buckets.BucketDocumentNames.SENSOR_ID;
import static io.bucketer.buckets.BucketDocumentNames.SEQ;
import static io.bucketer.buckets.BucketDocumentNames.START_DATE;
import static io.bucketer.buckets.BucketDocumentNames.UTC_OFFSET_MINUTES;
import static io.bucketer.buckets.BucketDocumentNames.WINDOW;

import com.mongodb.client.model.Filters;
import com.mongodb.client.model.Projections;
import com.mongodb.client.model.Sorts;
import com.mongodb.reactivestreams.client.MongoCollection;
import com.mongodb.reactivestreams.client.MongoDatabase;
import io.bucketer.buckets.BucketDocumentNames;
import io.bucketer.buckets.BucketStats;
import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.Measurement;
import io.bucketer.buckets.SeriesKey;
import io.bucketer.buckets.TimeWeighted;
import io.bucketer.buckets.TimeWeighting;
import io.bucketer.buckets.WindowQuality;
import io.bucketer.sketch.ValueSketch;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Supplier;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.conversions.Bson;
import reactor.core.Exceptions;
import reactor.core.publisher.Flux;

/**
 * The stored windows of one granularity over a range of starts, one at a time, in series and start
 * order: each with the computed fields of the whole window (its documents' {@code window}), its
 * revision and its UTC offset. What a backfill rolls a coarser granularity up from.
 *
 * <p>The range is read as a stream, a driver batch at a time, never whole: a year of minutes of
 * thousands of series does not fit a heap. It is sorted by the series/time index's own fields
 * ({@code sensor_id, metric, start_date}), so that MongoDB walks the index rather than sorting the
 * range in memory (its in-memory sort stops at 100 MB); the documents of a window split into
 * several ({@code seq} 0, 1, ...) share those fields and so come together, in any order.
 */
public final class StoredWindows {

  /**
   * One stored window.
   *
   * @param stats the whole window's computed fields, with the UTC offset of its latest reading that
   *     carried one. Read back from the document, they lack the spread's internal form, so merging
   *     them gives an average and a deviation equal to the stream's to rounding only ({@link
   *     StoredStats}).
   * @param sketch the whole window's quantile sketch; null when its documents have none (written
   *     with quantiles off or before they were kept) or it does not decode
   * @param timeWeighted the whole window's time-weighted part; null when its documents have none
   *     (written before they were kept, or by a backfill that could not build it) or it was
   *     computed with an interpolation this build does not know
   * @param weighting the max gap and interpolation of that part; null with it
   * @param carryIn the reading the window carries in; null when none
   * @param quality the window's resends and late readings; null when unknown (documents older than
   *     schema_version 4)
   * @param expectedIntervalMillis the expected interval its documents were written with; null when
   *     they name none (no interval configured, or documents older than schema_version 4)
   */
  public record StoredWindow(
      SeriesKey series,
      long start,
      int revision,
      BucketStats stats,
      ValueSketch sketch,
      TimeWeighted timeWeighted,
      TimeWeighting weighting,
      Measurement carryIn,
      WindowQuality quality,
      Long expectedIntervalMillis) {

    /** A window whose counts and expected interval are not known. */
    public StoredWindow(
        final SeriesKey series,
        final long start,
        final int revision,
        final BucketStats stats,
        final ValueSketch sketch,
        final TimeWeighted timeWeighted,
        final TimeWeighting weighting,
        final Measurement carryIn) {
      this(series, start, revision, stats, sketch, timeWeighted, weighting, carryIn, null, null);
    }

    /** A window without a time-weighted part. */
    public StoredWindow(
        final SeriesKey series,
        final long start,
        final int revision,
        final BucketStats stats,
        final ValueSketch sketch) {
      this(series, start, revision, stats, sketch, null, null, null, null, null);
    }
  }

  /** Documents the driver fetches at once, and the stream holds at most ahead of its reader. */
  private static final int BATCH = 500;

  /** Only what a window's totals need: no measurements, no summaries. */
  private static final Bson PROJECTION =
      Projections.include(
          SENSOR_ID,
          METRIC,
          START_DATE,
          SEQ,
          SCHEMA_VERSION,
          BUCKETS,
          REVISION,
          UTC_OFFSET_MINUTES,
          WINDOW);

  private static final Bson SERIES_TIME_ORDER = Sorts.ascending(SENSOR_ID, METRIC, START_DATE);

  private final MongoDatabase database;
  private final String collectionPrefix;

  /** Logged, not counted: a backfill exports no meters. */
  private final MalformedSketches malformedSketches = new MalformedSketches(() -> {});

  /**
   * @param database read with its client's timeouts: no timeout of the stream's own, which would
   *     count the time its reader spends between batches (writing, say) as MongoDB's
   */
  public StoredWindows(final MongoDatabase database, final String collectionPrefix) {
    this.database = database;
    this.collectionPrefix = collectionPrefix;
  }

  /**
   * The windows of {@code granularity} that start in {@code [from, until)}, by series, then start.
   * The iterator throws {@link StoreUnavailableException} when MongoDB fails a read, and {@link
   * IllegalStateException} for a window whose first document ({@code seq} 0) is missing, whose
   * totals are then unknown.
   */
  public Iterator<StoredWindow> read(
      final Granularity granularity, final Instant from, final Instant until) {
    final Bson range =
        Filters.and(
            Filters.gte(START_DATE, Date.from(from)), Filters.lt(START_DATE, Date.from(until)));
    final Iterator<BsonDocument> documents =
        Flux.from(
                collection(granularity)
                    .find(range)
                    .projection(PROJECTION)
                    .sort(SERIES_TIME_ORDER)
                    .batchSize(BATCH))
            .toIterable(BATCH)
            .iterator();
    return new Windows(granularity, documents);
  }

  /**
   * The last reading of {@code series} before {@code time}, a boundary of {@code granularity}'s
   * windows, if within {@code lookBackMillis}: the last reading of its latest window of that
   * granularity that starts in that time. Null when none does; unknown when that window's document
   * does not say (written before first and last values were kept).
   */
  public StoredBuckets.NearReading lastReadingBefore(
      final SeriesKey series,
      final Granularity granularity,
      final long time,
      final long lookBackMillis) {
    return nearest(
        series,
        granularity,
        granularity.windowStart(time - lookBackMillis),
        time,
        Sorts.descending(START_DATE),
        StoredStats::last);
  }

  /**
   * The first reading of {@code series} at or after {@code time}, a boundary of {@code
   * granularity}'s windows, if before {@code time + lookAheadMillis}: the first reading of its
   * earliest window of that granularity that starts in that time. Null when none does; unknown when
   * that window's document does not say.
   */
  public StoredBuckets.NearReading firstReadingFrom(
      final SeriesKey series,
      final Granularity granularity,
      final long time,
      final long lookAheadMillis) {
    final StoredBuckets.NearReading first =
        nearest(
            series,
            granularity,
            time,
            time + lookAheadMillis,
            Sorts.ascending(START_DATE),
            StoredStats::first);
    return first.reading() == null || first.reading().timestamp() < time + lookAheadMillis
        ? first
        : new StoredBuckets.NearReading(true, null);
  }

  /**
   * The window that {@code documents}, all of one window of {@code granularity} as the sink writes
   * them, describe when read back: what a backfill reads of a window it built without storing it
   * first (a chained target, a dry run).
   *
   * @throws IllegalStateException when its first document ({@code seq} 0) is missing
   */
  public StoredWindow windowOf(final Granularity granularity, final List<BsonDocument> documents) {
    return window(granularity, documents);
  }

  private MongoCollection<BsonDocument> collection(final Granularity granularity) {
    return database.getCollection(
        BucketDocumentNames.collectionName(collectionPrefix, granularity), BsonDocument.class);
  }

  /** What {@code reading} finds in the first window of {@code order} starting in [from, to). */
  private StoredBuckets.NearReading nearest(
      final SeriesKey series,
      final Granularity granularity,
      final long from,
      final long to,
      final Bson order,
      final Function<BsonDocument, Measurement> reading) {
    final List<BsonDocument> found =
        Flux.from(
                collection(granularity)
                    .find(
                        Filters.and(
                            StoredBuckets.seriesFilter(series),
                            Filters.gte(START_DATE, new Date(from)),
                            Filters.lt(START_DATE, new Date(to)),
                            Filters.eq(SEQ, 0)))
                    .projection(Projections.include(START_DATE, WINDOW))
                    .sort(order)
                    .limit(1))
            .collectList()
            .onErrorMap(
                e ->
                    new StoreUnavailableException(
                        "cannot read the " + granularity + " documents: " + describe(e), e))
            .block();
    if (found == null || found.isEmpty()) {
      return new StoredBuckets.NearReading(true, null);
    }
    final Measurement near = reading.apply(found.get(0).getDocument(WINDOW));
    return near == null
        ? new StoredBuckets.NearReading(false, null)
        : new StoredBuckets.NearReading(true, near);
  }

  /** Gathers the documents of each window, which come one after another, into one window. */
  private final class Windows implements Iterator<StoredWindow> {

    private final Granularity granularity;
    private final Iterator<BsonDocument> documents;
    private BsonDocument pending;

    Windows(final Granularity granularity, final Iterator<BsonDocument> documents) {
      this.granularity = granularity;
      this.documents = documents;
    }

    @Override
    public boolean hasNext() {
      if (pending == null && read(documents::hasNext)) {
        pending = read(documents::next);
      }
      return pending != null;
    }

    @Override
    public StoredWindow next() {
      if (!hasNext()) {
        throw new NoSuchElementException();
      }
      final List<BsonDocument> parts = new ArrayList<>(1);
      parts.add(pending);
      pending = null;
      while (read(documents::hasNext)) {
        final BsonDocument document = read(documents::next);
        if (sameWindow(document, parts.get(0))) {
          parts.add(document);
        } else {
          pending = document;
          break;
        }
      }
      return window(granularity, parts);
    }

    private <T> T read(final Supplier<T> step) {
      try {
        return step.get();
      } catch (RuntimeException e) {
        throw new StoreUnavailableException(
            "cannot read the " + granularity + " documents: " + describe(e), e);
      }
    }
  }

  private static String describe(final Throwable failure) {
    // Reactor wraps a checked exception in one of its own.
    return String.valueOf(Exceptions.unwrap(failure).getMessage());
  }

  private static boolean sameWindow(final BsonDocument one, final BsonDocument other) {
    return one.getString(SENSOR_ID).equals(other.getString(SENSOR_ID))
        && Objects.equals(one.get(METRIC), other.get(METRIC))
        && one.getDateTime(START_DATE).equals(other.getDateTime(START_DATE));
  }

  /**
   * The window that {@code parts}, its documents, describe: the totals and revision of the first,
   * and the UTC offset of the last that has one. A document's {@code utc_offset_minutes} is that of
   * its own part of the window: the latest reading that carried one, as the window's own offset is.
   * The parts are in time order, so the window's offset is that of the highest {@code seq} with
   * one. A lower one only when the last parts' readings carried none while earlier ones did: then
   * it is the earlier offset, as the stream's merge keeps it too.
   */
  private StoredWindow window(final Granularity granularity, final List<BsonDocument> parts) {
    final BsonDocument head = parts.get(0);
    final SeriesKey series =
        new SeriesKey(
            head.getString(SENSOR_ID).getValue(),
            head.isString(METRIC) ? head.getString(METRIC).getValue() : null);
    final long start = head.getDateTime(START_DATE).getValue();
    final BsonDocument first =
        parts.stream()
            .filter(part -> seq(part) == 0)
            .findFirst()
            .orElseThrow(
                () ->
                    new IllegalStateException(
                        "the "
                            + granularity
                            + " window of "
                            + series
                            + " at "
                            + Instant.ofEpochMilli(start)
                            + " has no first document (seq 0), only "
                            + parts.size()
                            + " later ones: its totals are unknown"));
    final int buckets = first.getInt32(BUCKETS, new BsonInt32(1)).getValue();
    Integer offset = null;
    int offsetSeq = -1;
    for (final BsonDocument part : parts) {
      final int seq = seq(part);
      // A seq beyond the first's count is a stale document of an older, longer revision.
      if (seq < buckets && seq > offsetSeq && part.isNumber(UTC_OFFSET_MINUTES)) {
        offset = part.getNumber(UTC_OFFSET_MINUTES).intValue();
        offsetSeq = seq;
      }
    }
    final BsonDocument window = first.getDocument(WINDOW);
    final int version = StoredStats.schemaVersion(first);
    final TimeWeighting weighting = StoredStats.weighting(window);
    final TimeWeighted part =
        weighting == null || StoredStats.unknownInterpolation(window)
            ? null
            : StoredStats.timeWeighted(window);
    return new StoredWindow(
        series,
        start,
        first.getInt32(REVISION, new BsonInt32(0)).getValue(),
        StoredStats.of(window, start, granularity.windowEnd(start), offset),
        StoredStats.sketch(window, malformedSketches),
        part,
        part == null ? null : weighting,
        part == null ? null : StoredStats.carryIn(window),
        StoredStats.quality(window, version),
        StoredStats.expectedInterval(window, version));
  }

  private static int seq(final BsonDocument part) {
    return part.getInt32(SEQ, new BsonInt32(0)).getValue();
  }
}
