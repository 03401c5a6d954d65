package io.bucketer.bench;

/**
 * What the processor's collector did since it started, from its own meters (Micrometer's JVM GC
 * binder): bytes allocated in the young generation and promoted to the old, and the young and full
 * collections with their pauses. The full collections the benchmark asks for itself ({@code jcmd
 * GC.run}, cause "Diagnostic Command") to read the live heap are left out: they are the
 * measurement's, not the processor's.
 *
 * <p>Promoted bytes per reading are what makes the full collections: at a live fleet a window's
 * state lives about as long as a series' interval, which is longer than the time between two young
 * collections, so what a reading leaves behind is copied to the old generation, fills it, and is
 * collected there at the cost of marking the whole live heap. They move less with the machine's
 * load than CPU time does.
 */
record GcCounts(
    double allocatedBytes,
    double promotedBytes,
    double youngCollections,
    double youngPauseSeconds,
    double fullCollections,
    double fullPauseSeconds) {

  private static final String PAUSE = "jvm_gc_pause_seconds";
  private static final String MINOR = "action=\"end of minor GC\"";
  private static final String MAJOR = "action=\"end of major GC\"";
  private static final String ASKED_FOR = "cause=\"Diagnostic Command\"";

  static GcCounts from(final PrometheusText scrape) {
    return new GcCounts(
        scrape.sum("jvm_gc_memory_allocated_bytes_total"),
        scrape.sum("jvm_gc_memory_promoted_bytes_total"),
        scrape.sum(PAUSE + "_count", MINOR),
        scrape.sum(PAUSE + "_sum", MINOR),
        scrape.sum(PAUSE + "_count", MAJOR) - scrape.sum(PAUSE + "_count", MAJOR, ASKED_FOR),
        scrape.sum(PAUSE + "_sum", MAJOR) - scrape.sum(PAUSE + "_sum", MAJOR, ASKED_FOR));
  }

  /** What happened between {@code earlier} and this. */
  GcCounts since(final GcCounts earlier) {
    return new GcCounts(
        allocatedBytes - earlier.allocatedBytes,
        promotedBytes - earlier.promotedBytes,
        youngCollections - earlier.youngCollections,
        youngPauseSeconds - earlier.youngPauseSeconds,
        fullCollections - earlier.fullCollections,
        fullPauseSeconds - earlier.fullPauseSeconds);
  }

  /**
   * One line for {@code readings} processed: bytes allocated and promoted per 1,000, collections
   * and their pauses per million.
   */
  String describe(final long readings) {
    final double thousands = Math.max(1, readings) / 1_000.0;
    final double millions = thousands / 1_000.0;
    return String.format(
        "%.1f MiB allocated and %.0f KiB promoted per 1,000 readings; per 1,000,000 readings"
            + " %.0f young collections (%,.0f ms paused) and %.1f full ones (%,.0f ms), those the"
            + " heap samples ask for aside",
        allocatedBytes / thousands / (1024.0 * 1024.0),
        promotedBytes / thousands / 1024.0,
        youngCollections / millions,
        youngPauseSeconds * 1000 / millions,
        fullCollections / millions,
        fullPauseSeconds * 1000 / millions);
  }
}
