package io.bucketer.bench;

import java.io.PrintStream;
import java.util.List;
import java.util.Locale;

/**
 * What {@code bench latency} measured: the capacity the shares were taken of, and per offered rate
 * the rates achieved and the close-to-visible latency of the windows that closed in the measured
 * part.
 *
 * @param capacity readings a second, or NaN when every rate was given as a number
 * @param capacitySource how the capacity was found: given, or measured and how
 */
public record LatencyResults(double capacity, String capacitySource, List<AtRate> rates) {

  public LatencyResults {
    rates = List.copyOf(rates);
  }

  /**
   * One offered rate, over its measured part ({@code seconds} long, {@code closes} closes of the
   * finest windows). Latencies in milliseconds are the upper bounds of the processor's histogram
   * buckets that hold them: at least that share of the buckets was visible within that time;
   * infinite beyond the histogram's last bound.
   *
   * @param offered readings a second the schedule sends (sensors / interval)
   * @param produced readings a second the broker acknowledged to the producer
   * @param consumed readings a second the processor counted
   * @param buckets bucket documents whose close-to-visible latency was recorded
   * @param standInDocuments documents the MongoDB stand-in wrote
   * @param standInWriteSeconds time the sink waited for the stand-in's acknowledgements
   */
  public record AtRate(
      String label,
      int sensors,
      long intervalMillis,
      double offered,
      double produced,
      double consumed,
      double seconds,
      int closes,
      long buckets,
      double p50Millis,
      double p99Millis,
      double maxMillis,
      long standInDocuments,
      double standInWriteSeconds) {

    /** Documents one close writes at once (about one per series). */
    public double documentsPerClose() {
      return closes == 0 ? 0 : (double) standInDocuments / closes;
    }

    /** The stand-in's document write rate while it writes bucketer's documents. */
    public double standInDocumentsPerSecond() {
      return standInWriteSeconds == 0 ? 0 : standInDocuments / standInWriteSeconds;
    }

    /** How long the stand-in takes to write one close's documents, at its measured rate. */
    public double standInSecondsPerClose() {
      return closes == 0 ? 0 : standInWriteSeconds / closes;
    }

    /**
     * The stand-in's write rate bounds the latency when writing one close's documents takes it
     * longer than the median bucket waits: most of the wait is then the stand-in's.
     */
    public boolean boundByStandIn() {
      return standInSecondsPerClose() * 1000 > p50Millis;
    }
  }

  /** The table, one rate a row, and under it what bounds each rate. */
  public void print(final PrintStream out) {
    out.println();
    out.println("close -> visible at a fixed offered load (readings produced in real time)");
    out.printf("capacity: %s%n", capacitySource);
    out.printf(
        "%-9s %10s %10s %10s %8s %9s %9s %9s %9s%n",
        "rate",
        "offered/s",
        "produced/s",
        "consumed/s",
        "closes",
        "buckets",
        "p50 <=",
        "p99 <=",
        "max <=");
    for (final AtRate rate : rates) {
      out.printf(
          "%-9s %,10.0f %,10.0f %,10.0f %8d %,9d %9s %9s %9s%n",
          rate.label(),
          rate.offered(),
          rate.produced(),
          rate.consumed(),
          rate.closes(),
          rate.buckets(),
          millis(rate.p50Millis()),
          millis(rate.p99Millis()),
          millis(rate.maxMillis()));
    }
    out.println(
        "latencies: from a window's close to MongoDB's acknowledgement of its bucket"
            + " (bucketer.bucket.close.to.visible), the upper bound of the histogram bucket that"
            + " holds them");
    for (final AtRate rate : rates) {
      out.printf(
          Locale.ROOT,
          "%s: %s by the MongoDB stand-in: %,.0f documents per minute close at %,.0f"
              + " documents/s = %s%s%n",
          rate.label(),
          rate.boundByStandIn() ? "bound" : "not bound",
          rate.documentsPerClose(),
          rate.standInDocumentsPerSecond(),
          (rate.boundByStandIn() ? "at least " : "")
              + String.format(Locale.ROOT, "%.2f s", rate.standInSecondsPerClose()),
          rate.boundByStandIn() ? "" : ", less than p50");
    }
  }

  private static String millis(final double millis) {
    if (Double.isNaN(millis)) {
      return "-";
    }
    return Double.isInfinite(millis) ? "> last" : String.format(Locale.ROOT, "%,.0f ms", millis);
  }
}
