package io.bucketer.sink;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A batch of buckets was not (entirely) acknowledged by MongoDB. {@link #isRetryable()} tells the
 * caller what to do: retry the same batch (the store was unreachable, slow or failed to replicate;
 * writes are idempotent upserts, so rewriting acknowledged buckets is harmless) or set the rejected
 * buckets aside, because MongoDB rejected their documents and will reject them again (a data
 * error); the other buckets of the batch may or may not have been written.
 */
public final class BucketWriteException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  private final boolean retryable;
  private final transient Map<String, String> reasonsByBucketKey;

  private BucketWriteException(
      final String message,
      final Throwable cause,
      final boolean retryable,
      final Map<String, String> reasonsByBucketKey) {
    super(message, cause);
    this.retryable = retryable;
    // LinkedHashMap, not Map.copyOf: keep the order MongoDB reported them in.
    this.reasonsByBucketKey = new LinkedHashMap<>(reasonsByBucketKey);
  }

  /** The store could not be reached or did not answer in time; retrying may succeed. */
  static BucketWriteException retryable(final String message, final Throwable cause) {
    return new BucketWriteException(message, cause, true, Map.of());
  }

  /**
   * MongoDB rejected the documents of these buckets; retrying the same data fails again.
   *
   * @param reasonsByBucketKey MongoDB's (or the driver's) error for each rejected bucket key
   */
  static BucketWriteException rejected(
      final String message, final Throwable cause, final Map<String, String> reasonsByBucketKey) {
    return new BucketWriteException(message, cause, false, reasonsByBucketKey);
  }

  public boolean isRetryable() {
    return retryable;
  }

  /**
   * The {@link io.bucketer.topics.BucketKey keys} of the buckets MongoDB rejected (empty when the
   * error is retryable), so they can be found on the buckets topic.
   */
  public List<String> rejectedBucketKeys() {
    return List.copyOf(reasonsByBucketKey.keySet());
  }

  /** Why MongoDB rejected the bucket of {@code bucketKey}, or this exception's message. */
  public String rejectionReason(final String bucketKey) {
    return reasonsByBucketKey.getOrDefault(bucketKey, getMessage());
  }
}
