package io.bucketer.backfill;

/**
 * A backfill cannot go on: MongoDB failed a read, did not acknowledge writes for too long, or
 * rejected a document, or a stored window is incomplete. Its message is one line for the operator;
 * what was written stays written, and a backfill run again writes the rest.
 */
public final class BackfillException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  BackfillException(final String message, final Throwable cause) {
    super(message, cause);
  }
}
