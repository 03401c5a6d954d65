package io.bucketer.embedded;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.Key;
import java.security.KeyStore;
import java.security.SecureRandom;
import java.security.cert.Certificate;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A self-signed certificate for a broker on loopback ({@code localhost}, {@code 127.0.0.1}), as the
 * PEM files a SASL_SSL listener reads: a key store (PKCS#8 key, then the certificate) and a trust
 * store (the certificate, its own trust anchor). For tools that start a secured broker outside
 * tests ({@code bench}); tests make a CA of their own.
 *
 * <p>The JDK's {@code keytool} makes the key pair and certificate: the JDK has no public API that
 * signs a certificate, and keytool ships with every JDK. Its PKCS#12 store is then written out as
 * PEM here, which takes the JDK's own encodings and a Base64 armour.
 */
public final class SelfSignedTls {

  private static final long KEYTOOL_TIMEOUT_SECONDS = 60;

  private final Path keyStore;
  private final Path trustStore;

  private SelfSignedTls(final Path keyStore, final Path trustStore) {
    this.keyStore = keyStore;
    this.trustStore = trustStore;
  }

  /** Makes the certificate and writes both PEM files into {@code dir}. */
  public static SelfSignedTls create(final Path dir) {
    final Path pkcs12 = dir.resolve("broker.p12");
    final String password = HexFormat.of().formatHex(randomBytes());
    keytool(
        List.of(
            "-genkeypair",
            "-alias",
            "broker",
            "-keyalg",
            "EC",
            "-groupname",
            "secp256r1",
            "-dname",
            "CN=localhost",
            "-ext",
            "SAN=dns:localhost,ip:127.0.0.1",
            "-validity",
            "2",
            "-storetype",
            "PKCS12",
            "-keystore",
            pkcs12.toString(),
            "-storepass",
            password,
            "-keypass",
            password));
    try (InputStream in = Files.newInputStream(pkcs12)) {
      final KeyStore store = KeyStore.getInstance("PKCS12");
      store.load(in, password.toCharArray());
      final Key key = store.getKey("broker", password.toCharArray());
      final Certificate certificate = store.getCertificate("broker");
      final String certificatePem = pem("CERTIFICATE", certificate.getEncoded());
      final Path keyStore =
          Files.writeString(
              dir.resolve("broker-keystore.pem"),
              pem("PRIVATE KEY", key.getEncoded()) + certificatePem);
      final Path trustStore = Files.writeString(dir.resolve("broker-ca.pem"), certificatePem);
      Files.delete(pkcs12);
      return new SelfSignedTls(keyStore, trustStore);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the broker's PEM files in " + dir, e);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("cannot read the key store keytool wrote", e);
    }
  }

  /**
   * The broker's PEM key store: its PKCS#8 private key (the JDK's encoding), then its certificate.
   */
  public Path keyStore() {
    return keyStore;
  }

  /** The PEM trust store for the broker's clients: its certificate. */
  public Path trustStore() {
    return trustStore;
  }

  /** The key store's password: it lives only until the key is written out as PEM. */
  private static byte[] randomBytes() {
    final byte[] bytes = new byte[12];
    new SecureRandom().nextBytes(bytes);
    return bytes;
  }

  private static String pem(final String type, final byte[] der) {
    final String body =
        Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der);
    return "-----BEGIN " + type + "-----\n" + body + "\n-----END " + type + "-----\n";
  }

  private static void keytool(final List<String> arguments) {
    final List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
    command.addAll(arguments);
    try {
      final Process process =
          new ProcessBuilder(command)
              .redirectErrorStream(true)
              .redirectOutput(ProcessBuilder.Redirect.DISCARD)
              .start();
      if (!process.waitFor(KEYTOOL_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        throw new IllegalStateException("keytool did not finish");
      }
      if (process.exitValue() != 0) {
        throw new IllegalStateException("keytool exited with " + process.exitValue());
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot run keytool", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while keytool ran", e);
    }
  }
}
