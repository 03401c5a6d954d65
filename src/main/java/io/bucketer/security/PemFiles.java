package io.bucketer.security;

import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.Provider;
import java.security.Signature;
import java.security.cert.Certificate;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.List;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.bouncycastle.openssl.PEMEncryptedKeyPair;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;
import org.bouncycastle.openssl.jcajce.JceOpenSSLPKCS8DecryptorProviderBuilder;
import org.bouncycastle.openssl.jcajce.JcePEMDecryptorProviderBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.pkcs.PKCS8EncryptedPrivateKeyInfo;
import org.bouncycastle.pkcs.PKCSException;

/**
 * Certificates and private keys in PEM files, as cert-manager, Vault, openssl and every CA hand
 * them out, turned into the in-memory {@link KeyStore}s that Java's TLS takes. The JDK reads PEM
 * certificates but not PEM keys; Bouncy Castle reads every key form: PKCS#8 ({@code BEGIN PRIVATE
 * KEY}), PKCS#1 ({@code BEGIN RSA PRIVATE KEY}), SEC1 ({@code BEGIN EC PRIVATE KEY}), and their
 * encrypted forms with a password.
 *
 * <p>Errors name the file and what is wrong with it, never the file's content.
 */
public final class PemFiles {

  /**
   * Decrypts encrypted keys: openssl writes them with AES in CBC mode under the name
   * "AES/CBC/PKCS7Padding", which the JDK's own provider does not know. Used as an instance, never
   * installed in the JVM, so nothing else changes provider.
   */
  private static final Provider BOUNCY_CASTLE = new BouncyCastleProvider();

  /** The alias of the one key entry in a key store made here. */
  public static final String KEY_ALIAS = "bucketer";

  private PemFiles() {}

  /**
   * A key store holding one entry: the private key in {@code keyFile} with the certificate chain in
   * {@code certificateFile} (leaf first), protected by {@code entryPassword}.
   *
   * @param keyPassword the password of an encrypted key, or null
   */
  public static KeyStore keyStore(
      final Path certificateFile,
      final Path keyFile,
      final char[] keyPassword,
      final char[] entryPassword) {
    final List<X509Certificate> chain = certificates(certificateFile);
    final PrivateKey key = privateKey(keyFile, keyPassword);
    if (!matches(chain.get(0), key)) {
      throw new SecurityMaterialException(
          keyFile
              + " does not hold the private key of the first certificate in "
              + certificateFile);
    }
    try {
      final KeyStore store = emptyStore();
      store.setKeyEntry(KEY_ALIAS, key, entryPassword, chain.toArray(new Certificate[0]));
      return store;
    } catch (GeneralSecurityException e) {
      throw new SecurityMaterialException(
          "cannot hold the key of " + keyFile + ": " + e.getMessage());
    }
  }

  /** A trust store of every certificate in {@code bundleFile} (one CA or several). */
  public static KeyStore trustStore(final Path bundleFile) {
    try {
      final KeyStore store = emptyStore();
      int n = 0;
      for (final X509Certificate certificate : certificates(bundleFile)) {
        store.setCertificateEntry("ca-" + n++, certificate);
      }
      return store;
    } catch (GeneralSecurityException e) {
      throw new SecurityMaterialException(
          "cannot hold the certificates of " + bundleFile + ": " + e.getMessage());
    }
  }

  /** The certificates of a PEM file, in the file's order; at least one. */
  public static List<X509Certificate> certificates(final Path file) {
    try (InputStream in = Files.newInputStream(file)) {
      final List<X509Certificate> certificates =
          CertificateFactory.getInstance("X.509").generateCertificates(in).stream()
              .map(X509Certificate.class::cast)
              .toList();
      if (certificates.isEmpty()) {
        throw new SecurityMaterialException(file + " holds no PEM certificate");
      }
      return certificates;
    } catch (IOException e) {
      throw new SecurityMaterialException("cannot read " + file + ": " + e.getMessage());
    } catch (CertificateException e) {
      throw new SecurityMaterialException(file + " does not hold PEM certificates");
    }
  }

  /** The private key of a PEM file, decrypted with {@code password} when it is encrypted. */
  public static PrivateKey privateKey(final Path file, final char[] password) {
    final Object pem;
    try (Reader reader = Files.newBufferedReader(file);
        PEMParser parser = new PEMParser(reader)) {
      pem = parser.readObject();
    } catch (IOException e) {
      throw new SecurityMaterialException(file + " does not hold a PEM private key");
    }
    try {
      final JcaPEMKeyConverter converter = new JcaPEMKeyConverter();
      if (pem instanceof PrivateKeyInfo info) {
        return converter.getPrivateKey(info);
      } else if (pem instanceof PEMKeyPair pair) {
        return converter.getKeyPair(pair).getPrivate();
      } else if (pem instanceof PKCS8EncryptedPrivateKeyInfo encrypted) {
        return converter.getPrivateKey(
            encrypted.decryptPrivateKeyInfo(
                new JceOpenSSLPKCS8DecryptorProviderBuilder()
                    .setProvider(BOUNCY_CASTLE)
                    .build(required(password, file))));
      } else if (pem instanceof PEMEncryptedKeyPair encrypted) {
        return converter
            .getKeyPair(
                encrypted.decryptKeyPair(
                    new JcePEMDecryptorProviderBuilder()
                        .setProvider(BOUNCY_CASTLE)
                        .build(required(password, file))))
            .getPrivate();
      }
    } catch (IOException | PKCSException | OperatorCreationException e) {
      // The cause's message may say which step failed; it never holds the key or the password.
      throw new SecurityMaterialException(
          "cannot read the private key in " + file + " (a wrong password?)");
    }
    throw new SecurityMaterialException(file + " does not hold a PEM private key");
  }

  private static char[] required(final char[] password, final Path file) {
    if (password == null) {
      throw new SecurityMaterialException(file + " holds an encrypted key: its password is needed");
    }
    return password;
  }

  /** True when the certificate's public key is the key pair's: signs and verifies a nonce. */
  private static boolean matches(final X509Certificate certificate, final PrivateKey key) {
    final String algorithm =
        switch (key.getAlgorithm()) {
          case "RSA" -> "SHA256withRSA";
          case "EC" -> "SHA256withECDSA";
          case "Ed25519", "EdDSA" -> "Ed25519";
          default -> null;
        };
    if (algorithm == null) {
      return true; // an algorithm this check does not know: TLS's handshake checks it instead
    }
    try {
      final byte[] nonce = "bucketer key check".getBytes(StandardCharsets.UTF_8);
      final Signature signer = Signature.getInstance(algorithm);
      signer.initSign(key);
      signer.update(nonce);
      final byte[] signature = signer.sign();
      final Signature verifier = Signature.getInstance(algorithm);
      verifier.initVerify(certificate.getPublicKey());
      verifier.update(nonce);
      return verifier.verify(signature);
    } catch (GeneralSecurityException e) {
      return false;
    }
  }

  private static KeyStore emptyStore() throws GeneralSecurityException {
    final KeyStore store = KeyStore.getInstance("PKCS12");
    try {
      store.load(null, null);
    } catch (IOException e) {
      throw new GeneralSecurityException("cannot make an empty key store", e);
    }
    return store;
  }
}
