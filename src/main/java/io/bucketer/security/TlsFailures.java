package io.bucketer.security;

import java.security.cert.CertPathBuilderException;
import java.security.cert.CertPathValidatorException;
import java.security.cert.CertificateException;
import java.util.Locale;
import java.util.Optional;
import javax.net.ssl.SSLException;

/**
 * Why a TLS connection to a server failed, in words an operator acts on: the server's certificate
 * is not trusted (a wrong or missing CA), the server refused ours (none shown, or from a CA it does
 * not trust), or another handshake failure. The JDK says "PKIX path building failed" and "Received
 * fatal alert: certificate_required", wrapped by each client library in its own exception; these
 * lines name the cause instead, and never a class name.
 */
public final class TlsFailures {

  private TlsFailures() {}

  /**
   * The TLS cause of {@code failure}, if it has one: the first line of an operator's message,
   * starting "TLS trust:" or "certificate refused:" or "TLS handshake failed:".
   *
   * @param tls what the client trusted and showed, for the message
   */
  public static Optional<String> describe(final Throwable failure, final ClientTls tls) {
    return describe(
        failure,
        trustOf(tls),
        tls == null ? Optional.empty() : tls.certificateFile().map(file -> "the one in " + file));
  }

  /**
   * As {@link #describe(Throwable, ClientTls)}, for a client whose TLS is not a {@link ClientTls}
   * (Kafka's, set by its own {@code ssl.*} settings).
   *
   * @param trust what the server's certificate must chain to: "the trust store /etc/ca.pem"
   * @param certificate the client certificate shown, as "the one in /etc/cert.pem"; empty for none
   */
  public static Optional<String> describe(
      final Throwable failure, final String trust, final Optional<String> certificate) {
    final Throwable untrusted = find(failure, CertificateException.class);
    if (untrusted != null) {
      if (find(failure, CertPathBuilderException.class) != null
          || find(failure, CertPathValidatorException.class) != null
          || String.valueOf(untrusted.getMessage()).contains("PKIX")) {
        return Optional.of("TLS trust: the server's certificate does not chain to " + trust);
      }
      // e.g. "No subject alternative names matching IP address 10.0.0.5 found": the JDK's words
      return Optional.of(
          "TLS trust: the server's certificate is not valid for it: " + untrusted.getMessage());
    }
    final Throwable handshake = find(failure, SSLException.class);
    if (handshake == null) {
      return Optional.empty();
    }
    final String message = String.valueOf(handshake.getMessage());
    if (refusesClientCertificate(message)) {
      return Optional.of(
          "certificate refused: the server demands a client certificate and refused "
              + certificate.orElse("to go without one (none is configured)"));
    }
    return Optional.of("TLS handshake failed: " + message);
  }

  private static String trustOf(final ClientTls tls) {
    return tls == null ? "the JVM's trust store" : tls.trustDescription();
  }

  /** The TLS alerts a server sends when a client certificate is missing or not trusted. */
  private static boolean refusesClientCertificate(final String message) {
    final String lower = message.toLowerCase(Locale.ROOT);
    return lower.contains("certificate_required")
        || lower.contains("bad_certificate")
        || lower.contains("unknown_ca")
        || lower.contains("certificate_unknown");
  }

  private static <T extends Throwable> T find(final Throwable failure, final Class<T> type) {
    Throwable cause = failure;
    // bounded: a cause chain with a cycle must not hang the caller
    for (int depth = 0; cause != null && depth < 20; depth++) {
      if (type.isInstance(cause)) {
        return type.cast(cause);
      }
      cause = cause.getCause();
    }
    return null;
  }
}
