package io.bucketer.ingest;

/**
 * The schema registry could not give a usable answer (bad credentials, unexpected status, garbled
 * response, schema rejected on registration). Unchecked, and never a reason to dead-letter a
 * record: it describes the registry or our configuration, not the data.
 */
public class SchemaRegistryException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  public SchemaRegistryException(final String message) {
    super(message);
  }

  public SchemaRegistryException(final String message, final Throwable cause) {
    super(message, cause);
  }
}
