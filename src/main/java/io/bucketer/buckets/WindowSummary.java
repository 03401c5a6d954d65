package io.bucketer.buckets;

/**
 * The computed fields of one finer window inside a coarser bucket: an hour document holds one for
 * each of its minutes, so that a chart at minute resolution, or a range whose edges cut the hour,
 * reads the hour and not sixty minute documents (MongoDB's schema-design article, seed 004).
 */
public record WindowSummary(Granularity granularity, long start, BucketStats stats) {

  public long end() {
    return granularity.windowEnd(start);
  }
}
