package io.bucketer.http;

import io.bucketer.http.HttpSecurity.ClientAuth;
import io.bucketer.http.HttpSecurity.Tls;
import io.bucketer.security.ClientTls;
import io.bucketer.security.PemFiles;
import io.bucketer.security.SecurityMaterialException;
import io.bucketer.security.WatchedFiles;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import javax.net.ssl.SSLContext;
import org.eclipse.jetty.util.ssl.SslContextFactory;

/**
 * The listener's TLS from PEM files, renewed in place: when the certificate, the key or the client
 * CA change on disk, new connections use the new ones and open connections carry on. Also the
 * context this instance uses to reach the others when it forwards a query.
 */
final class TlsMaterial implements AutoCloseable {

  private final Tls settings;
  private final SslContextFactory.Server factory;
  private final WatchedFiles watch;

  /** Protects the in-memory key store only; never leaves the process. */
  private final char[] entryPassword;

  private volatile SSLContext peerContext;

  private TlsMaterial(final Tls settings) {
    this.settings = settings;
    final byte[] random = new byte[24];
    new SecureRandom().nextBytes(random);
    this.entryPassword = HexFormat.of().formatHex(random).toCharArray();
    this.factory = new SslContextFactory.Server();
    factory.setIncludeProtocols("TLSv1.3", "TLSv1.2");
    factory.setKeyStore(keyStore());
    factory.setKeyStorePassword(new String(entryPassword));
    factory.setNeedClientAuth(settings.clientAuth() == ClientAuth.REQUIRED);
    factory.setWantClientAuth(settings.clientAuth() == ClientAuth.REQUESTED);
    if (settings.clientAuth() != ClientAuth.NONE) {
      factory.setTrustStore(PemFiles.trustStore(settings.clientCa()));
    }
    this.peerContext = buildPeerContext();
    this.watch =
        WatchedFiles.watch(
            files(), settings.reloadInterval(), "the HTTP certificate", this::reload);
  }

  /**
   * Reads the files once, and watches them.
   *
   * @throws SecurityMaterialException when they cannot be used
   */
  static TlsMaterial load(final Tls settings) {
    return new TlsMaterial(settings);
  }

  SslContextFactory.Server serverFactory() {
    return factory;
  }

  /** The context to reach another instance: its CA trusted, this one's certificate shown. */
  SSLContext peerContext() {
    return peerContext;
  }

  /** Checks the files now rather than at the next interval: for tests. */
  void checkForRenewal() {
    watch.check();
  }

  private List<Path> files() {
    final List<Path> files = new ArrayList<>(List.of(settings.certificate(), settings.key()));
    if (settings.clientCa() != null) {
      files.add(settings.clientCa());
    }
    if (settings.peerCa() != null) {
      files.add(settings.peerCa());
    }
    return files;
  }

  private KeyStore keyStore() {
    return PemFiles.keyStore(
        settings.certificate(), settings.key(), settings.keyPassword(), entryPassword);
  }

  private void reload() {
    final KeyStore keys = keyStore();
    final KeyStore clientCa =
        settings.clientAuth() == ClientAuth.NONE ? null : PemFiles.trustStore(settings.clientCa());
    final SSLContext peers = buildPeerContext();
    try {
      factory.reload(
          f -> {
            f.setKeyStore(keys);
            if (clientCa != null) {
              f.setTrustStore(clientCa);
            }
          });
    } catch (Exception e) {
      throw new SecurityMaterialException("cannot use the renewed certificate: " + e.getMessage());
    }
    peerContext = peers;
  }

  /**
   * Trusts the peer CA (else the client CA, else the JVM's trust store), and shows this instance's
   * own certificate, for peers that demand one: a client's TLS like MongoDB's and the registry's.
   */
  private SSLContext buildPeerContext() {
    final Path ca = settings.peerCa() != null ? settings.peerCa() : settings.clientCa();
    return new ClientTls(ca, settings.certificate(), settings.key(), settings.keyPassword())
        .context();
  }

  @Override
  public void close() {
    watch.close();
  }
}
