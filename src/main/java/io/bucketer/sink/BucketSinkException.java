package io.bucketer.sink;

/** The sink stopped because a record cannot be written at all (a data error, not an outage). */
public final class BucketSinkException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  BucketSinkException(final String message, final Throwable cause) {
    super(message, cause);
  }
}
