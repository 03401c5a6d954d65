package io.bucketer.testing;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.CertIOException;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.bouncycastle.util.io.pem.PemObject;

/**
 * Certificate authorities and certificates made by a test, for TLS between its own clients and
 * servers (a SASL_SSL broker, an HTTPS endpoint), written as the PEM files servers and clients
 * read: a certificate chain, an unencrypted PKCS#8 key, a CA bundle, or a key store of both.
 *
 * <p>EC P-256 keys: generated in milliseconds, where RSA keys take a noticeable share of a short
 * test. Certificates are valid from an hour ago (clock skew between processes) for a day.
 */
public final class TestCertificates {

  /** What an issued certificate may be used for: its extended key usage. */
  public enum Purpose {
    SERVER(KeyPurposeId.id_kp_serverAuth),
    CLIENT(KeyPurposeId.id_kp_clientAuth),
    SERVER_AND_CLIENT(KeyPurposeId.id_kp_serverAuth, KeyPurposeId.id_kp_clientAuth);

    private final KeyPurposeId[] usages;

    Purpose(final KeyPurposeId... usages) {
      this.usages = usages;
    }
  }

  /** A self-signed certificate authority. */
  public record Authority(String name, X509Certificate certificate, PrivateKey key) {

    /** Writes the CA's certificate as a PEM bundle, the form trust stores and clients read. */
    public Path writeBundle(final Path file) {
      return write(file, pem(List.of(certificate)));
    }
  }

  /** A certificate, its private key, and the chain up to (not including) the CA. */
  public record Issued(X509Certificate certificate, PrivateKey key, Authority issuer) {

    /** The certificate, then its issuer's: the chain a server presents. */
    public List<X509Certificate> chain() {
      return List.of(certificate, issuer.certificate());
    }

    /** Writes the certificate chain as PEM. */
    public Path writeChain(final Path file) {
      return write(file, pem(chain()));
    }

    /** Writes the private key as unencrypted PKCS#8 PEM ({@code BEGIN PRIVATE KEY}). */
    public Path writeKey(final Path file) {
      return write(file, pem(List.of(pkcs8(key))));
    }

    /**
     * Writes the key, then the chain, into one PEM file: Kafka's PEM key store ({@code
     * ssl.keystore.type=PEM}, KIP-651).
     */
    public Path writeKeyStore(final Path file) {
      final List<Object> objects = new ArrayList<>();
      objects.add(pkcs8(key));
      objects.addAll(chain());
      return write(file, pem(objects));
    }
  }

  private static final String SIGNATURE = "SHA256withECDSA";
  private static final SecureRandom RANDOM = new SecureRandom();

  private TestCertificates() {}

  /** A new certificate authority whose subject is {@code CN=<name>}. */
  public static Authority ca(final String name) {
    final KeyPair keys = newKeyPair();
    final X500Name subject = new X500Name("CN=" + name);
    try {
      final JcaX509ExtensionUtils extensions = new JcaX509ExtensionUtils();
      final X509v3CertificateBuilder builder =
          builder(subject, subject, keys)
              .addExtension(Extension.basicConstraints, true, new BasicConstraints(0))
              .addExtension(
                  Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign))
              .addExtension(
                  Extension.subjectKeyIdentifier,
                  false,
                  extensions.createSubjectKeyIdentifier(keys.getPublic()));
      return new Authority(name, sign(builder, keys.getPrivate()), keys.getPrivate());
    } catch (CertIOException | GeneralSecurityException e) {
      throw new IllegalStateException("cannot make CA " + name, e);
    }
  }

  /**
   * A certificate for {@code commonName} signed by {@code ca}, for {@code purpose}, whose subject
   * alternative names are {@code names}: IP addresses (such as 127.0.0.1) as IP entries, anything
   * else as DNS names.
   */
  public static Issued issue(
      final Authority ca, final String commonName, final Purpose purpose, final String... names) {
    final KeyPair keys = newKeyPair();
    try {
      final JcaX509ExtensionUtils extensions = new JcaX509ExtensionUtils();
      final X509v3CertificateBuilder builder =
          builder(
                  new X500Name(ca.certificate().getSubjectX500Principal().getName()),
                  new X500Name("CN=" + commonName),
                  keys)
              .addExtension(Extension.basicConstraints, true, new BasicConstraints(false))
              .addExtension(
                  Extension.keyUsage,
                  true,
                  new KeyUsage(KeyUsage.digitalSignature | KeyUsage.keyAgreement))
              .addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(purpose.usages))
              .addExtension(
                  Extension.authorityKeyIdentifier,
                  false,
                  extensions.createAuthorityKeyIdentifier(ca.certificate()))
              .addExtension(Extension.subjectAlternativeName, false, alternativeNames(names));
      return new Issued(sign(builder, ca.key()), keys.getPrivate(), ca);
    } catch (CertIOException | GeneralSecurityException e) {
      throw new IllegalStateException("cannot issue a certificate for " + commonName, e);
    }
  }

  /**
   * A server's TLS context: it shows {@code certificate} and trusts client certificates from {@code
   * clientCa} (whether it demands one is the server's setting).
   */
  public static SSLContext serverContext(final Issued certificate, final Authority clientCa) {
    final char[] inMemory = "in-memory".toCharArray();
    try {
      final KeyStore keys = KeyStore.getInstance("PKCS12");
      keys.load(null, null);
      keys.setKeyEntry(
          "server", certificate.key(), inMemory, certificate.chain().toArray(new Certificate[0]));
      final KeyManagerFactory keyManagers =
          KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
      keyManagers.init(keys, inMemory);
      final KeyStore trusted = KeyStore.getInstance("PKCS12");
      trusted.load(null, null);
      trusted.setCertificateEntry("client-ca", clientCa.certificate());
      final TrustManagerFactory trustManagers =
          TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      trustManagers.init(trusted);
      final SSLContext context = SSLContext.getInstance("TLS");
      context.init(keyManagers.getKeyManagers(), trustManagers.getTrustManagers(), null);
      return context;
    } catch (IOException | GeneralSecurityException e) {
      throw new IllegalStateException("cannot make a server TLS context", e);
    }
  }

  private static GeneralNames alternativeNames(final String... names) {
    final GeneralName[] general = new GeneralName[names.length];
    for (int i = 0; i < names.length; i++) {
      general[i] =
          isIpAddress(names[i])
              ? new GeneralName(GeneralName.iPAddress, names[i])
              : new GeneralName(GeneralName.dNSName, names[i]);
    }
    return new GeneralNames(general);
  }

  private static boolean isIpAddress(final String name) {
    if (!name.matches("[0-9.]+|.*:.*")) {
      return false;
    }
    try {
      // a literal address: no lookup is made for it
      InetAddress.getByName(name);
      return true;
    } catch (UnknownHostException e) {
      return false;
    }
  }

  private static X509v3CertificateBuilder builder(
      final X500Name issuer, final X500Name subject, final KeyPair keys) {
    final Instant now = Instant.now();
    return new JcaX509v3CertificateBuilder(
        issuer,
        new BigInteger(64, RANDOM),
        Date.from(now.minus(Duration.ofHours(1))),
        Date.from(now.plus(Duration.ofDays(1))),
        subject,
        keys.getPublic());
  }

  private static X509Certificate sign(
      final X509v3CertificateBuilder builder, final PrivateKey signer)
      throws GeneralSecurityException {
    try {
      return new JcaX509CertificateConverter()
          .getCertificate(builder.build(new JcaContentSignerBuilder(SIGNATURE).build(signer)));
    } catch (OperatorCreationException e) {
      throw new GeneralSecurityException(e);
    }
  }

  private static KeyPair newKeyPair() {
    try {
      final KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
      generator.initialize(new ECGenParameterSpec("secp256r1"), RANDOM);
      return generator.generateKeyPair();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("no EC P-256 key generator in this JVM", e);
    }
  }

  /** The JDK encodes private keys as PKCS#8 already: only the PEM armour is added. */
  private static PemObject pkcs8(final PrivateKey key) {
    return new PemObject("PRIVATE KEY", key.getEncoded());
  }

  private static String pem(final List<?> objects) {
    final StringWriter text = new StringWriter();
    try (JcaPEMWriter writer = new JcaPEMWriter(text)) {
      for (final Object object : objects) {
        if (object instanceof PemObject generator) {
          writer.writeObject(generator);
        } else {
          writer.writeObject(object);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return text.toString();
  }

  private static Path write(final Path file, final String text) {
    try {
      Files.createDirectories(file.toAbsolutePath().getParent());
      return Files.writeString(file, text);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + file, e);
    }
  }
}
