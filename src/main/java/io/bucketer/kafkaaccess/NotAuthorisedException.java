package io.bucketer.kafkaaccess;

/**
 * The cluster refused bucketer's principal an operation it needs, said in {@link NotAuthorised}'s
 * one line. It carries no cause: the line is the whole story, and nothing should print a trace of
 * it.
 */
public final class NotAuthorisedException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  public NotAuthorisedException(final String line) {
    super(line, null, false, false);
  }
}
