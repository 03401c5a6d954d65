package io.bucketer.buckets;

/**
 * How many measurements one bucket document may hold. MongoDB's own time-series buckets close at
 * 1000 measurements or about 125 KiB; the same caps keep every document far from the 16 MiB
 * document limit and keep a bucket cheap to rewrite when a late reading changes it.
 */
public final class BucketLimits {

  /**
   * Upper bound of the BSON bytes one measurement adds to a document: the array index key, an
   * embedded document of {@code timestamp} (date) and {@code value} (double). A test checks it
   * against real encoded documents, with six-digit array indexes.
   */
  public static final int MAX_BSON_BYTES_PER_MEASUREMENT = 48;

  /**
   * Upper bound of the BSON bytes one summary of a finer window adds to a document: the array index
   * key and an embedded document of its start, computed fields, time-weighted part and counts of
   * resends and late readings (about 200 bytes, 120 and 40 more). A test checks it as above.
   */
  public static final int MAX_BSON_BYTES_PER_SUMMARY = 384;

  /**
   * Room kept for the document's other fields: ids, dates, computed fields, the window's
   * time-weighted part, counts and expected readings, and up to {@link #SKETCH_BYTES_IN_OVERHEAD}
   * bytes of its quantile sketch.
   */
  public static final int DOCUMENT_OVERHEAD_BYTES = 2048;

  /**
   * The bytes of a window's quantile sketch the document overhead has room for (a minute of a few
   * hundred readings takes tens of bytes); a larger sketch takes room from the measurements or
   * summaries.
   */
  public static final int SKETCH_BYTES_IN_OVERHEAD = 1024;

  /**
   * BSON bytes of a sketch field beyond the sketch's own: type, the name {@code quantile_sketch}
   * and its terminator, the binary's length and subtype.
   */
  public static final int SKETCH_FIELD_BYTES = 1 + 16 + 4 + 1;

  /** {@code bucket.max.bytes} when it is not set: MongoDB's own buckets stop near 125 KiB. */
  public static final int DEFAULT_MAX_BYTES = 128_000;

  private BucketLimits() {}

  /** Measurements per bucket under both caps; at least one. */
  public static int measurementsPerBucket(final int maxMeasurements, final int maxBytes) {
    final int byBytes = (maxBytes - DOCUMENT_OVERHEAD_BYTES) / MAX_BSON_BYTES_PER_MEASUREMENT;
    return Math.max(1, Math.min(maxMeasurements, byBytes));
  }

  /** Summaries of finer windows per bucket under the size cap; at least one. */
  public static int summariesPerBucket(final int maxBytes) {
    return Math.max(1, (maxBytes - DOCUMENT_OVERHEAD_BYTES) / MAX_BSON_BYTES_PER_SUMMARY);
  }
}
