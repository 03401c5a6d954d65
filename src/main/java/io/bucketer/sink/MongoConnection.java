package io.bucketer.sink;

import io.bucketer.security.ClientTls;
import java.util.Objects;
import java.util.Optional;

/**
 * Where MongoDB is and how bucketer proves who it is to it: the connection string, TLS from files
 * (a private CA, a client certificate for X.509), and a user and password kept apart from the
 * connection string, so that the password can come from a file of its own.
 *
 * <p>{@link #toString()} shows neither the connection string (it may hold credentials) nor the
 * password.
 *
 * @param uri the connection string, {@code mongodb://} or {@code mongodb+srv://}
 * @param tls the client's TLS files; empty: the connection string's TLS with the JVM's stores
 * @param login a user and password besides the connection string's, which then holds none
 */
public record MongoConnection(String uri, Optional<ClientTls> tls, Optional<Login> login) {

  public MongoConnection {
    Objects.requireNonNull(uri, "uri");
    Objects.requireNonNull(tls, "tls");
    Objects.requireNonNull(login, "login");
  }

  /** The connection string alone, as it says. */
  public static MongoConnection of(final String uri) {
    return new MongoConnection(uri, Optional.empty(), Optional.empty());
  }

  @Override
  public String toString() {
    return "MongoDB (connection string hidden"
        + tls.map(t -> ", " + t).orElse("")
        + login.map(l -> ", user " + l.username() + " of " + l.source()).orElse("")
        + ")";
  }

  /**
   * A SCRAM user: the mechanism is the one the server offers (SCRAM-SHA-256, or SCRAM-SHA-1 on
   * servers without it), as the driver negotiates it for a user in a connection string.
   *
   * @param source the database that holds the user (the connection string's authSource)
   */
  public record Login(String username, String source, char[] password) {

    public Login {
      Objects.requireNonNull(username, "username");
      Objects.requireNonNull(source, "source");
      password = Objects.requireNonNull(password, "password").clone();
    }

    @Override
    public char[] password() {
      return password.clone();
    }

    @Override
    public boolean equals(final Object other) {
      return other instanceof Login that
          && username.equals(that.username)
          && source.equals(that.source)
          && java.util.Arrays.equals(password, that.password);
    }

    @Override
    public int hashCode() {
      return Objects.hash(username, source);
    }

    /** The user and where it is defined, never the password. */
    @Override
    public String toString() {
      return "Login[username=" + username + ", source=" + source + ", password=(hidden)]";
    }
  }
}
