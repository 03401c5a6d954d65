package io.bucketer.testing;

import io.bucketer.testing.TestCertificates.Authority;
import io.bucketer.testing.TestCertificates.Issued;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.TrustManagerFactory;

/**
 * TLS in front of a plain server for a test: a {@link CuttableTcpProxy} on a JDK {@link
 * SSLServerSocket} that shows {@code certificate} and demands a client certificate from {@code
 * clientCa}, then forwards plain bytes. So a client's TLS settings (its CA, its client certificate)
 * are tested against a server that speaks no TLS itself, such as the in-JVM MongoDB stand-in.
 */
public final class TlsTerminatingProxy {

  private static final char[] IN_MEMORY = "in-memory".toCharArray();

  private TlsTerminatingProxy() {}

  /** Starts it on a free loopback port, forwarding to {@code 127.0.0.1:targetPort}. */
  public static CuttableTcpProxy start(
      final Issued certificate, final Authority clientCa, final int targetPort) {
    try {
      final KeyStore keys = KeyStore.getInstance("PKCS12");
      keys.load(null, null);
      keys.setKeyEntry(
          "server", certificate.key(), IN_MEMORY, certificate.chain().toArray(new Certificate[0]));
      final KeyManagerFactory keyManagers =
          KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
      keyManagers.init(keys, IN_MEMORY);
      final KeyStore trusted = KeyStore.getInstance("PKCS12");
      trusted.load(null, null);
      trusted.setCertificateEntry("client-ca", clientCa.certificate());
      final TrustManagerFactory trustManagers =
          TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      trustManagers.init(trusted);
      final SSLContext context = SSLContext.getInstance("TLS");
      context.init(keyManagers.getKeyManagers(), trustManagers.getTrustManagers(), null);
      final SSLServerSocket listener =
          (SSLServerSocket)
              context
                  .getServerSocketFactory()
                  .createServerSocket(0, 50, InetAddress.getLoopbackAddress());
      listener.setNeedClientAuth(true);
      return CuttableTcpProxy.start(listener, "127.0.0.1", targetPort);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot open the TLS proxy's port", e);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("cannot make the TLS proxy's context", e);
    }
  }
}
