package io.bucketer.http;

import io.bucketer.http.HttpSecurity.Access;
import io.bucketer.security.ApiCredentials;
import io.bucketer.security.Caller;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Decides who a request to the data API comes from, or that it may not come in: by the caller's
 * host (the default: this host only), by a password or bearer token, or not at all (open).
 *
 * <p>A refused request learns only that it was refused: the same 401 whether the name, the password
 * or the token was wrong, or nothing was sent.
 */
final class AccessGate {

  private static final Caller LOCAL = Caller.unrestricted("local");
  private static final Caller PEER = Caller.unrestricted("peer");
  private static final Caller ANYONE = Caller.unrestricted("anyone");

  private final Access access;
  private final Consumer<String> onFailure;
  private final String challenge;

  /**
   * @param onFailure told of each refused request, with {@code missing} or {@code invalid}
   */
  AccessGate(final Access access, final Consumer<String> onFailure) {
    this.access = access;
    this.onFailure = onFailure;
    this.challenge = challenge(access.credentials());
  }

  /** Let in as a caller, or refused with its answer. */
  sealed interface Decision {}

  record Allowed(Caller caller) implements Decision {}

  record Refused(HttpAnswer answer) implements Decision {}

  Decision decide(final InetAddress remote, final Optional<String> authorization) {
    return switch (access.mode()) {
      case OPEN -> new Allowed(ANYONE);
      case LOOPBACK -> loopback(remote, authorization);
      case CREDENTIALS -> credentials(authorization);
    };
  }

  private Decision loopback(final InetAddress remote, final Optional<String> authorization) {
    if (remote != null && remote.isLoopbackAddress()) {
      return new Allowed(LOCAL);
    }
    final Optional<String> token = authorization.flatMap(AccessGate::bearer);
    if (token.isPresent()
        && access.peerToken().isPresent()
        && sameSecret(token.get(), access.peerToken().get())) {
      return new Allowed(PEER);
    }
    onFailure.accept(authorization.isPresent() ? "invalid" : "missing");
    return new Refused(
        HttpAnswer.error(
            403,
            "this API answers only its own host until credentials are configured"
                + " (http.auth.mode, see docs/security.md)"));
  }

  private Decision credentials(final Optional<String> authorization) {
    final ApiCredentials credentials = access.credentials().orElseThrow();
    if (authorization.isEmpty()) {
      return refuse("missing");
    }
    final String header = authorization.get();
    Optional<Caller> caller = Optional.empty();
    final Optional<String> token = bearer(header);
    if (token.isPresent()) {
      caller = credentials.token(token.get());
    } else if (header.regionMatches(true, 0, "Basic ", 0, 6)) {
      caller = basic(credentials, header.substring(6).strip());
    }
    return caller.<Decision>map(Allowed::new).orElseGet(() -> refuse("invalid"));
  }

  private static Optional<Caller> basic(final ApiCredentials credentials, final String encoded) {
    final String decoded;
    try {
      decoded = new String(Base64.getDecoder().decode(encoded), StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
    final int colon = decoded.indexOf(':');
    if (colon <= 0) {
      return Optional.empty();
    }
    return credentials.password(
        decoded.substring(0, colon), decoded.substring(colon + 1).toCharArray());
  }

  private static Optional<String> bearer(final String header) {
    return header.regionMatches(true, 0, "Bearer ", 0, 7)
        ? Optional.of(header.substring(7).strip()).filter(t -> !t.isEmpty())
        : Optional.empty();
  }

  private Refused refuse(final String reason) {
    onFailure.accept(reason);
    return new Refused(
        HttpAnswer.error(401, "authentication required").with("WWW-Authenticate", challenge));
  }

  /** The challenges of the kinds of credentials accepted, in one header (RFC 9110, 11.6.1). */
  private static String challenge(final Optional<ApiCredentials> credentials) {
    final boolean passwords = credentials.map(ApiCredentials::acceptsPasswords).orElse(false);
    final boolean tokens = credentials.map(ApiCredentials::acceptsTokens).orElse(false);
    final String basic = "Basic realm=\"bucketer\", charset=\"UTF-8\"";
    final String bearer = "Bearer realm=\"bucketer\"";
    if (passwords && tokens) {
      return basic + ", " + bearer;
    }
    return tokens ? bearer : basic;
  }

  private static boolean sameSecret(final String presented, final String expected) {
    return MessageDigest.isEqual(
        presented.getBytes(StandardCharsets.UTF_8), expected.getBytes(StandardCharsets.UTF_8));
  }
}
