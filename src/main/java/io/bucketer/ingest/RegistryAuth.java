package io.bucketer.ingest;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Objects;
import java.util.Optional;

/**
 * How the registry client proves who it is: not at all, with HTTP basic credentials ({@code
 * user:password}, as Confluent's {@code basic.auth.user.info}), or with a bearer token (an API
 * token or an OAuth access token, as Confluent Cloud, Apicurio behind Keycloak and Karapace take
 * them). One of them, never both: a registry would take one and ignore the other, and which one is
 * its choice.
 *
 * <p>{@link #toString()} and {@link #describe()} say which kind it is, never the secret.
 */
public final class RegistryAuth {

  private static final RegistryAuth NONE = new RegistryAuth("no credentials", null);

  private final String kind;
  private final String authorization;

  private RegistryAuth(final String kind, final String authorization) {
    this.kind = kind;
    this.authorization = authorization;
  }

  public static RegistryAuth none() {
    return NONE;
  }

  /** HTTP basic authentication with {@code user:password}. */
  public static RegistryAuth basic(final String userInfo) {
    Objects.requireNonNull(userInfo, "userInfo");
    final int colon = userInfo.indexOf(':');
    // Without a colon the value is malformed, and may be a password alone: name no user then.
    return new RegistryAuth(
        colon > 0
            ? "basic credentials of user " + userInfo.substring(0, colon)
            : "basic credentials",
        "Basic " + Base64.getEncoder().encodeToString(userInfo.getBytes(StandardCharsets.UTF_8)));
  }

  /** {@code Authorization: Bearer <token>}. */
  public static RegistryAuth bearer(final String token) {
    Objects.requireNonNull(token, "token");
    return new RegistryAuth("a bearer token", "Bearer " + token);
  }

  /** The value of the {@code Authorization} header, if any. */
  Optional<String> authorization() {
    return Optional.ofNullable(authorization);
  }

  /** Which credentials, for messages: "a bearer token", "basic credentials of user reader". */
  public String describe() {
    return kind;
  }

  @Override
  public String toString() {
    return "RegistryAuth[" + kind + "]";
  }
}
