package io.bucketer.sink;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A batch of buckets was not (entirely) acknowledged by MongoDB. {@link #isRetryable()} tells the
 * caller what to do: retry (the store was unreachable, slow or failed to replicate) or set the
 * rejected buckets aside, because MongoDB rejected their documents and will reject them again (a
 * data error). Either way {@link #acknowledgedBucketKeys()} names the buckets MongoDB did
 * acknowledge, which need no second write; the others may or may not have been written, and writes
 * are idempotent upserts, so writing them again is harmless.
 */
public final class BucketWriteException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  private final boolean retryable;
  private final transient Map<String, String> reasonsByBucketKey;
  private final transient Set<String> acknowledgedBucketKeys;

  private BucketWriteException(
      final String message,
      final Throwable cause,
      final boolean retryable,
      final Map<String, String> reasonsByBucketKey,
      final Set<String> acknowledgedBucketKeys) {
    super(message, cause);
    this.retryable = retryable;
    // LinkedHashMap, not Map.copyOf: keep the order MongoDB reported them in.
    this.reasonsByBucketKey = new LinkedHashMap<>(reasonsByBucketKey);
    this.acknowledgedBucketKeys = Set.copyOf(acknowledgedBucketKeys);
  }

  /** The store could not be reached or did not answer in time; retrying may succeed. */
  static BucketWriteException retryable(final String message, final Throwable cause) {
    return new BucketWriteException(message, cause, true, Map.of(), Set.of());
  }

  /**
   * MongoDB rejected the documents of these buckets; retrying the same data fails again.
   *
   * @param reasonsByBucketKey MongoDB's (or the driver's) error for each rejected bucket key
   */
  static BucketWriteException rejected(
      final String message, final Throwable cause, final Map<String, String> reasonsByBucketKey) {
    return new BucketWriteException(message, cause, false, reasonsByBucketKey, Set.of());
  }

  /**
   * This failure, saying that MongoDB acknowledged the buckets of {@code keys}: a call of many bulk
   * writes learns which of them were acknowledged before the one that failed or timed out.
   */
  BucketWriteException acknowledging(final Collection<String> keys) {
    final BucketWriteException copy =
        new BucketWriteException(
            getMessage(), getCause(), retryable, reasonsByBucketKey, Set.copyOf(keys));
    for (final Throwable suppressed : getSuppressed()) {
      copy.addSuppressed(suppressed);
    }
    return copy;
  }

  /**
   * The {@link io.bucketer.topics.BucketKey keys} of the buckets MongoDB acknowledged before the
   * failure: written, or already held at their revision or a newer one. Only the others need to be
   * written again.
   */
  public Set<String> acknowledgedBucketKeys() {
    return acknowledgedBucketKeys;
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
