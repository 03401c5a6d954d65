package io.bucketer.cli;

import static io.bucketer.buckets.BucketDocumentNames.SUMMARIES;
import static io.bucketer.buckets.BucketDocumentNames.SUMMARY_GRANULARITY;

import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.SeriesKey;
import io.bucketer.query.LiveWindows;
import io.bucketer.query.SeriesQueries;
import io.bucketer.query.StoredDocuments;
import io.bucketer.sketch.ValueSketch;
import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.OptionalDouble;
import org.bson.BsonArray;
import org.bson.BsonDocument;
import org.bson.json.JsonMode;
import org.bson.json.JsonWriterSettings;

/**
 * The demo's read-back: the series' first hour document, which holds the summaries of its minutes,
 * and statistics of the series over an hour on the hour and over an hour that cuts two, through the
 * query API's own read path (the p95 from the merged quantile sketches), with the documents each
 * one read: the point of the bucket pattern, shown on the data just written.
 */
final class DemoReadBack {

  private static final DateTimeFormatter CLOCK =
      DateTimeFormatter.ofPattern("HH:mm").withZone(ZoneOffset.UTC);

  private final PrintStream out;

  DemoReadBack(final PrintStream out) {
    this.out = out;
  }

  void print(
      final StoredDocuments store,
      final List<Granularity> granularities,
      final SeriesKey series,
      final Instant firstHour) {
    final SeriesQueries queries = new SeriesQueries(store.buckets(granularities));
    printHourDocument(store, granularities, series, firstHour);
    out.printf("%nReading it back: %s, as the query API reads it%n", series);
    out.printf(
        "  %-26s %9s %9s %9s %9s %9s %9s %9s %9s  %s%n",
        "UTC range", "readings", "avg", "twa", "p95", "stddev", "min", "max", "coverage", "read");
    line(queries, series, firstHour, firstHour.plus(Duration.ofHours(1)));
    line(
        queries,
        series,
        firstHour.plus(Duration.ofMinutes(30)),
        firstHour.plus(Duration.ofMinutes(90)));
  }

  private void line(
      final SeriesQueries queries, final SeriesKey series, final Instant from, final Instant to) {
    final SeriesQueries.Statistics statistics =
        queries.statistics(series, from.toEpochMilli(), to.toEpochMilli(), LiveWindows.NONE);
    final boolean empty = statistics.count() == 0;
    final double twa = statistics.timeWeight().twa();
    final double coverage = statistics.timeWeight().coverage();
    final ValueSketch sketch = statistics.sketch().sketch();
    final OptionalDouble p95 = sketch == null ? OptionalDouble.empty() : sketch.quantile(0.95);
    out.printf(
        "  %-26s %,9d %9s %9s %9s %9s %9s %9s %9s  %,d document%s instead of %,d readings%n",
        CLOCK.format(from) + " to " + CLOCK.format(to),
        statistics.count(),
        empty ? "-" : String.format("%.2f", statistics.average()),
        Double.isNaN(twa) ? "-" : String.format("%.2f", twa),
        p95.isEmpty() ? "-" : String.format("%.2f", p95.getAsDouble()),
        empty ? "-" : String.format("%.2f", statistics.standardDeviation()),
        empty ? "-" : String.format("%.2f", statistics.min()),
        empty ? "-" : String.format("%.2f", statistics.max()),
        Double.isNaN(coverage) ? "-" : String.format("%.1f%%", 100 * coverage),
        statistics.documentsRead(),
        statistics.documentsRead() == 1 ? "" : "s",
        statistics.count());
  }

  /**
   * The coarsest granularity's first document of the series, as stored, with its summaries cut to
   * the first two: what the README's bucket document section shows.
   */
  private void printHourDocument(
      final StoredDocuments store,
      final List<Granularity> granularities,
      final SeriesKey series,
      final Instant firstHour) {
    final Granularity coarsest = granularities.get(granularities.size() - 1);
    final BsonDocument document = store.first(series, coarsest, firstHour).orElse(null);
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
