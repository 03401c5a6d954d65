package io.bucketer.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A TCP proxy on a loopback port that a test can cut and restore, to make a server unreachable for
 * a while without stopping it (the in-JVM MongoDB stand-in would lose its data). {@link #cut()}
 * closes every open connection and, until {@link #restore()}, closes each new one as soon as it is
 * accepted, the way a server that went away looks to a client; the port stays bound, so nothing
 * else can take it in between.
 *
 * <p>Written here because nothing small does this from Maven Central without Docker: Toxiproxy's
 * Java client only drives a Toxiproxy server process, and Testcontainers' proxy runs that server in
 * a container. Blocking sockets, two threads per connection: enough for a test.
 */
public final class CuttableTcpProxy implements AutoCloseable {

  private static final int CONNECT_TIMEOUT_MILLIS = 1_000;

  private final ServerSocket listener;
  private final InetSocketAddress target;
  private final ExecutorService threads =
      Executors.newCachedThreadPool(
          task -> {
            final Thread thread = new Thread(task, "cuttable-proxy");
            thread.setDaemon(true);
            return thread;
          });
  private final Set<Socket> open = ConcurrentHashMap.newKeySet();
  private final AtomicInteger refused = new AtomicInteger();
  private final Object cutLock = new Object();
  private boolean cut;

  private CuttableTcpProxy(final ServerSocket listener, final InetSocketAddress target) {
    this.listener = listener;
    this.target = target;
  }

  /** Starts forwarding a free loopback port to {@code host:port}. */
  public static CuttableTcpProxy start(final String host, final int port) {
    try {
      return start(new ServerSocket(0, 50, InetAddress.getLoopbackAddress()), host, port);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot open the proxy's port", e);
    }
  }

  /**
   * Starts forwarding the connections {@code listener} accepts to {@code host:port}. A TLS listener
   * ({@link javax.net.ssl.SSLServerSocket}) makes it a TLS-terminating proxy: the handshake runs on
   * the first read from a client, and a client it refuses is closed like a cut connection.
   */
  public static CuttableTcpProxy start(
      final ServerSocket listener, final String host, final int port) {
    final CuttableTcpProxy proxy =
        new CuttableTcpProxy(listener, new InetSocketAddress(host, port));
    proxy.threads.execute(proxy::acceptLoop);
    return proxy;
  }

  /** The loopback port clients connect to. */
  public int port() {
    return listener.getLocalPort();
  }

  /** Closes every connection through the proxy and refuses new ones until {@link #restore()}. */
  public void cut() {
    synchronized (cutLock) {
      cut = true;
      open.forEach(CuttableTcpProxy::closeQuietly);
      open.clear();
    }
  }

  /** Lets connections through again. */
  public void restore() {
    synchronized (cutLock) {
      cut = false;
    }
  }

  /** Connections closed on arrival because the proxy was cut. */
  public int connectionsRefused() {
    return refused.get();
  }

  @Override
  public void close() {
    closeQuietly(listener);
    cut();
    threads.shutdownNow();
  }

  private void acceptLoop() {
    while (!listener.isClosed()) {
      final Socket client;
      try {
        client = listener.accept();
      } catch (IOException e) {
        return; // closed
      }
      threads.execute(() -> forward(client));
    }
  }

  private void forward(final Socket client) {
    final Socket server = new Socket();
    // Registered under the lock, so a cut either sees this pair or this pair sees the cut.
    synchronized (cutLock) {
      if (cut) {
        refused.incrementAndGet();
        closeQuietly(client);
        return;
      }
      open.add(client);
      open.add(server);
    }
    try {
      server.connect(target, CONNECT_TIMEOUT_MILLIS);
      threads.execute(() -> pump(client, server));
      pump(server, client);
    } catch (IOException e) {
      closePair(client, server);
    }
  }

  /** Copies bytes until either side ends, then closes both: a half-open pair helps nobody. */
  private void pump(final Socket from, final Socket to) {
    final byte[] buffer = new byte[16 * 1024];
    try {
      final InputStream in = from.getInputStream();
      final OutputStream out = to.getOutputStream();
      int read;
      while ((read = in.read(buffer)) >= 0) {
        out.write(buffer, 0, read);
        out.flush();
      }
    } catch (IOException e) {
      // cut, or one side went away: either way the pair is done
    } finally {
      closePair(from, to);
    }
  }

  private void closePair(final Socket a, final Socket b) {
    open.remove(a);
    open.remove(b);
    closeQuietly(a);
    closeQuietly(b);
  }

  private static void closeQuietly(final AutoCloseable closeable) {
    try {
      closeable.close();
    } catch (Exception e) {
      // closing is best effort: the socket is unusable either way
    }
  }
}
