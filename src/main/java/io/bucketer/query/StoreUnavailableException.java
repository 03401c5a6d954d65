package io.bucketer.query;

/**
 * MongoDB did not answer a read in time, or refused it: the query cannot be answered now, though
 * the same query may succeed later (a 503, not a 500).
 */
public final class StoreUnavailableException extends RuntimeException {

  StoreUnavailableException(final String message, final Throwable cause) {
    super(message, cause);
  }
}
