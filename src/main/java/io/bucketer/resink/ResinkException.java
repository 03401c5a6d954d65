package io.bucketer.resink;

/**
 * A resink cannot go on: the topic is missing, or MongoDB did not acknowledge for too long. Its
 * message is one line for the operator; what was written stays written, and a new resink continues
 * where the writes stand.
 */
public final class ResinkException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  ResinkException(final String message) {
    super(message);
  }

  ResinkException(final String message, final Throwable cause) {
    super(message, cause);
  }
}
