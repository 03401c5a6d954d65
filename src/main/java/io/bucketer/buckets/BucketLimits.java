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
   * key and an embedded document of its start, computed fields and time-weighted part (about 200
   * bytes and 120 more). A test checks it as above.
   */
  public static final int MAX_BSON_BYTES_PER_SUMMARY = 384;

  /** Room kept for the document's other fields: ids, dates and computed fields. */
  public static final int DOCUMENT_OVERHEAD_BYTES = 2048;

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
