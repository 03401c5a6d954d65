package io.bucketer.security;

/**
 * A certificate, key, password hash, users file or tokens file that cannot be used, with a message
 * for the operator that names the file and the fault, and never holds a secret.
 */
public final class SecurityMaterialException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  public SecurityMaterialException(final String message) {
    super(message);
  }
}
