package io.bucketer.testing;

import io.bucketer.testing.TestCertificates.Authority;
import io.bucketer.testing.TestCertificates.Issued;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import javax.net.ssl.SSLServerSocket;

/**
 * TLS in front of a plain server for a test: a {@link CuttableTcpProxy} on a JDK {@link
 * SSLServerSocket} that shows {@code certificate} and demands a client certificate from {@code
 * clientCa}, then forwards plain bytes. So a client's TLS settings (its CA, its client certificate)
 * are tested against a server that speaks no TLS itself, such as the in-JVM MongoDB stand-in.
 */
public final class TlsTerminatingProxy {

  private TlsTerminatingProxy() {}

  /** Starts it on a free loopback port, forwarding to {@code 127.0.0.1:targetPort}. */
  public static CuttableTcpProxy start(
      final Issued certificate, final Authority clientCa, final int targetPort) {
    try {
      final SSLServerSocket listener =
          (SSLServerSocket)
              TestCertificates.serverContext(certificate, clientCa)
                  .getServerSocketFactory()
                  .createServerSocket(0, 50, InetAddress.getLoopbackAddress());
      listener.setNeedClientAuth(true);
      return CuttableTcpProxy.start(listener, "127.0.0.1", targetPort);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot open the TLS proxy's port", e);
    }
  }
}
