package io.bucketer.reprocess;

/**
 * A reprocessing that must not go ahead: an instance still runs, the instant is beyond the lateness
 * horizon, or the input topic no longer holds the range. Its message is one line for the operator;
 * no offset was moved.
 */
public final class ReprocessRefusedException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  ReprocessRefusedException(final String message) {
    super(message);
  }
}
