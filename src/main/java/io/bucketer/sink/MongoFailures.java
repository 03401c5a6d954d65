package io.bucketer.sink;

import com.mongodb.MongoCredential;
import com.mongodb.MongoSecurityException;
import com.mongodb.MongoSocketOpenException;
import com.mongodb.MongoSocketReadException;
import com.mongodb.MongoSocketReadTimeoutException;
import com.mongodb.MongoSocketWriteException;
import com.mongodb.ServerAddress;
import com.mongodb.event.ServerDescriptionChangedEvent;
import com.mongodb.event.ServerListener;
import io.bucketer.security.ClientTls;
import io.bucketer.security.TlsFailures;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.UnknownHostException;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Why the client cannot work with MongoDB, in one line that names the server and the cause: TLS
 * trust (and which CA was trusted), a client certificate refused, authentication failed, or
 * unreachable (refused, timed out, or closed before an answer), or not answering.
 *
 * <p>A write that finds no server fails with the driver's server-selection timeout, whose only link
 * to the cause is text inside its message ("PKIX path building failed" deep in a cluster
 * description). The driver's monitor knows the cause as an exception: this listens to it, so the
 * writer can say what is wrong rather than only that time ran out.
 */
final class MongoFailures implements ServerListener {

  private final ClientTls tls;
  private final Map<ServerAddress, Throwable> monitorFailures = new ConcurrentHashMap<>();

  /**
   * @param tls what the client trusts and shows, or null for the JVM's stores
   */
  MongoFailures(final ClientTls tls) {
    this.tls = tls;
  }

  /** Describes nothing: for a writer on a database whose client someone else made. */
  static MongoFailures unknown() {
    return new MongoFailures(null);
  }

  @Override
  public void serverDescriptionChanged(final ServerDescriptionChangedEvent event) {
    final ServerAddress address = event.getNewDescription().getAddress();
    final Throwable failure = event.getNewDescription().getException();
    if (failure == null) {
      monitorFailures.remove(address);
    } else {
      monitorFailures.put(address, failure);
    }
  }

  /**
   * What the servers' monitors found wrong, one clause per server ("MongoDB db-0:27017: TLS trust:
   * ..."), or the cause in {@code error} itself; empty when neither says more than the error.
   */
  Optional<String> explain(final Throwable error) {
    final String servers =
        monitorFailures.entrySet().stream()
            .flatMap(
                entry ->
                    cause(entry.getValue())
                        .map(c -> "MongoDB " + entry.getKey() + ": " + c)
                        .stream())
            .sorted()
            .collect(Collectors.joining("; "));
    if (!servers.isEmpty()) {
      return Optional.of(servers);
    }
    return cause(error).map(c -> "MongoDB: " + c);
  }

  /**
   * {@link #explain}, or else the first line of the error's own message: the driver's words are
   * kept only when there is nothing better (its server selection timeout carries a whole cluster
   * description, exception class names included, after a cause already said).
   */
  String reason(final Throwable error) {
    return explain(error)
        .orElseGet(
            () ->
                error.getMessage() == null
                    ? "no reason given"
                    : error.getMessage().lines().findFirst().orElse(""));
  }

  /**
   * True when what failed is one retrying cannot fix: TLS trust, a refused client certificate, or
   * failed authentication, said by a server's monitor or by {@code error} itself. An unreachable
   * server, a timeout or an election are not.
   */
  boolean isPermanent(final Throwable error) {
    return Stream.concat(monitorFailures.values().stream(), Stream.of(error))
        .map(this::cause)
        .flatMap(Optional::stream)
        .anyMatch(
            cause ->
                cause.startsWith("TLS trust")
                    || cause.startsWith("certificate refused")
                    || cause.startsWith("authentication failed"));
  }

  private static String whom(final MongoCredential credential) {
    if (credential == null) {
      return "";
    }
    if (MongoCredential.MONGODB_X509_MECHANISM.equals(credential.getMechanism())) {
      return "for the client certificate (MONGODB-X509)";
    }
    return "for user "
        + credential.getUserName()
        + " of "
        + credential.getSource()
        + " ("
        + (credential.getMechanism() == null ? "SCRAM" : credential.getMechanism())
        + ")";
  }

  private Optional<String> cause(final Throwable failure) {
    final Optional<String> handshake = TlsFailures.describe(failure, tls);
    if (handshake.isPresent()) {
      return handshake;
    }
    for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
      if (cause instanceof MongoSecurityException security) {
        return Optional.of("authentication failed " + whom(security.getCredential()));
      }
      if (cause instanceof ConnectException
          || cause instanceof NoRouteToHostException
          || cause instanceof UnknownHostException) {
        return Optional.of("unreachable: " + cause.getMessage());
      }
      if (cause instanceof MongoSocketOpenException open) {
        // e.g. a connect timeout: a host that vanished without refusing
        return Optional.of("unreachable: " + innermostMessage(open));
      }
      if (cause instanceof MongoSocketReadTimeoutException) {
        // A hung server, or one behind a path that drops packets: reachable, yet silent.
        return Optional.of("not answering: the connection opened but no reply came in time");
      }
      if (cause instanceof MongoSocketReadException || cause instanceof MongoSocketWriteException) {
        // Accepted, then closed before an answer: what a server going down, or a proxy or load
        // balancer with no MongoDB behind it, looks like.
        return Optional.of("unreachable: the connection was closed before MongoDB answered");
      }
      if (cause.getCause() == cause) {
        break;
      }
    }
    return Optional.empty();
  }

  private static String innermostMessage(final Throwable failure) {
    String message = failure.getMessage();
    Throwable cause = failure.getCause();
    // bounded: a cause chain with a cycle must not hang the caller
    for (int depth = 0; cause != null && depth < 20; depth++) {
      if (cause.getMessage() != null) {
        message = cause.getMessage();
      }
      cause = cause.getCause();
    }
    return message;
  }
}
