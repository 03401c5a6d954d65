package io.bucketer.ingest;

/**
 * The registry stayed unreachable (connection failures, timeouts, 5xx, 429) for the whole retry
 * budget. Transient by nature: the caller should pause and retry the same record later.
 */
public final class SchemaRegistryUnavailableException extends SchemaRegistryException {

  private static final long serialVersionUID = 1L;

  public SchemaRegistryUnavailableException(final String message, final Throwable cause) {
    super(message, cause);
  }
}
