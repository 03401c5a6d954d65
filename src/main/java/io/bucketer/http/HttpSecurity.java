package io.bucketer.http;

import io.bucketer.security.ApiCredentials;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * How the HTTP listener protects what it serves: TLS, who may call the data API (and the chart
 * page), who may scrape {@code /metrics}, and the limits on requests. {@code /health} and {@code
 * /ready} always answer: Kubernetes' probes call them, and they reveal only up or down.
 *
 * @param tls TLS from PEM files; empty: plain HTTP
 */
public record HttpSecurity(Optional<Tls> tls, Access access, MetricsAccess metrics, Limits limits) {

  /** What a user who configured nothing gets: plain HTTP, data for this host only. */
  public static final HttpSecurity DEFAULT =
      new HttpSecurity(Optional.empty(), Access.LOOPBACK_ONLY, MetricsAccess.API, Limits.DEFAULT);

  /** Who may call the data API and the chart page. */
  public enum AuthMode {
    /** Callers on this host only, without credentials: the default. */
    LOOPBACK,
    /** Callers with a password or a token from the users or tokens file, from anywhere. */
    CREDENTIALS,
    /** Anyone who reaches the port: an explicit choice, warned about at start. */
    OPEN
  }

  /** Who may scrape {@code /metrics}. */
  public enum MetricsAccess {
    /** Anyone who reaches the port. */
    OPEN,
    /** Whoever may call the data API. */
    API,
    /** Nobody: 404. */
    OFF
  }

  /** Whether the listener asks for client certificates. */
  public enum ClientAuth {
    NONE,
    /** Asked for and checked when given, not required. */
    REQUESTED,
    /** Required: a client without a certificate from the CA cannot connect. */
    REQUIRED
  }

  /**
   * @param mode who may call
   * @param credentials the users and tokens, with {@link AuthMode#CREDENTIALS}
   * @param peerToken the token the instances share to forward queries to one another when the API
   *     answers only its own host
   */
  public record Access(
      AuthMode mode, Optional<ApiCredentials> credentials, Optional<String> peerToken) {

    public static final Access LOOPBACK_ONLY =
        new Access(AuthMode.LOOPBACK, Optional.empty(), Optional.empty());

    public static final Access OPEN = new Access(AuthMode.OPEN, Optional.empty(), Optional.empty());

    /** Access with credentials from {@code credentials}. */
    public static Access withCredentials(final ApiCredentials credentials) {
      return new Access(AuthMode.CREDENTIALS, Optional.of(credentials), Optional.empty());
    }

    @Override
    public String toString() {
      // Never the peer token.
      return "Access[" + mode + "]";
    }
  }

  /**
   * @param certificate the PEM certificate chain, leaf first
   * @param key the PEM private key
   * @param keyPassword the password of an encrypted key, or null
   * @param clientAuth whether client certificates are asked for
   * @param clientCa the PEM CA bundle client certificates must chain to (with client auth)
   * @param peerCa the PEM CA bundle this instance trusts when it forwards to another; null: the
   *     client CA, else the JVM's trust store
   * @param reloadInterval how often the files are checked for a renewal
   */
  public record Tls(
      Path certificate,
      Path key,
      char[] keyPassword,
      ClientAuth clientAuth,
      Path clientCa,
      Path peerCa,
      Duration reloadInterval) {

    @Override
    public String toString() {
      // Never the key's password.
      return "Tls[" + certificate + ", " + key + ", client auth " + clientAuth + "]";
    }
  }

  /**
   * @param maxConcurrentQueries data API requests served at once; more wait briefly, then get 503
   * @param maxHeaderBytes the largest request line and headers; more get 431
   * @param idleTimeout how long a connection may stay silent
   */
  public record Limits(int maxConcurrentQueries, int maxHeaderBytes, Duration idleTimeout) {
    public static final Limits DEFAULT = new Limits(16, 8_192, Duration.ofSeconds(30));
  }
}
