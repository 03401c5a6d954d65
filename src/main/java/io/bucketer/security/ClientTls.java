package io.bucketer.security;

import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Optional;
import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * How bucketer, as a client, trusts a server and shows itself to it over TLS: a PEM bundle of the
 * CAs to trust (else the JVM's trust store), and a client certificate with its key (PEM) for
 * servers that demand one. For MongoDB and the Schema Registry, each with its own files, so that
 * neither needs a JVM-wide trust store or key store.
 *
 * <p>{@link #toString()} names the files, never the key's password.
 */
public final class ClientTls {

  private final Path caFile;
  private final Path certificateFile;
  private final Path keyFile;
  private final char[] keyPassword;

  /**
   * @param caFile the PEM bundle of the CAs to trust, or null for the JVM's trust store
   * @param certificateFile the client certificate chain (PEM, leaf first), or null for none
   * @param keyFile its private key (PEM), null exactly when {@code certificateFile} is
   * @param keyPassword the password of an encrypted key, or null
   */
  public ClientTls(
      final Path caFile, final Path certificateFile, final Path keyFile, final char[] keyPassword) {
    if ((certificateFile == null) != (keyFile == null)) {
      throw new IllegalArgumentException("a client certificate needs its key, and a key its cert");
    }
    this.caFile = caFile;
    this.certificateFile = certificateFile;
    this.keyFile = keyFile;
    this.keyPassword = keyPassword == null ? null : keyPassword.clone();
  }

  /** The client certificate's file, if one is shown. */
  public Optional<Path> certificateFile() {
    return Optional.ofNullable(certificateFile);
  }

  /** The CA bundle trusted, if not the JVM's trust store. */
  public Optional<Path> caFile() {
    return Optional.ofNullable(caFile);
  }

  /** What the server's certificate must chain to, for messages: "the CAs in /etc/.../ca.pem". */
  public String trustDescription() {
    return caFile == null ? "the JVM's trust store" : "the CAs in " + caFile;
  }

  /**
   * A new TLS context from the files, read now.
   *
   * @throws SecurityMaterialException naming the file that cannot be used
   */
  public SSLContext context() {
    try {
      final SSLContext context = SSLContext.getInstance("TLS");
      context.init(keyManagers(), trustManagers().getTrustManagers(), null);
      return context;
    } catch (GeneralSecurityException e) {
      throw new SecurityMaterialException("cannot make a TLS context: " + e.getMessage());
    }
  }

  private KeyManager[] keyManagers() throws GeneralSecurityException {
    if (certificateFile == null) {
      return null;
    }
    // Protects the in-memory key store only; never leaves the process.
    final byte[] random = new byte[24];
    new SecureRandom().nextBytes(random);
    final char[] entryPassword = HexFormat.of().formatHex(random).toCharArray();
    final KeyManagerFactory keys =
        KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    keys.init(
        PemFiles.keyStore(certificateFile, keyFile, keyPassword, entryPassword), entryPassword);
    return keys.getKeyManagers();
  }

  private TrustManagerFactory trustManagers() throws GeneralSecurityException {
    final TrustManagerFactory trust =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    // null: the JVM's default trust store (cacerts, or javax.net.ssl.trustStore)
    trust.init(caFile == null ? null : PemFiles.trustStore(caFile));
    return trust;
  }

  /** The files, never the password. */
  @Override
  public String toString() {
    return "TLS trusting "
        + trustDescription()
        + (certificateFile == null ? "" : ", client certificate " + certificateFile);
  }
}
