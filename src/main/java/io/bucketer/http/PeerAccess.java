package io.bucketer.http;

import java.util.Optional;
import java.util.function.Supplier;
import javax.net.ssl.SSLContext;

/**
 * How this instance reaches the others when it forwards a query: over HTTPS when its own listener
 * is, trusting the peers' CA (and showing its own certificate, for listeners that demand one), and
 * with the peer token when the API answers only its own host, so that a peer's loopback-only API
 * still answers a query forwarded from another host.
 *
 * @param tls the TLS context for peers, read again after each certificate reload; null: plain HTTP
 * @param peerToken the token every instance shares, from {@code http.auth.peer.token.file}
 */
public record PeerAccess(Supplier<SSLContext> tls, Optional<String> peerToken) {

  /** Plain HTTP, no token: for one instance, or several on one host. */
  public static final PeerAccess PLAIN = new PeerAccess(null, Optional.empty());

  String scheme() {
    return tls == null ? "http" : "https";
  }
}
