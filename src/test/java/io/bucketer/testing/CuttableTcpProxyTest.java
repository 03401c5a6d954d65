package io.bucketer.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class CuttableTcpProxyTest {

  private static final int READ_TIMEOUT_MILLIS = 5_000;

  private final ExecutorService echoThreads = Executors.newCachedThreadPool();
  private ServerSocket echo;
  private CuttableTcpProxy proxy;

  @BeforeEach
  void start() throws IOException {
    echo = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    echoThreads.execute(this::echoConnections);
    proxy = CuttableTcpProxy.start(echo.getInetAddress().getHostAddress(), echo.getLocalPort());
  }

  @AfterEach
  void stop() throws IOException {
    proxy.close();
    echo.close();
    echoThreads.shutdownNow();
  }

  private void echoConnections() {
    while (!echo.isClosed()) {
      try {
        final Socket socket = echo.accept();
        echoThreads.execute(() -> echoBack(socket));
      } catch (IOException e) {
        return;
      }
    }
  }

  private static void echoBack(final Socket socket) {
    try (socket) {
      socket.getInputStream().transferTo(socket.getOutputStream());
    } catch (IOException e) {
      // the test closed its end
    }
  }

  private Socket connect() throws IOException {
    final Socket socket = new Socket(InetAddress.getLoopbackAddress(), proxy.port());
    socket.setSoTimeout(READ_TIMEOUT_MILLIS);
    return socket;
  }

  /** Sends one byte and returns what comes back: the byte, or -1 when the connection ended. */
  private static int roundTrip(final Socket socket, final int value) throws IOException {
    socket.getOutputStream().write(value);
    socket.getOutputStream().flush();
    return readOrEnd(socket);
  }

  /** The next byte, or -1 when the connection ended (closed or reset by the proxy). */
  private static int readOrEnd(final Socket socket) throws IOException {
    final InputStream in = socket.getInputStream();
    try {
      return in.read();
    } catch (SocketException e) {
      return -1;
    }
  }

  @Test
  void shouldForwardUntilCutRefuseWhileCutAndForwardAgainAfterRestore() throws IOException {
    try (Socket before = connect()) {
      assertThat(roundTrip(before, 7)).isEqualTo(7);

      proxy.cut();

      assertThat(readOrEnd(before)).isEqualTo(-1);
    }
    try (Socket during = connect()) {
      assertThat(roundTrip(during, 8)).isEqualTo(-1);
      assertThat(proxy.connectionsRefused()).isEqualTo(1);
    }

    proxy.restore();

    try (Socket after = connect()) {
      assertThat(roundTrip(after, 9)).isEqualTo(9);
    }
  }
}
