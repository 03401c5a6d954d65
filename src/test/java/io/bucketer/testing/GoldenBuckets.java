package io.bucketer.testing;

import io.bucketer.buckets.BucketStats;
import io.bucketer.buckets.ClosedBucket;
import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.Measurement;
import io.bucketer.buckets.SeriesKey;
import io.bucketer.buckets.TimeWeighted;
import io.bucketer.buckets.TimeWeighting;
import io.bucketer.buckets.WindowExtras;
import io.bucketer.buckets.WindowQuality;
import io.bucketer.buckets.WindowSummary;
import io.bucketer.sketch.ValueSketch;
import java.util.HexFormat;
import java.util.List;

/**
 * The closed buckets of the golden files ({@link GoldenFiles}): a bucket of each granularity, and a
 * part of a window written as two buckets. Every value is written out, none computed, so that the
 * golden tests compare decoded files with values that no encoder or merge produced. The numbers are
 * those of real readings (means and spreads agree with them) with a few chosen to exercise a
 * layout: a negative and an absent UTC offset, an absent metric, a revision above 0.
 */
public final class GoldenBuckets {

  public static final Granularity MINUTE = new Granularity("1m", 60_000);
  public static final Granularity HOUR = new Granularity("1h", 3_600_000);
  public static final Granularity DAY = new Granularity("1d", 86_400_000);

  /** 2023-11-14T22:14:00Z. */
  public static final long T0 = 1_700_000_040_000L;

  /** 2023-11-14T22:00:00Z, the hour of {@link #T0}. */
  public static final long H0 = 1_699_999_200_000L;

  /** 2023-11-14T00:00:00Z, the day of {@link #T0}. */
  public static final long D0 = 1_699_920_000_000L;

  /** Readings 21.5, 22.0 and 21.75 a second apart from T0, UTC+1. */
  public static final BucketStats MINUTE_STATS =
      new BucketStats(
          3,
          65.25,
          21.5,
          22.0,
          new Measurement(T0, 21.5),
          new Measurement(T0 + 2_000, 21.75),
          21.5,
          0.25,
          0.125,
          60);

  /** The minute 1m of sensor-1's temperature at T0: measurements, UTC+1. */
  public static final ClosedBucket MINUTE_BUCKET =
      new ClosedBucket(
          new SeriesKey("sensor-1", "temperature"),
          MINUTE,
          T0,
          MINUTE_STATS,
          List.of(
              new Measurement(T0, 21.5),
              new Measurement(T0 + 1_000, 22.0),
              new Measurement(T0 + 2_000, 21.75)),
          List.of(),
          MINUTE_STATS,
          0,
          1,
          0);

  /** Readings 20.0 and 21.0 in the minute before T0, UTC+1. */
  private static final BucketStats MINUTE_BEFORE_STATS =
      new BucketStats(
          2,
          41.0,
          20.0,
          21.0,
          new Measurement(T0 - 60_000, 20.0),
          new Measurement(T0 - 59_000, 21.0),
          20.0,
          0.5,
          0.5,
          60);

  private static final BucketStats HOUR_STATS =
      new BucketStats(
          5,
          106.25,
          20.0,
          22.0,
          new Measurement(T0 - 60_000, 20.0),
          new Measurement(T0 + 2_000, 21.75),
          20.0,
          1.25,
          2.5,
          60);

  /** The hour of sensor-1's temperature at H0, as summaries of its two minutes; revision 1. */
  public static final ClosedBucket HOUR_BUCKET =
      new ClosedBucket(
          new SeriesKey("sensor-1", "temperature"),
          HOUR,
          H0,
          HOUR_STATS,
          List.of(),
          List.of(
              new WindowSummary(MINUTE, T0 - 60_000, MINUTE_BEFORE_STATS),
              new WindowSummary(MINUTE, T0, MINUTE_STATS)),
          HOUR_STATS,
          0,
          1,
          1);

  private static final BucketStats DAY_STATS =
      new BucketStats(
          6,
          125.75,
          19.5,
          22.0,
          new Measurement(H0 - 3_000_000, 19.5),
          new Measurement(T0 + 2_000, 21.75),
          19.5,
          1.4583333333333333,
          5.052083333333333,
          null);

  /** The day of sensor-2 (no metric, no UTC offset) at D0, as summaries of its two hours. */
  public static final ClosedBucket DAY_BUCKET =
      new ClosedBucket(
          new SeriesKey("sensor-2", null),
          DAY,
          D0,
          DAY_STATS,
          List.of(),
          List.of(
              new WindowSummary(
                  HOUR,
                  H0 - 3_600_000,
                  new BucketStats(
                      1,
                      19.5,
                      19.5,
                      19.5,
                      new Measurement(H0 - 3_000_000, 19.5),
                      new Measurement(H0 - 3_000_000, 19.5),
                      19.5,
                      0,
                      0,
                      null)),
              new WindowSummary(
                  HOUR,
                  H0,
                  new BucketStats(
                      5,
                      106.25,
                      20.0,
                      22.0,
                      new Measurement(T0 - 60_000, 20.0),
                      new Measurement(T0 + 2_000, 21.75),
                      20.0,
                      1.25,
                      2.5,
                      null))),
          DAY_STATS,
          0,
          1,
          0);

  /**
   * The second of two buckets of sensor-3's power in the minute T0 (UTC-5): its own two
   * measurements and stats, and the whole window's four readings' totals.
   */
  public static final ClosedBucket MINUTE_PART_BUCKET =
      new ClosedBucket(
          new SeriesKey("sensor-3", "power"),
          MINUTE,
          T0,
          new BucketStats(
              2,
              3020.5,
              1500.0,
              1520.5,
              new Measurement(T0 + 30_000, 1500.0),
              new Measurement(T0 + 45_000, 1520.5),
              1500.0,
              10.25,
              210.125,
              -300),
          List.of(new Measurement(T0 + 30_000, 1500.0), new Measurement(T0 + 45_000, 1520.5)),
          List.of(),
          new BucketStats(
              4,
              5990.5,
              1480.0,
              1520.5,
              new Measurement(T0, 1490.0),
              new Measurement(T0 + 45_000, 1520.5),
              1490.0,
              7.625,
              897.6875,
              -300),
          1,
          2,
          0);

  /** The max gap of the format 3 buckets but the power's: the default, five minutes. */
  public static final TimeWeighting FIVE_MINUTES = new TimeWeighting(300_000);

  /**
   * {@link #MINUTE_BUCKET} as format 3 writes it: the minute's readings held to its end, the last
   * reading of the minute before carried in (its hold ends at T0, where the next reading is).
   */
  public static final ClosedBucket MINUTE_BUCKET_V3 =
      MINUTE_BUCKET.withExtras(
          new WindowExtras(
              new TimeWeighted(60_000, 21.5 * 1_000 + 22.0 * 1_000 + 21.75 * 58_000, 0, 0, 0, 0),
              new Measurement(T0 - 59_000, 21.0),
              FIVE_MINUTES));

  /**
   * {@link #HOUR_BUCKET} as format 3 writes it: 13 minutes of gap, the two minutes, the last
   * reading held five minutes into the quiet rest of the hour.
   */
  public static final ClosedBucket HOUR_BUCKET_V3 =
      new ClosedBucket(
          HOUR_BUCKET.series(),
          HOUR,
          H0,
          HOUR_BUCKET.stats(),
          List.of(),
          List.of(
              new WindowSummary(
                  MINUTE,
                  T0 - 60_000,
                  MINUTE_BEFORE_STATS,
                  new TimeWeighted(60_000, 1_259_000, 0, 0, 0, 0)),
              new WindowSummary(
                  MINUTE, T0, MINUTE_STATS, new TimeWeighted(60_000, 1_305_000, 0, 0, 0, 0))),
          HOUR_BUCKET.window(),
          0,
          1,
          1,
          new WindowExtras(
              new TimeWeighted(362_000, 7_827_500, 2, 2_458_000, 780_000, 2_458_000),
              null,
              FIVE_MINUTES));

  /**
   * {@link #MINUTE_PART_BUCKET} as format 3 writes it: readings at 0, 15, 30 and 45 s, the power's
   * own max gap of 15 minutes, nothing carried in; the whole window's part on this second bucket.
   */
  public static final ClosedBucket MINUTE_PART_BUCKET_V3 =
      MINUTE_PART_BUCKET.withExtras(
          new WindowExtras(
              new TimeWeighted(60_000, 89_857_500, 0, 0, 0, 0), null, new TimeWeighting(900_000)));

  /**
   * The quantile sketch (α 1 %) of {@link #MINUTE_BUCKET}'s readings 21.5, 22.0 and 21.75, as its
   * bytes; {@code GoldenTopicFormatsTest} checks that they are the sketch of those readings.
   */
  public static final ValueSketch MINUTE_SKETCH = sketch("0101904e0502b202030202");

  /** The quantile sketch (α 1 %) of the minute before {@link #T0}: 20.0 and 21.0. */
  public static final ValueSketch MINUTE_BEFORE_SKETCH = sketch("0101904e0502aa02020602");

  /** The quantile sketch of the hour {@link #H0}: its minutes' merged, 20.0 to 22.0. */
  public static final ValueSketch HOUR_SKETCH = sketch("0101904e0504aa0202060202030202");

  /** The quantile sketch (α 1 %) of the power's readings 1490.0, 1480.0, 1500.0 and 1520.5. */
  public static final ValueSketch MINUTE_PART_SKETCH = sketch("0101904e0d03d80502020302");

  /** {@link #MINUTE_BUCKET_V3} as format 4 writes it: with the sketch of its readings. */
  public static final ClosedBucket MINUTE_BUCKET_V4 = withSketch(MINUTE_BUCKET_V3, MINUTE_SKETCH);

  /** {@link #HOUR_BUCKET_V3} as format 4 writes it: each minute's sketch, and the hour's. */
  public static final ClosedBucket HOUR_BUCKET_V4 =
      new ClosedBucket(
          HOUR_BUCKET.series(),
          HOUR,
          H0,
          HOUR_BUCKET.stats(),
          List.of(),
          List.of(
              new WindowSummary(
                  MINUTE,
                  T0 - 60_000,
                  MINUTE_BEFORE_STATS,
                  new TimeWeighted(60_000, 1_259_000, 0, 0, 0, 0),
                  MINUTE_BEFORE_SKETCH),
              new WindowSummary(
                  MINUTE,
                  T0,
                  MINUTE_STATS,
                  new TimeWeighted(60_000, 1_305_000, 0, 0, 0, 0),
                  MINUTE_SKETCH)),
          HOUR_BUCKET.window(),
          0,
          1,
          1,
          new WindowExtras(
              new TimeWeighted(362_000, 7_827_500, 2, 2_458_000, 780_000, 2_458_000),
              null,
              FIVE_MINUTES,
              HOUR_SKETCH));

  /** {@link #MINUTE_PART_BUCKET_V3} as format 4 writes it: the whole window's sketch. */
  public static final ClosedBucket MINUTE_PART_BUCKET_V4 =
      withSketch(MINUTE_PART_BUCKET_V3, MINUTE_PART_SKETCH);

  /**
   * {@link #MINUTE_BUCKET_V4} as format 5 writes it: one reading was resent (collapsed onto a time
   * the minute held), none came late; the metric is expected every second.
   */
  public static final ClosedBucket MINUTE_BUCKET_V5 =
      withQuality(MINUTE_BUCKET_V4, new WindowQuality(1, 0), 1_000L);

  /**
   * {@link #HOUR_BUCKET_V4} as format 5 writes it: the minute before T0 took a late reading (the
   * hour's revision 1), the minute T0 had a resend, and the hour counts both; expected every
   * second.
   */
  public static final ClosedBucket HOUR_BUCKET_V5 =
      new ClosedBucket(
          HOUR_BUCKET.series(),
          HOUR,
          H0,
          HOUR_BUCKET.stats(),
          List.of(),
          List.of(
              withQuality(HOUR_BUCKET_V4.summaries().get(0), new WindowQuality(0, 1)),
              withQuality(HOUR_BUCKET_V4.summaries().get(1), new WindowQuality(1, 0))),
          HOUR_BUCKET.window(),
          0,
          1,
          1,
          quality(HOUR_BUCKET_V4.extras(), new WindowQuality(1, 1), 1_000L));

  /**
   * {@link #MINUTE_PART_BUCKET_V4} as format 5 writes it: nothing resent or late (known, not
   * unknown), and no interval expected.
   */
  public static final ClosedBucket MINUTE_PART_BUCKET_V5 =
      withQuality(MINUTE_PART_BUCKET_V4, WindowQuality.NONE, null);

  /**
   * {@link #MINUTE_BUCKET_V4} as format 5 writes it for a metric whose interval is learned: its
   * readings at 22:14:00, :01 and :02, after the one carried in from 22:13:01, are 59 s, 1 s and 1
   * s apart, so it learns 1 s; nothing resent or late.
   */
  public static final ClosedBucket MINUTE_LEARNED_BUCKET_V5 =
      MINUTE_BUCKET_V4.withExtras(
          new WindowExtras(
              MINUTE_BUCKET_V4.extras().timeWeighted(),
              MINUTE_BUCKET_V4.extras().carryIn(),
              MINUTE_BUCKET_V4.extras().weighting(),
              MINUTE_BUCKET_V4.extras().sketch(),
              WindowQuality.NONE,
              null,
              1_000L));

  private GoldenBuckets() {}

  private static ValueSketch sketch(final String hex) {
    return ValueSketch.decode(HexFormat.of().parseHex(hex));
  }

  private static ClosedBucket withQuality(
      final ClosedBucket bucket, final WindowQuality quality, final Long expectedIntervalMillis) {
    return bucket.withExtras(quality(bucket.extras(), quality, expectedIntervalMillis));
  }

  private static WindowExtras quality(
      final WindowExtras extras, final WindowQuality quality, final Long expectedIntervalMillis) {
    return new WindowExtras(
        extras.timeWeighted(),
        extras.carryIn(),
        extras.weighting(),
        extras.sketch(),
        quality,
        expectedIntervalMillis);
  }

  private static WindowSummary withQuality(
      final WindowSummary summary, final WindowQuality quality) {
    return new WindowSummary(
        summary.granularity(),
        summary.start(),
        summary.stats(),
        summary.timeWeighted(),
        summary.sketch(),
        quality);
  }

  private static ClosedBucket withSketch(final ClosedBucket bucket, final ValueSketch sketch) {
    final WindowExtras extras = bucket.extras();
    return bucket.withExtras(
        new WindowExtras(extras.timeWeighted(), extras.carryIn(), extras.weighting(), sketch));
  }
}
