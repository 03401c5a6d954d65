package io.bucketer.deadletters;

/** Kafka refused a replayed record: the replay stopped; what was acknowledged stays replayed. */
public final class ReplayFailedException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  private final long acknowledged;

  public ReplayFailedException(final long acknowledged, final Throwable cause) {
    super("Kafka refused a replayed record after " + acknowledged + " were acknowledged", cause);
    this.acknowledged = acknowledged;
  }

  public long acknowledged() {
    return acknowledged;
  }
}
