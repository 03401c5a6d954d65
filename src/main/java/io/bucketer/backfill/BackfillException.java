package io.bucketer.backfill;

/**
 * A backfill cannot go on: MongoDB failed a read, did not acknowledge writes for too long, or
 * rejected a document, or a stored window is incomplete or cannot be rolled up. Its message is one
 * line for the operator, naming what failed; what was written stays written, and a backfill run
 * again writes the rest.
 */
public final class BackfillException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  /** Why a backfill stopped: each has its exit status (docs/recovery.md). */
  public enum Kind {
    /** MongoDB failed or refused a read or a write, or did not acknowledge for too long. */
    MONGODB,
    /**
     * The stored source documents of a window contradict each other (a carried-in reading inside
     * the window, windows out of order): only a repair of those documents lets it be built.
     */
    UNBUILDABLE_WINDOW
  }

  private final Kind kind;

  BackfillException(final Kind kind, final String message, final Throwable cause) {
    super(message, cause);
    this.kind = kind;
  }

  BackfillException(final String message, final Throwable cause) {
    this(Kind.MONGODB, message, cause);
  }

  public Kind kind() {
    return kind;
  }
}
