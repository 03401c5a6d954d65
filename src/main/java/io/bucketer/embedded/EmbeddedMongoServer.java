package io.bucketer.embedded;

import de.bwaldvogel.mongo.MongoBackend;
import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.backend.memory.MemoryBackend;
import java.net.InetSocketAddress;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.UnaryOperator;

/**
 * An in-memory server that speaks the MongoDB wire protocol (de.bwaldvogel mongo-java-server with
 * its memory backend), on a free loopback port.
 *
 * <p>It is a stand-in for real MongoDB, used because no {@code mongod} can run on the build
 * machines; data is lost on {@link #close()}. It does not implement everything MongoDB does: no
 * {@code hello} command (so a client configured with the Stable API, {@code ServerApi} V1, cannot
 * connect), no {@code $dateTrunc}, no sessions or transactions, no TTL expiry (TTL indexes are
 * created but nothing is deleted), no change streams without its oplog, and bulk-write result
 * counts that can be wrong after a partial failure. Code must not depend on these gaps or on those
 * counts; behaviour specific to MongoDB belongs in tests against a real server.
 */
public final class EmbeddedMongoServer implements AutoCloseable {

  private final MongoServer server;
  private final String connectionString;
  private final AtomicBoolean closed = new AtomicBoolean();

  private EmbeddedMongoServer(final MongoServer server, final InetSocketAddress address) {
    this.server = server;
    this.connectionString = "mongodb://" + LoopbackPorts.HOST + ":" + address.getPort();
  }

  /** Starts an empty server; port 0 lets the OS pick a free port without any race. */
  public static EmbeddedMongoServer start() {
    return start(backend -> backend);
  }

  /**
   * Starts an empty server whose backend is wrapped first, for instance to count the operations
   * clients send.
   */
  public static EmbeddedMongoServer start(final UnaryOperator<MongoBackend> wrap) {
    return start(new MemoryBackend(), wrap);
  }

  /** Starts an empty server on {@code backend}, wrapped first. */
  static EmbeddedMongoServer start(
      final MongoBackend backend, final UnaryOperator<MongoBackend> wrap) {
    final MongoServer server = new MongoServer(wrap.apply(backend));
    server.bind(LoopbackPorts.HOST, 0);
    return new EmbeddedMongoServer(server, server.getLocalAddress());
  }

  /** A connection string for the MongoDB drivers, e.g. {@code mongodb://127.0.0.1:40123}. */
  public String connectionString() {
    return connectionString;
  }

  /** Stops the server, closing client connections; its data is gone. Safe to call twice. */
  @Override
  public void close() {
    if (closed.compareAndSet(false, true)) {
      server.shutdownNow();
    }
  }
}
