package io.bucketer.app;

/**
 * The cluster gave no answer in time: worth retrying, since it may come back. The message is the
 * one line that says so; it carries no cause, and nothing should print a trace of it.
 */
final class KafkaUnreachableException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  KafkaUnreachableException(final String line) {
    super(line, null, false, false);
  }
}
