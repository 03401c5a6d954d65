package io.bucketer.query;

import static io.bucketer.buckets.BucketDocumentNames.FIRST_TIMESTAMP;
import static io.bucketer.buckets.BucketDocumentNames.ID;
import static io.bucketer.buckets.BucketDocumentNames.INTERPOLATION;
import static io.bucketer.buckets.BucketDocumentNames.LAST_TIMESTAMP;
import static io.bucketer.buckets.BucketDocumentNames.LATE_READINGS;
import static io.bucketer.buckets.BucketDocumentNames.LEARNED_INTERVAL_MS;
import static io.bucketer.buckets.BucketDocumentNames.MAX_GAP_MS;
import static io.bucketer.buckets.BucketDocumentNames.MEASUREMENTS;
import static io.bucketer.buckets.BucketDocumentNames.METRIC;
import static io.bucketer.buckets.BucketDocumentNames.RESENDS;
import static io.bucketer.buckets.BucketDocumentNames.SCHEMA_VERSION;
import static io.bucketer.buckets.BucketDocumentNames.SENSOR_ID;
import static io.bucketer.buckets.BucketDocumentNames.SEQ;
import static io.bucketer.buckets.BucketDocumentNames.START_DATE;
import static io.bucketer.buckets.BucketDocumentNames.SUMMARIES;
import static io.bucketer.buckets.BucketDocumentNames.SUMMARY_GRANULARITY;
import static io.bucketer.buckets.BucketDocumentNames.TIMESTAMP;
import static io.bucketer.buckets.BucketDocumentNames.VALUE;
import static io.bucketer.buckets.BucketDocumentNames.WINDOW;

import com.mongodb.MongoException;
import com.mongodb.client.model.Accumulators;
import com.mongodb.client.model.Aggregates;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.Projections;
import com.mongodb.client.model.Sorts;
import com.mongodb.reactivestreams.client.MongoCollection;
import com.mongodb.reactivestreams.client.MongoDatabase;
import io.bucketer.buckets.BucketDocumentNames;
import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.Measurement;
import io.bucketer.buckets.RollupPlan;
import io.bucketer.buckets.SeriesKey;
import io.bucketer.buckets.TimeWeighting;
import io.bucketer.buckets.WindowQuality;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Date;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonString;
import org.bson.BsonValue;
import org.bson.conversions.Bson;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The closed buckets of a series as MongoDB holds them, read through the {@code {sensor_id, metric,
 * start_date}} index: window totals from the first document of each window (a window split by
 * {@code bucket.max.measurements} carries its totals in {@code seq} 0), and raw measurements. The
 * windows of a granularity that a coarser one summarises are read from the coarser documents, one
 * per coarser window (an hour's minutes from the hour), and from their own collection only where no
 * such document is stored yet (an hour still open) or it holds no summaries (written by an older
 * version). Every method says how many documents it read.
 */
public final class StoredBuckets {

  /** What a read found, and the documents it took. */
  public record Read<T>(T found, long documentsRead) {}

  /**
   * The series' last reading before some time, or its first at or after it, as far as the documents
   * know it.
   *
   * @param known false when a document that would tell lacks what it takes
   * @param reading the reading; null when none is known or none is near enough to that time
   */
  public record NearReading(boolean known, Measurement reading) {}

  private final MongoDatabase database;
  private final String collectionPrefix;
  private final List<Granularity> granularities;

  /** For a granularity whose windows a coarser one's documents summarise: that coarser one. */
  private final Map<Granularity, Granularity> summarisedIn = new HashMap<>();

  private final Duration timeout;
  private final MalformedSketches malformedSketches;

  /** Buckets of the default layout: only the finest granularity keeps measurements. */
  public StoredBuckets(
      final MongoDatabase database,
      final String collectionPrefix,
      final List<Granularity> granularities,
      final Duration timeout) {
    this(database, collectionPrefix, granularities, Set.of(), timeout);
  }

  /**
   * @param keepMeasurements the granularities configured to keep measurements ({@code
   *     bucket.measurements.granularities}); the others summarise the windows they are rolled up
   *     from
   * @param timeout how long one read may wait for MongoDB
   */
  public StoredBuckets(
      final MongoDatabase database,
      final String collectionPrefix,
      final List<Granularity> granularities,
      final Set<Granularity> keepMeasurements,
      final Duration timeout) {
    this(database, collectionPrefix, granularities, keepMeasurements, timeout, () -> {});
  }

  /**
   * As {@link #StoredBuckets(MongoDatabase, String, List, Set, Duration)}, telling {@code
   * malformedSketch} of each stored quantile sketch read that does not decode (the first is also
   * logged): the query API counts them in a meter.
   */
  public StoredBuckets(
      final MongoDatabase database,
      final String collectionPrefix,
      final List<Granularity> granularities,
      final Set<Granularity> keepMeasurements,
      final Duration timeout,
      final Runnable malformedSketch) {
    this.database = database;
    this.collectionPrefix = collectionPrefix;
    this.granularities = granularities.stream().sorted().toList();
    this.timeout = timeout;
    this.malformedSketches = new MalformedSketches(malformedSketch);
    final RollupPlan plan = new RollupPlan(granularities);
    // coarsest last, so that the coarsest summarising granularity wins: the fewest documents
    for (final Granularity coarser : this.granularities) {
      if (!keepMeasurements.contains(coarser)) {
        plan.sourceOf(coarser).ifPresent(finer -> summarisedIn.put(finer, coarser));
      }
    }
  }

  /**
   * The granularity whose documents hold the windows of {@code granularity}: a coarser one that
   * summarises them, or its own.
   */
  public Granularity documentsOf(final Granularity granularity) {
    return summarisedIn.getOrDefault(granularity, granularity);
  }

  /**
   * Where the windows of {@code granularity} are read: the summaries of a coarser collection
   * ({@code buckets_1h summaries}), or its own collection ({@code buckets_1m}).
   */
  public String readFrom(final Granularity granularity) {
    final Granularity documents = documentsOf(granularity);
    final String collection = BucketDocumentNames.collectionName(collectionPrefix, documents);
    return documents.equals(granularity) ? collection : collection + " summaries";
  }

  /** The configured granularities, finest first. */
  public List<Granularity> granularities() {
    return granularities;
  }

  /** The totals of the stored windows of {@code granularity} starting in {@code [from, to)}. */
  public Read<List<WindowTotals>> windows(
      final SeriesKey series, final Granularity granularity, final long from, final long to) {
    final Granularity coarser = summarisedIn.get(granularity);
    if (coarser == null) {
      return ownWindows(series, granularity, from, to);
    }
    final Read<Summaries> summarised = summaries(series, coarser, granularity, from, to);
    final List<WindowTotals> windows = new ArrayList<>(summarised.found().windows());
    long documentsRead = summarised.documentsRead();
    // Coarser windows without summaries in MongoDB: their finer windows from their own documents.
    final List<Long> uncovered = new ArrayList<>();
    for (long start = coarser.windowStart(from); start < to; start = coarser.windowEnd(start)) {
      if (!summarised.found().coveredStarts().contains(start)) {
        uncovered.add(start);
      }
    }
    if (!uncovered.isEmpty()) {
      final long uncoveredFrom = Math.max(from, uncovered.get(0));
      final long uncoveredTo = Math.min(to, coarser.windowEnd(uncovered.get(uncovered.size() - 1)));
      final Read<List<WindowTotals>> own =
          ownWindows(series, granularity, uncoveredFrom, uncoveredTo);
      documentsRead += own.documentsRead();
      for (final WindowTotals window : own.found()) {
        if (!summarised.found().coveredStarts().contains(coarser.windowStart(window.start()))) {
          windows.add(window);
        }
      }
    }
    windows.sort(Comparator.comparingLong(WindowTotals::start));
    return new Read<>(windows, documentsRead);
  }

  /**
   * Finer windows found in the summaries of coarser documents, and which coarser windows those
   * were.
   */
  private record Summaries(List<WindowTotals> windows, Set<Long> coveredStarts) {}

  private Read<Summaries> summaries(
      final SeriesKey series,
      final Granularity coarser,
      final Granularity granularity,
      final long from,
      final long to) {
    final Bson query =
        Filters.and(
            seriesFilter(series),
            Filters.gte(START_DATE, new Date(coarser.windowStart(from))),
            Filters.lt(START_DATE, new Date(to)),
            Filters.eq(SUMMARY_GRANULARITY, granularity.label()));
    final List<BsonDocument> documents =
        find(
            coarser,
            query,
            Projections.include(
                START_DATE,
                SCHEMA_VERSION,
                SUMMARIES,
                WINDOW + "." + MAX_GAP_MS,
                WINDOW + "." + INTERPOLATION,
                WINDOW + "." + LEARNED_INTERVAL_MS));
    final List<WindowTotals> windows = new ArrayList<>();
    final Set<Long> covered = new HashSet<>();
    for (final BsonDocument document : documents) {
      covered.add(document.getDateTime(START_DATE).getValue());
      final BsonDocument coarseWindow = document.getDocument(WINDOW, new BsonDocument());
      final TimeWeighting weighting = StoredStats.weighting(coarseWindow);
      final boolean partsUnknown = StoredStats.unknownInterpolation(coarseWindow);
      final int version = StoredStats.schemaVersion(document);
      // A summary learns no interval of its own: its window takes the document's.
      final Long learned = StoredStats.learnedInterval(coarseWindow, version);
      for (final BsonValue value : document.getArray(SUMMARIES)) {
        final BsonDocument summary = value.asDocument();
        final long start = summary.getDateTime(START_DATE).getValue();
        if (start >= from && start < to) {
          windows.add(
              new WindowTotals(
                  granularity,
                  start,
                  StoredStats.of(summary, start, granularity.windowEnd(start)),
                  false,
                  partsUnknown ? null : StoredStats.timeWeighted(summary),
                  weighting,
                  StoredStats.sketch(summary, malformedSketches),
                  StoredStats.quality(summary, version),
                  learned));
        }
      }
    }
    return new Read<>(new Summaries(windows, covered), documents.size());
  }

  private Read<List<WindowTotals>> ownWindows(
      final SeriesKey series, final Granularity granularity, final long from, final long to) {
    final Bson query =
        Filters.and(
            seriesFilter(series),
            Filters.gte(START_DATE, new Date(from)),
            Filters.lt(START_DATE, new Date(to)),
            Filters.eq(SEQ, 0));
    final List<BsonDocument> documents =
        find(granularity, query, Projections.include(START_DATE, SCHEMA_VERSION, WINDOW));
    final List<WindowTotals> windows = new ArrayList<>();
    for (final BsonDocument bucket : documents) {
      final long start = bucket.getDateTime(START_DATE).getValue();
      final BsonDocument window = bucket.getDocument(WINDOW);
      final int version = StoredStats.schemaVersion(bucket);
      windows.add(
          new WindowTotals(
              granularity,
              start,
              StoredStats.of(window, start, granularity.windowEnd(start)),
              false,
              StoredStats.unknownInterpolation(window) ? null : StoredStats.timeWeighted(window),
              StoredStats.weighting(window),
              StoredStats.sketch(window, malformedSketches),
              StoredStats.quality(window, version),
              StoredStats.learnedInterval(window, version)));
    }
    windows.sort(Comparator.comparingLong(WindowTotals::start));
    return new Read<>(windows, documents.size());
  }

  /**
   * The readings of a stretch of time, and the stored finest windows it cuts: what a range reads
   * raw where an edge falls inside a window.
   *
   * @param readings the readings in the stretch, in time order
   * @param windows the resends and late readings of each stored finest window that overlaps the
   *     stretch, by its start, each null when unknown (a document written before schema_version 4);
   *     a window without readings is not stored, and counts none
   * @param learnedIntervals the learned interval of each of those windows that has one, by its
   *     start: the windows whose readings the stretch reads raw
   */
  public record Stretch(
      List<Measurement> readings,
      Map<Long, WindowQuality> windows,
      Map<Long, Long> learnedIntervals) {}

  /** The stored readings of {@code series} with {@code from <= timestamp < to}, in time order. */
  public Read<List<Measurement>> measurements(
      final SeriesKey series, final long from, final long to) {
    final Read<Stretch> stretch = stretch(series, from, to);
    return new Read<>(stretch.found().readings(), stretch.documentsRead());
  }

  /**
   * The stored readings of {@code series} with {@code from <= timestamp < to}, in time order, and
   * the counts of the finest windows that hold them, from the same documents.
   */
  public Read<Stretch> stretch(final SeriesKey series, final long from, final long to) {
    final Granularity finest = granularities.get(0);
    // Every part of every finest bucket that overlaps the stretch: parts split by count, not time.
    final Bson query =
        Filters.and(
            seriesFilter(series),
            Filters.gte(START_DATE, new Date(finest.windowStart(from))),
            Filters.lt(START_DATE, new Date(to)));
    final List<BsonDocument> documents =
        find(
            finest,
            query,
            Projections.include(
                MEASUREMENTS,
                START_DATE,
                SEQ,
                SCHEMA_VERSION,
                WINDOW + "." + RESENDS,
                WINDOW + "." + LATE_READINGS,
                WINDOW + "." + LEARNED_INTERVAL_MS));
    final List<Measurement> measurements = new ArrayList<>();
    final Map<Long, WindowQuality> windows = new HashMap<>();
    final Map<Long, Long> learned = new HashMap<>();
    for (final BsonDocument bucket : documents) {
      // The window's counts are in its first document, as its totals are.
      if (bucket.getInt32(SEQ, new BsonInt32(0)).getValue() == 0) {
        final long start = bucket.getDateTime(START_DATE).getValue();
        final BsonDocument window = bucket.getDocument(WINDOW, new BsonDocument());
        final int version = StoredStats.schemaVersion(bucket);
        windows.put(start, StoredStats.quality(window, version));
        final Long interval = StoredStats.learnedInterval(window, version);
        if (interval != null) {
          learned.put(start, interval);
        }
      }
      for (final BsonValue value : bucket.getArray(MEASUREMENTS)) {
        final BsonDocument measurement = value.asDocument();
        final long timestamp = measurement.getDateTime(TIMESTAMP).getValue();
        if (timestamp >= from && timestamp < to) {
          measurements.add(new Measurement(timestamp, measurement.getNumber(VALUE).doubleValue()));
        }
      }
    }
    measurements.sort(Comparator.comparingLong(Measurement::timestamp));
    return new Read<>(new Stretch(measurements, windows, learned), documents.size());
  }

  /**
   * What the stored documents know of the series' last reading before {@code time}, looking back
   * {@code lookBackMillis} (a reading older than that holds nothing at {@code time}): the latest
   * finest window starting before {@code time} tells, by its last reading, by its readings before
   * {@code time}, or, when all of its readings are later, by the reading it carries in.
   *
   * @return the reading, null when none holds at {@code time}; unknown when the document that would
   *     tell was written before readings were carried in (schema_version 3)
   */
  public Read<NearReading> readingBefore(
      final SeriesKey series, final long time, final long lookBackMillis) {
    final Granularity finest = granularities.get(0);
    final List<BsonDocument> latest =
        finestWindows(
            series,
            finest.windowStart(time - lookBackMillis),
            time,
            Sorts.descending(START_DATE),
            1);
    if (latest.isEmpty()) {
      return new Read<>(new NearReading(true, null), 0);
    }
    final long start = latest.get(0).getDateTime(START_DATE).getValue();
    final BsonDocument window = latest.get(0).getDocument(WINDOW);
    if (!window.containsKey(MAX_GAP_MS)
        || !window.containsKey(FIRST_TIMESTAMP)
        || !window.containsKey(LAST_TIMESTAMP)) {
      return new Read<>(new NearReading(false, null), 1);
    }
    if (window.getDateTime(LAST_TIMESTAMP).getValue() < time) {
      return new Read<>(new NearReading(true, StoredStats.last(window)), 1);
    }
    if (window.getDateTime(FIRST_TIMESTAMP).getValue() >= time) {
      return new Read<>(new NearReading(true, StoredStats.carryIn(window)), 1);
    }
    // The window holds readings on both sides of `time`: the last one before it, from its parts.
    final Read<List<Measurement>> before = measurements(series, start, time);
    final List<Measurement> found = before.found();
    return new Read<>(
        new NearReading(true, found.get(found.size() - 1)), 1 + before.documentsRead());
  }

  /**
   * The first stored reading of {@code series} at or after {@code time} and before {@code time +
   * lookAheadMillis}: what the line of linear interpolation runs to from a range's last reading.
   * The earliest finest windows that may hold it tell, by their first reading, or, for the one
   * holding {@code time}, by its readings from {@code time} on.
   *
   * @return the reading, null when none is that near; unknown when a document that would tell was
   *     written before the time-weighted fields (schema_version 3)
   */
  public Read<NearReading> readingAfter(
      final SeriesKey series, final long time, final long lookAheadMillis) {
    final Granularity finest = granularities.get(0);
    // The window holding `time` may have all its readings before it: then the next one tells.
    final List<BsonDocument> earliest =
        finestWindows(
            series,
            finest.windowStart(time),
            time + lookAheadMillis,
            Sorts.ascending(START_DATE),
            2);
    long documentsRead = 0;
    for (final BsonDocument document : earliest) {
      documentsRead++;
      final long start = document.getDateTime(START_DATE).getValue();
      final BsonDocument window = document.getDocument(WINDOW);
      if (!window.containsKey(MAX_GAP_MS)
          || !window.containsKey(FIRST_TIMESTAMP)
          || !window.containsKey(LAST_TIMESTAMP)) {
        return new Read<>(new NearReading(false, null), documentsRead);
      }
      if (window.getDateTime(LAST_TIMESTAMP).getValue() < time) {
        continue;
      }
      final Measurement first;
      if (window.getDateTime(FIRST_TIMESTAMP).getValue() >= time) {
        first = StoredStats.first(window);
      } else {
        final Read<List<Measurement>> after = measurements(series, time, finest.windowEnd(start));
        documentsRead += after.documentsRead();
        first = after.found().get(0);
      }
      return new Read<>(
          new NearReading(true, first.timestamp() < time + lookAheadMillis ? first : null),
          documentsRead);
    }
    return new Read<>(new NearReading(true, null), documentsRead);
  }

  /**
   * The start and {@code window} of up to {@code limit} finest windows of {@code series} starting
   * in {@code [from, to)}, in {@code order}: their first documents ({@code seq} 0) alone.
   */
  private List<BsonDocument> finestWindows(
      final SeriesKey series, final long from, final long to, final Bson order, final int limit) {
    final Bson query =
        Filters.and(
            seriesFilter(series),
            Filters.gte(START_DATE, new Date(from)),
            Filters.lt(START_DATE, new Date(to)),
            Filters.eq(SEQ, 0));
    return awaitRead(
        Flux.from(
                collection(granularities.get(0))
                    .find(query)
                    .projection(Projections.include(START_DATE, WINDOW))
                    .sort(order)
                    .limit(limit))
            .collectList());
  }

  /** True when any bucket of {@code series} is stored, in the finest granularity's collection. */
  public boolean hasSeries(final SeriesKey series) {
    return awaitRead(
        Flux.from(
                collection(granularities.get(0))
                    .find(seriesFilter(series))
                    .projection(Projections.include(ID))
                    .limit(1))
            .hasElements());
  }

  /**
   * Up to {@code limit} stored series whose sensor id starts with {@code prefix}, in order, from
   * the coarsest collection (the fewest documents per series).
   */
  public List<SeriesKey> series(final String prefix, final int limit) {
    return series(List.of(prefix), limit);
  }

  /**
   * Up to {@code limit} stored series whose sensor id starts with one of {@code prefixes}, in
   * order, from the coarsest collection (the fewest documents per series).
   */
  public List<SeriesKey> series(final List<String> prefixes, final int limit) {
    final Granularity coarsest = granularities.get(granularities.size() - 1);
    final String anyPrefix =
        prefixes.stream().map(Pattern::quote).collect(Collectors.joining("|", "^(?:", ")"));
    final List<Bson> pipeline =
        List.of(
            Aggregates.match(Filters.regex(SENSOR_ID, Pattern.compile(anyPrefix))),
            Aggregates.group(
                new BsonDocument(SENSOR_ID, new BsonString("$" + SENSOR_ID))
                    .append(METRIC, new BsonString("$" + METRIC)),
                Accumulators.sum("buckets", 1)),
            Aggregates.sort(Sorts.ascending(ID + "." + SENSOR_ID, ID + "." + METRIC)),
            Aggregates.limit(limit));
    final List<BsonDocument> groups =
        awaitRead(
            Flux.from(collection(coarsest).aggregate(pipeline, BsonDocument.class)).collectList());
    return groups.stream()
        .map(group -> group.getDocument(ID))
        .map(
            id ->
                new SeriesKey(
                    id.getString(SENSOR_ID).getValue(),
                    id.isString(METRIC) ? id.getString(METRIC).getValue() : null))
        .toList();
  }

  /** A series without a metric has no {@code metric} field, which equality with null matches. */
  static Bson seriesFilter(final SeriesKey series) {
    return Filters.and(
        Filters.eq(SENSOR_ID, series.sensorId()), Filters.eq(METRIC, series.metric()));
  }

  private List<BsonDocument> find(
      final Granularity granularity, final Bson query, final Bson projection) {
    return awaitRead(
        Flux.from(collection(granularity).find(query).projection(projection)).collectList());
  }

  /** The read's result, waiting at most the timeout; MongoDB's failures as one exception. */
  private <T> T awaitRead(final Mono<T> read) {
    try {
      return read.block(timeout);
    } catch (MongoException e) {
      throw new StoreUnavailableException("MongoDB refused or failed the read: " + e, e);
    } catch (IllegalStateException e) {
      // Reactor's block(timeout) reports a timeout this way, with no type of its own.
      throw new StoreUnavailableException("MongoDB did not answer within " + timeout, e);
    }
  }

  private MongoCollection<BsonDocument> collection(final Granularity granularity) {
    return database.getCollection(
        BucketDocumentNames.collectionName(collectionPrefix, granularity), BsonDocument.class);
  }
}
