package io.bucketer.cli;

import io.bucketer.buckets.Granularity;
import io.bucketer.query.StoredDocuments;
import java.io.PrintStream;
import java.util.List;
import org.bson.json.JsonMode;
import org.bson.json.JsonWriterSettings;

/** The demo's closing report: one bucket document, and MongoDB's counts against what was sent. */
final class DemoSummary {

  private final PrintStream out;
  private final StoredDocuments store;
  private final List<Granularity> granularities;

  DemoSummary(
      final PrintStream out, final StoredDocuments store, final List<Granularity> granularities) {
    this.out = out;
    this.store = store;
    this.granularities = granularities;
  }

  void print(final long readingsSent) {
    final Granularity finest = granularities.get(0);
    store
        .fullest(finest)
        .ifPresent(
            document -> {
              out.printf("%nOne %s bucket document, as stored in MongoDB:%n", finest);
              out.println(
                  document.toJson(
                      JsonWriterSettings.builder()
                          .indent(true)
                          .outputMode(JsonMode.RELAXED)
                          .build()));
            });
    out.printf(
        "%n%-12s %10s %20s %18s  %s%n",
        "granularity", "documents", "readings in buckets", "readings sent", "check");
    for (final Granularity granularity : granularities) {
      final long stored = store.readingsInBuckets(granularity);
      out.printf(
          "%-12s %,10d %,20d %,18d  %s%n",
          granularity,
          store.documents(granularity),
          stored,
          readingsSent,
          stored == readingsSent ? "ok" : "MISMATCH");
    }
    out.println(
        countsMatch(readingsSent)
            ? "\nOK: every reading is in exactly one bucket of each granularity."
            : "\nFAILED: MongoDB's counts do not add up to the readings sent.");
  }

  boolean countsMatch(final long readingsSent) {
    return granularities.stream().allMatch(g -> store.readingsInBuckets(g) == readingsSent);
  }
}
