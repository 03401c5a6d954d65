package io.bucketer.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.SocketException;
import java.nio.file.Path;
import java.security.cert.CertificateException;
import javax.net.ssl.SSLHandshakeException;
import org.junit.jupiter.api.Test;

/**
 * The causes a client's TLS failures are given, from the exceptions the JDK throws, wrapped as a
 * client library wraps them. Trust and refused certificates are also checked end to end in
 * MongoTlsTest and SchemaRegistryTlsTest.
 */
class TlsFailuresTest {

  private static final ClientTls TLS =
      new ClientTls(Path.of("/etc/bucketer/ca.pem"), null, null, null);

  @Test
  void shouldCallACertificateForAnotherHostATrustProblemInTheJdksWords() {
    final SSLHandshakeException handshake =
        new SSLHandshakeException("No subject alternative names matching IP address 10.0.0.5");
    handshake.initCause(
        new CertificateException("No subject alternative names matching IP address 10.0.0.5"));

    assertThat(TlsFailures.describe(new IOException("wrapped", handshake), TLS))
        .contains(
            "TLS trust: the server's certificate is not valid for it: No subject alternative"
                + " names matching IP address 10.0.0.5");
  }

  @Test
  void shouldCallAMissingCaATrustProblemNamingWhatWasTrusted() {
    final SSLHandshakeException handshake = new SSLHandshakeException("PKIX path building failed");
    handshake.initCause(new CertificateException("PKIX path building failed: no path"));

    assertThat(TlsFailures.describe(handshake, TLS))
        .contains(
            "TLS trust: the server's certificate does not chain to the CAs in"
                + " /etc/bucketer/ca.pem");
    assertThat(TlsFailures.describe(handshake, null))
        .contains("TLS trust: the server's certificate does not chain to the JVM's trust store");
  }

  @Test
  void shouldSayNothingOfAFailureThatIsNotTls() {
    assertThat(TlsFailures.describe(new SocketException("Connection reset"), TLS)).isEmpty();
  }
}
