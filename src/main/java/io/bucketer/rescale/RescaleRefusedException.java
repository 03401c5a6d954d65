package io.bucketer.rescale;

/** A rescale that must not go ahead as asked; nothing was changed. The message says why. */
public final class RescaleRefusedException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  public RescaleRefusedException(final String message) {
    super(message);
  }
}
