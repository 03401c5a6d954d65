package io.bucketer.query;

import com.mongodb.client.model.Filters;
import com.mongodb.client.model.Projections;
import com.mongodb.reactivestreams.client.MongoCollection;
import com.mongodb.reactivestreams.client.MongoDatabase;
import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.SeriesKey;
import io.bucketer.sink.BucketDocuments;
import java.time.Duration;
import java.util.Date;
import java.util.List;
import org.bson.BsonDocument;
import org.bson.BsonValue;
import org.bson.conversions.Bson;
import reactor.core.publisher.Flux;

/**
 * count, sum, avg, min and max of one series over {@code [from, to)}, from the bucket documents in
 * MongoDB, read as {@link RangePlan} says: the window totals of whole buckets (the first part of a
 * split window carries them), and raw measurements only where an edge cuts a bucket of the finest
 * granularity. It also says how many documents it read.
 */
public final class StoredRangeStatistics {

  /** The statistics of a range, and the documents read to compute them. */
  public record Statistics(long count, double sum, double min, double max, long documentsRead) {

    static final Statistics NONE =
        new Statistics(0, 0, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, 0);

    /** NaN for an empty range. */
    public double average() {
      return count == 0 ? Double.NaN : sum / count;
    }

    Statistics plus(final long count, final double sum, final double min, final double max) {
      return new Statistics(
          this.count + count,
          this.sum + sum,
          Math.min(this.min, min),
          Math.max(this.max, max),
          documentsRead);
    }

    Statistics readOneMore() {
      return new Statistics(count, sum, min, max, documentsRead + 1);
    }
  }

  private final MongoDatabase database;
  private final String collectionPrefix;
  private final List<Granularity> granularities;

  public StoredRangeStatistics(
      final MongoDatabase database,
      final String collectionPrefix,
      final List<Granularity> granularities) {
    this.database = database;
    this.collectionPrefix = collectionPrefix;
    this.granularities = List.copyOf(granularities);
  }

  /**
   * The statistics of {@code series} over {@code [from, to)} as stored (closed buckets only).
   *
   * @throws IllegalArgumentException when {@code from >= to}
   */
  public Statistics over(
      final SeriesKey series, final long from, final long to, final Duration timeout) {
    Statistics statistics = Statistics.NONE;
    for (final RangePlan.Part part : RangePlan.of(granularities, from, to)) {
      if (part instanceof RangePlan.WholeBuckets whole) {
        statistics = addWholeBuckets(statistics, series, whole, timeout);
      } else if (part instanceof RangePlan.RawMeasurements raw) {
        statistics = addMeasurements(statistics, series, raw, timeout);
      }
    }
    return statistics;
  }

  /** True when any bucket of {@code series} is stored, in the finest granularity's collection. */
  public boolean hasSeries(final SeriesKey series, final Duration timeout) {
    final Granularity finest = granularities.stream().min(Granularity::compareTo).orElseThrow();
    final MongoCollection<BsonDocument> collection =
        database.getCollection(
            BucketDocuments.collectionName(collectionPrefix, finest), BsonDocument.class);
    return Flux.from(
            collection.find(seriesFilter(series)).projection(Projections.include("_id")).limit(1))
        .hasElements()
        .block(timeout);
  }

  private Statistics addWholeBuckets(
      final Statistics before,
      final SeriesKey series,
      final RangePlan.WholeBuckets whole,
      final Duration timeout) {
    final Bson query =
        Filters.and(
            seriesFilter(series),
            Filters.gte("start_date", new Date(whole.from())),
            Filters.lt("start_date", new Date(whole.to())),
            Filters.eq("seq", 0));
    Statistics statistics = before;
    for (final BsonDocument bucket :
        read(whole.granularity(), query, Projections.include("window"), timeout)) {
      final BsonDocument window = bucket.getDocument("window");
      statistics =
          statistics
              .readOneMore()
              .plus(
                  window.getNumber("count").longValue(),
                  window.getNumber("sum").doubleValue(),
                  window.getNumber("min").doubleValue(),
                  window.getNumber("max").doubleValue());
    }
    return statistics;
  }

  private Statistics addMeasurements(
      final Statistics before,
      final SeriesKey series,
      final RangePlan.RawMeasurements raw,
      final Duration timeout) {
    // Every part of every finest bucket that overlaps the stretch: parts split by count, not time.
    final Bson query =
        Filters.and(
            seriesFilter(series),
            Filters.gte("start_date", new Date(raw.finest().windowStart(raw.from()))),
            Filters.lt("start_date", new Date(raw.to())));
    Statistics statistics = before;
    for (final BsonDocument bucket :
        read(raw.finest(), query, Projections.include("measurements"), timeout)) {
      statistics = statistics.readOneMore();
      for (final BsonValue value : bucket.getArray("measurements")) {
        final BsonDocument measurement = value.asDocument();
        final long timestamp = measurement.getDateTime("timestamp").getValue();
        if (timestamp >= raw.from() && timestamp < raw.to()) {
          final double reading = measurement.getNumber("value").doubleValue();
          statistics = statistics.plus(1, reading, reading, reading);
        }
      }
    }
    return statistics;
  }

  /** A series without a metric has no {@code metric} field, which equality with null matches. */
  private static Bson seriesFilter(final SeriesKey series) {
    return Filters.and(
        Filters.eq("sensor_id", series.sensorId()), Filters.eq("metric", series.metric()));
  }

  private List<BsonDocument> read(
      final Granularity granularity,
      final Bson query,
      final Bson projection,
      final Duration timeout) {
    final MongoCollection<BsonDocument> collection =
        database.getCollection(
            BucketDocuments.collectionName(collectionPrefix, granularity), BsonDocument.class);
    return Flux.from(collection.find(query).projection(projection)).collectList().block(timeout);
  }
}
