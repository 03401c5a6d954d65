package io.bucketer.embedded;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;

/** Finds free TCP ports on the loopback interface. */
public final class LoopbackPorts {

  public static final String HOST = "127.0.0.1";

  private LoopbackPorts() {}

  /**
   * Returns {@code count} distinct ports that were free a moment ago. All sockets stay open until
   * every port is chosen, so the ports are distinct; another process can still take one before the
   * caller binds it, which is why callers retry their startup.
   */
  public static List<Integer> free(final int count) {
    final List<ServerSocket> sockets = new ArrayList<>();
    try {
      final List<Integer> ports = new ArrayList<>();
      for (int i = 0; i < count; i++) {
        final ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName(HOST));
        socket.setReuseAddress(true);
        sockets.add(socket);
        ports.add(socket.getLocalPort());
      }
      return ports;
    } catch (IOException e) {
      throw new UncheckedIOException("no free loopback port", e);
    } finally {
      for (final ServerSocket socket : sockets) {
        try {
          socket.close();
        } catch (IOException ignored) {
          // closing a never-used listening socket cannot lose data
        }
      }
    }
  }
}
