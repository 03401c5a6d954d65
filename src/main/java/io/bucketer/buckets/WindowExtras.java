package io.bucketer.buckets;

import io.bucketer.sketch.ValueSketch;

/**
 * What a window's documents say of it beyond the computed fields of its readings: the part of the
 * series' time-weighted function that falls in the window ({@link TimeWeighted}), the reading
 * before the window that it carries in, what they were computed with, and the quantile sketch of
 * the window's values. The same on every {@code seq} part of a window: a part of a window's
 * readings has no time-weighted average or quantiles of its own.
 *
 * @param timeWeighted the window's part; null when unknown (a backfill, which rolls windows up from
 *     stored ones, does not build it), and then so are the next two
 * @param carryIn the series' last reading before the window, when it is less than the max gap
 *     before the window's start (its hold reaches into the window, or ends on its start when a
 *     reading falls there); else null
 * @param weighting the max gap and interpolation it was computed with
 * @param sketch the quantile sketch of all the window's values; null when quantiles are off
 * @param quality how the window's readings arrived; null when unknown (a bucket written before it
 *     was kept)
 * @param expectedIntervalMillis the metric's configured interval between readings ({@code
 *     expected.interval}), against which its readings are counted; null when none is configured
 * @param learnedIntervalMillis the window's own typical interval ({@link LearnedInterval}), for a
 *     metric whose interval is {@code learned}; null otherwise, or when the window cannot tell (one
 *     reading, none carried in)
 */
public record WindowExtras(
    TimeWeighted timeWeighted,
    Measurement carryIn,
    TimeWeighting weighting,
    ValueSketch sketch,
    WindowQuality quality,
    Long expectedIntervalMillis,
    Long learnedIntervalMillis) {

  public WindowExtras {
    if (timeWeighted != null && weighting == null) {
      throw new IllegalArgumentException("a time-weighted part without its weighting");
    }
    if (timeWeighted == null && (carryIn != null || weighting != null)) {
      throw new IllegalArgumentException("a carried-in reading or weighting without a part");
    }
    if (expectedIntervalMillis != null && expectedIntervalMillis <= 0) {
      throw new IllegalArgumentException(
          "expected interval must be positive: " + expectedIntervalMillis + " ms");
    }
    if (learnedIntervalMillis != null && expectedIntervalMillis != null) {
      throw new IllegalArgumentException("an interval both configured and learned");
    }
    if (learnedIntervalMillis != null && learnedIntervalMillis <= 0) {
      throw new IllegalArgumentException(
          "a learned interval must be positive: " + learnedIntervalMillis + " ms");
    }
  }

  /** Extras of a window whose interval, if any, is configured, not learned. */
  public WindowExtras(
      final TimeWeighted timeWeighted,
      final Measurement carryIn,
      final TimeWeighting weighting,
      final ValueSketch sketch,
      final WindowQuality quality,
      final Long expectedIntervalMillis) {
    this(timeWeighted, carryIn, weighting, sketch, quality, expectedIntervalMillis, null);
  }

  /**
   * The interval the window's expected readings are counted at: the configured one, else the
   * learned one; null for none.
   */
  public Long intervalMillis() {
    return expectedIntervalMillis != null ? expectedIntervalMillis : learnedIntervalMillis;
  }

  /**
   * Extras without the window's quality or expected interval: a bucket written before they were
   * kept.
   */
  public WindowExtras(
      final TimeWeighted timeWeighted,
      final Measurement carryIn,
      final TimeWeighting weighting,
      final ValueSketch sketch) {
    this(timeWeighted, carryIn, weighting, sketch, null, null);
  }

  /** A window's sketch alone: what a backfill knows of a window beyond its computed fields. */
  public static WindowExtras ofSketch(final ValueSketch sketch) {
    return new WindowExtras(null, null, null, sketch, null, null);
  }

  /** Extras without a quantile sketch: quantiles off, or a bucket written before they were kept. */
  public WindowExtras(
      final TimeWeighted timeWeighted, final Measurement carryIn, final TimeWeighting weighting) {
    this(timeWeighted, carryIn, weighting, null, null, null);
  }

  /** The encoded bytes of the sketch, 0 when there is none: what it adds to each document. */
  public int sketchBytes() {
    return sketch == null ? 0 : sketch.encodedLength();
  }
}
