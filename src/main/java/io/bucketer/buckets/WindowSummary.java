package io.bucketer.buckets;

import io.bucketer.sketch.ValueSketch;

/**
 * The computed fields of one finer window inside a coarser bucket: an hour document holds one for
 * each of its minutes, so that a chart at minute resolution, or a range whose edges cut the hour,
 * reads the hour and not sixty minute documents (MongoDB's schema-design article, seed 004). Its
 * {@link TimeWeighted} part is the finer window's own, so the parts of an hour's minutes, and the
 * bridges over its minutes without readings, add up to the hour's; its quantile sketch is the finer
 * window's own too, and the sketches of the hour's minutes merge into the hour's; so is its {@link
 * WindowQuality}, and the hour's is the sum of its minutes'. Each is null when unknown.
 */
public record WindowSummary(
    Granularity granularity,
    long start,
    BucketStats stats,
    TimeWeighted timeWeighted,
    ValueSketch sketch,
    WindowQuality quality) {

  /** A summary without its quality: one written before it was kept. */
  public WindowSummary(
      final Granularity granularity,
      final long start,
      final BucketStats stats,
      final TimeWeighted timeWeighted,
      final ValueSketch sketch) {
    this(granularity, start, stats, timeWeighted, sketch, null);
  }

  /**
   * A summary without its time-weighted part or sketch: one written before they were kept (absent
   * means unknown).
   */
  public WindowSummary(final Granularity granularity, final long start, final BucketStats stats) {
    this(granularity, start, stats, null, null, null);
  }

  /** A summary without a quantile sketch: quantiles off, or one written before they were kept. */
  public WindowSummary(
      final Granularity granularity,
      final long start,
      final BucketStats stats,
      final TimeWeighted timeWeighted) {
    this(granularity, start, stats, timeWeighted, null, null);
  }

  public long end() {
    return granularity.windowEnd(start);
  }

  /** The encoded bytes of the sketch, 0 when there is none: what it adds to its document. */
  public int sketchBytes() {
    return sketch == null ? 0 : sketch.encodedLength();
  }
}
