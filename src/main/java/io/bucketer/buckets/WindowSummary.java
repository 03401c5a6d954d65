package io.bucketer.buckets;

/**
 * The computed fields of one finer window inside a coarser bucket: an hour document holds one for
 * each of its minutes, so that a chart at minute resolution, or a range whose edges cut the hour,
 * reads the hour and not sixty minute documents (MongoDB's schema-design article, seed 004). Its
 * {@link TimeWeighted} part is the finer window's own, so the parts of an hour's minutes, and the
 * bridges over its minutes without readings, add up to the hour's; null when unknown.
 */
public record WindowSummary(
    Granularity granularity, long start, BucketStats stats, TimeWeighted timeWeighted) {

  /**
   * A summary without its time-weighted part: one written before it was kept (absent means
   * unknown).
   */
  public WindowSummary(final Granularity granularity, final long start, final BucketStats stats) {
    this(granularity, start, stats, null);
  }

  public long end() {
    return granularity.windowEnd(start);
  }
}
