package io.bucketer.cli;

import com.mongodb.reactivestreams.client.MongoClient;
import com.mongodb.reactivestreams.client.MongoClients;
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
import java.util.List;

/**
 * The demo's read-back: statistics of one series over an hour on the hour and over an hour that
 * cuts two, through the query API's own read path, with the documents each one read: the point of
 * the bucket pattern, shown on the data just written.
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
      out.printf("%nReading it back: %s, as the query API reads it%n", series);
      out.printf(
          "  %-26s %9s %9s %9s %9s  %s%n", "UTC range", "readings", "avg", "min", "max", "read");
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
        "  %-26s %,9d %9s %9s %9s  %,d document%s instead of %,d readings%n",
        CLOCK.format(from) + " to " + CLOCK.format(to),
        statistics.count(),
        empty ? "-" : String.format("%.2f", statistics.average()),
        empty ? "-" : String.format("%.2f", statistics.min()),
        empty ? "-" : String.format("%.2f", statistics.max()),
        statistics.documentsRead(),
        statistics.documentsRead() == 1 ? "" : "s",
        statistics.count());
  }
}
