package io.bucketer.sink;

import java.util.List;

/**
 * A batch of buckets was not (entirely) acknowledged by MongoDB. {@link #isRetryable()} tells the
 * caller what to do: retry the same batch (the store was unreachable, slow or failed to replicate;
 * writes are idempotent upserts, so rewriting acknowledged buckets is harmless) or stop retrying,
 * because MongoDB rejected some documents and will reject them again (a data error).
 */
public final class BucketWriteException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  private final boolean retryable;
  private final transient List<String> rejectedBucketKeys;

  private BucketWriteException(
      final String message,
      final Throwable cause,
      final boolean retryable,
      final List<String> rejectedBucketKeys) {
    super(message, cause);
    this.retryable = retryable;
    this.rejectedBucketKeys = List.copyOf(rejectedBucketKeys);
  }

  /** The store could not be reached or did not answer in time; retrying may succeed. */
  static BucketWriteException retryable(final String message, final Throwable cause) {
    return new BucketWriteException(message, cause, true, List.of());
  }

  /** MongoDB rejected the documents of these buckets; retrying the same data fails again. */
  static BucketWriteException rejected(
      final String message, final Throwable cause, final List<String> rejectedBucketKeys) {
    return new BucketWriteException(message, cause, false, rejectedBucketKeys);
  }

  public boolean isRetryable() {
    return retryable;
  }

  /**
   * The {@link io.bucketer.topics.BucketKey keys} of the buckets MongoDB rejected (empty when the
   * error is retryable), so they can be found on the buckets topic.
   */
  public List<String> rejectedBucketKeys() {
    return rejectedBucketKeys;
  }
}
