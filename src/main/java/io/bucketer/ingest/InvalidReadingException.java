package io.bucketer.ingest;

import java.util.Objects;

/**
 * A record value that can never become a {@code Reading}, whatever is retried: the caller routes it
 * to the dead-letter topic with {@link Reason#label()} as the reason header.
 *
 * <p>Checked on purpose: a bad record is an expected, per-record outcome that the topology must
 * handle (dead-letter and continue), and the compiler should force every caller to decide. It is
 * deliberately unrelated to {@link SchemaRegistryException}, which is unchecked and means "the
 * registry could not answer": that must stop or pause processing, never dead-letter data.
 */
public final class InvalidReadingException extends Exception {

  private static final long serialVersionUID = 1L;

  /** Why a record was rejected; {@link #label()} is the stable value for dead-letter headers. */
  public enum Reason {
    /** Null, shorter than the 5-byte header, or a magic byte other than 0. */
    NOT_WIRE_FORMAT("not-wire-format"),
    /** The registry answered that the frame's schema id does not exist (error code 40403). */
    UNKNOWN_SCHEMA_ID("unknown-schema-id"),
    /** The writer schema exists but cannot be resolved to the {@code Reading} reader schema. */
    INCOMPATIBLE_SCHEMA("incompatible-schema"),
    /**
     * The Avro body does not decode with its writer schema (truncated, bad varint, extra bytes).
     */
    MALFORMED_AVRO("malformed-avro");

    private final String label;

    Reason(final String label) {
      this.label = label;
    }

    /**
     * Kebab-case name, spelled out rather than derived so that renaming a constant can't change it.
     */
    public String label() {
      return label;
    }
  }

  private final Reason reason;

  public InvalidReadingException(final Reason reason, final String message) {
    this(reason, message, null);
  }

  public InvalidReadingException(final Reason reason, final String message, final Throwable cause) {
    super(Objects.requireNonNull(reason, "reason").label() + ": " + message, cause);
    this.reason = reason;
  }

  public Reason reason() {
    return reason;
  }
}
