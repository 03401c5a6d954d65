package io.bucketer.sink;

import com.mongodb.ConnectionString;
import com.mongodb.MongoClientSettings;
import com.mongodb.MongoCredential;
import com.mongodb.event.ServerListener;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;

/**
 * The settings of the MongoDB client a {@link MongoBucketWriter} creates for itself: the connection
 * string's, plus the timeouts the writer's guarantees need where the connection string leaves them
 * to the driver. Apart from the writer so that what a client will do (timeouts, pool, TLS: all the
 * connection string's, or the TLS files' and login's of a {@link MongoConnection}) can be read and
 * tested without connecting.
 */
final class WriterClientSettings {

  /** The driver's own default server selection timeout. */
  private static final long DRIVER_SERVER_SELECTION_MILLIS = 30_000;

  private WriterClientSettings() {}

  /**
   * The connection string's settings, plus two timeouts where it sets neither them nor {@code
   * timeoutMS}. Socket reads: the driver waits for ever by default, so a connection whose peer
   * vanished without a reset (a partition, a dead host) would never fail and never return to the
   * pool, though the writer gave up on its batch long ago; they now fail after {@code
   * writeTimeout}, the longest a batch may take anyway. Server selection (30 s by default): at most
   * {@code writeTimeout}, so an unreachable server fails a write as "no server" with the driver's
   * view of the cluster, not as an anonymous batch timeout.
   */
  static MongoClientSettings of(final String connectionString, final Duration writeTimeout) {
    return of(MongoConnection.of(connectionString), writeTimeout, MongoFailures.unknown());
  }

  /**
   * As {@link #of(String, Duration)}, with the connection's TLS context (its CA trusted, its client
   * certificate shown: TLS is on whatever the connection string says about it) and its login, and
   * {@code monitor} told of every change in the servers' state, failures included.
   */
  static MongoClientSettings of(
      final MongoConnection connection, final Duration writeTimeout, final ServerListener monitor) {
    final ConnectionString uri = new ConnectionString(connection.uri());
    final MongoClientSettings.Builder settings =
        MongoClientSettings.builder()
            .applyConnectionString(uri)
            .applyToServerSettings(s -> s.addServerListener(monitor));
    connection
        .tls()
        .ifPresent(
            tls -> {
              // read now: a file replaced since the start is read as it is, or refused by name
              final SSLContext context = tls.context();
              settings.applyToSslSettings(s -> s.enabled(true).context(context));
            });
    connection
        .login()
        .ifPresent(
            login ->
                settings.credential(
                    MongoCredential.createCredential(
                        login.username(), login.source(), login.password())));
    if (uri.getTimeout() != null) {
      return settings.build();
    }
    final long timeoutMillis = writeTimeout.toMillis();
    if (uri.getSocketTimeout() == null) {
      settings.applyToSocketSettings(s -> s.readTimeout(timeoutMillis, TimeUnit.MILLISECONDS));
    }
    if (uri.getServerSelectionTimeout() == null) {
      final long selectionMillis = Math.min(timeoutMillis, DRIVER_SERVER_SELECTION_MILLIS);
      settings.applyToClusterSettings(
          c -> c.serverSelectionTimeout(selectionMillis, TimeUnit.MILLISECONDS));
    }
    return settings.build();
  }
}
