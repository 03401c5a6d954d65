package io.bucketer.cli;

import static io.bucketer.buckets.BucketDocumentNames.METRIC;
import static io.bucketer.buckets.BucketDocumentNames.SENSOR_ID;
import static io.bucketer.buckets.BucketDocumentNames.START_DATE;
import static io.bucketer.buckets.BucketDocumentNames.SUMMARIES;
import static io.bucketer.buckets.BucketDocumentNames.SUMMARY_GRANULARITY;

import com.mongodb.client.model.Filters;
import com.mongodb.reactivestreams.client.MongoClient;
import com.mongodb.reactivestreams.client.MongoClients;
import com.mongodb.reactivestreams.client.MongoDatabase;
import io.bucketer.buckets.BucketDocumentNames;
import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.SeriesKey;
import io.bucketer.query.LiveWindows;
import io.bucketer.query.SeriesQueries;
import io.bucketer.query.StoredBuckets;
import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Date;
import java.util.List;
import org.bson.BsonArray;
import org.bson.BsonDocument;
import org.bson.json.JsonMode;
import org.bson.json.JsonWriterSettings;
import reactor.core.publisher.Mono;

/**
 * The demo's read-back: the series' first hour document, which holds the summaries of its minutes,
 * and statistics of the series over an hour on the hour and over an hour that cuts two, through the
 * query API's own read path, with the documents each one read: the point of the bucket pattern,
 * shown on the data just written.
 */
final class DemoReadBack {

  private static final Duration TIMEOUT = Duration.ofSeconds(30);
  private static final DateTimeFormatter CLOCK =
      DateTimeFormatter.ofPattern("HH:mm").withZone(ZoneOffset.UTC);

  private final PrintStream out;

  DemoReadBack(final PrintStream out) {
    this.out = out;
  }

  void print(
      final String mongoUri,
      final String database,
      final String collectionPrefix,
      final List<Granularity> granularities,
      final SeriesKey series,
      final Instant firstHour) {
    try (MongoClient client = MongoClients.create(mongoUri)) {
      final SeriesQueries queries =
          new SeriesQueries(
              new StoredBuckets(
                  client.getDatabase(database), collectionPrefix, granularities, TIMEOUT));
      printHourDocument(
          client.getDatabase(database), collectionPrefix, granularities, series, firstHour);
      out.printf("%nReading it back: %s, as the query API reads it%n", series);
      out.printf(
          "  %-26s %9s %9s %9s %9s %9s  %s%n",
          "UTC range", "readings", "avg", "stddev", "min", "max", "read");
      line(queries, series, firstHour, firstHour.plus(Duration.ofHours(1)));
      line(
          queries,
          series,
          firstHour.plus(Duration.ofMinutes(30)),
          firstHour.plus(Duration.ofMinutes(90)));
    }
  }

  private void line(
      final SeriesQueries queries, final SeriesKey series, final Instant from, final Instant to) {
    final SeriesQueries.Statistics statistics =
        queries.statistics(series, from.toEpochMilli(), to.toEpochMilli(), LiveWindows.NONE);
    final boolean empty = statistics.count() == 0;
    out.printf(
        "  %-26s %,9d %9s %9s %9s %9s  %,d document%s instead of %,d readings%n",
        CLOCK.format(from) + " to " + CLOCK.format(to),
        statistics.count(),
        empty ? "-" : String.format("%.2f", statistics.average()),
        empty ? "-" : String.format("%.2f", statistics.standardDeviation()),
        empty ? "-" : String.format("%.2f", statistics.min()),
        empty ? "-" : String.format("%.2f", statistics.max()),
        statistics.documentsRead(),
        statistics.documentsRead() == 1 ? "" : "s",
        statistics.count());
  }

  /**
   * The coarsest granularity's first document of the series, as stored, with its summaries cut to
   * the first two: what the README's bucket document section shows.
   */
  private void printHourDocument(
      final MongoDatabase database,
      final String collectionPrefix,
      final List<Granularity> granularities,
      final SeriesKey series,
      final Instant firstHour) {
    final Granularity coarsest = granularities.get(granularities.size() - 1);
    final BsonDocument document =
        Mono.from(
                database
                    .getCollection(
                        BucketDocumentNames.collectionName(collectionPrefix, coarsest),
                        BsonDocument.class)
                    .find(
                        Filters.and(
                            Filters.eq(SENSOR_ID, series.sensorId()),
                            Filters.eq(METRIC, series.metric()),
                            Filters.eq(START_DATE, Date.from(firstHour)))))
            .block(TIMEOUT);
    if (document == null) {
      return;
    }
    String more = "";
    if (document.isArray(SUMMARIES) && document.getArray(SUMMARIES).size() > 2) {
      final BsonArray summaries = document.getArray(SUMMARIES);
      more =
          String.format(
              "  (%d more summaries, one per %s with readings, are left out here)%n",
              summaries.size() - 2, document.getString(SUMMARY_GRANULARITY).getValue());
      document.put(SUMMARIES, new BsonArray(summaries.subList(0, 2)));
    }
    out.printf(
        "%nIts %s document of %s, as stored in MongoDB:%n", coarsest, CLOCK.format(firstHour));
    out.println(
        document.toJson(
            JsonWriterSettings.builder().outputMode(JsonMode.RELAXED).indent(true).build()));
    out.print(more);
  }
}
