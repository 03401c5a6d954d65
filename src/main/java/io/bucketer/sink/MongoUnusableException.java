package io.bucketer.sink;

/**
 * MongoDB answered in a way retrying cannot change: its certificate does not chain to the CAs
 * configured, it refused the client certificate, or it refused the login. The message is the one
 * line that says which, of which server; the processor ends with it, so that a supervisor shows the
 * reason instead of a process that retries for ever.
 */
public final class MongoUnusableException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  MongoUnusableException(final String line) {
    super(line, null, false, false);
  }
}
