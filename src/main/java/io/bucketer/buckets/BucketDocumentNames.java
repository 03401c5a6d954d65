package io.bucketer.buckets;

/**
 * The names of the bucket documents in MongoDB, their collections and their fields: the contract
 * between the sink that writes them and everyone who reads them (the query API, the demo, a user's
 * own queries). docs/bucket-document.md shows one. Plain names, so that every package can use them
 * without the MongoDB driver.
 */
public final class BucketDocumentNames {

  /** Collection prefix used when none is configured. */
  public static final String DEFAULT_COLLECTION_PREFIX = "buckets_";

  // The _id: series, granularity, window start and the bucket's position among its window's.
  public static final String ID = "_id";
  public static final String ID_START = "start";
  public static final String SEQ = "seq";

  /**
   * The document's format, MongoDB's schema versioning pattern: an int, {@code 4} in documents
   * written now ({@code 3} where their counts of resends and late readings are unknown); documents
   * written before it existed lack it and are version 1 (see {@code docs/upgrades.md}).
   */
  public static final String SCHEMA_VERSION = "schema_version";

  // The bucket.
  public static final String SENSOR_ID = "sensor_id";
  public static final String METRIC = "metric";
  public static final String GRANULARITY = "granularity";
  public static final String START_DATE = "start_date";
  public static final String END_DATE = "end_date";
  public static final String BUCKETS = "buckets";
  public static final String REVISION = "revision";
  public static final String UTC_OFFSET_MINUTES = "utc_offset_minutes";
  public static final String WINDOW = "window";
  public static final String MEASUREMENTS = "measurements";
  public static final String SUMMARY_GRANULARITY = "summary_granularity";
  public static final String SUMMARIES = "summaries";

  // Computed fields: at the top of a document, in its window, and in each summary.
  public static final String COUNT = "count";
  public static final String SUM = "sum";
  public static final String AVG = "avg";
  public static final String MIN = "min";
  public static final String MAX = "max";
  public static final String FIRST_TIMESTAMP = "first_timestamp";
  public static final String FIRST_VALUE = "first_value";
  public static final String LAST_TIMESTAMP = "last_timestamp";
  public static final String LAST_VALUE = "last_value";
  public static final String STDDEV = "stddev";

  // The time-weighted part of a window, in its window and in each summary (schema_version 3):
  // covered time, the integral of the values over it (value·s), and the gaps.
  public static final String COVERED_MS = "covered_ms";
  public static final String INTEGRAL = "integral";
  public static final String GAPS = "gaps";
  public static final String LONGEST_GAP_MS = "longest_gap_ms";
  public static final String GAP_AT_START_MS = "gap_at_start_ms";
  public static final String GAP_AT_END_MS = "gap_at_end_ms";

  // Only in a document's window: what follows from the part, and what it was computed with.
  public static final String COVERAGE = "coverage";
  public static final String TWA = "twa";
  public static final String CARRY_IN = "carry_in";
  public static final String MAX_GAP_MS = "max_gap_ms";
  public static final String INTERPOLATION = "interpolation";

  // Only in a document's window (schema_version 4), when the metric has an expected.interval: the
  // configured interval, or the window's learned one (expected.interval=learned), and the readings
  // the window should have had, its length over the interval.
  public static final String EXPECTED_INTERVAL_MS = "expected_interval_ms";
  public static final String LEARNED_INTERVAL_MS = "learned_interval_ms";
  public static final String EXPECTED = "expected";

  // The quantile sketch of a window's values, in its window and in each summary: BSON binary,
  // subtype 0, the bytes of io.bucketer.sketch.ValueSketch (docs/quantiles.md).
  public static final String QUANTILE_SKETCH = "quantile_sketch";

  // How a window's readings arrived, in its window and in each summary (schema_version 4): the
  // readings collapsed onto a time the window held, and those that joined it after it closed;
  // absent when 0 (in a document of an earlier version they are unknown).
  public static final String RESENDS = "resends";
  public static final String LATE_READINGS = "late_readings";

  // A measurement (and the carried-in reading).
  public static final String TIMESTAMP = "timestamp";
  public static final String VALUE = "value";

  private BucketDocumentNames() {}

  /** One collection per granularity: {@code buckets_1m}, {@code buckets_1h}... */
  public static String collectionName(final String prefix, final Granularity granularity) {
    return prefix + granularity.label();
  }
}
