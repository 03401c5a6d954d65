package io.bucketer.testing;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.PrivateKey;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.bouncycastle.openssl.PKCS8Generator;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.openssl.jcajce.JcaPKCS8Generator;
import org.bouncycastle.openssl.jcajce.JceOpenSSLPKCS8EncryptorBuilder;
import org.bouncycastle.operator.OperatorCreationException;

/**
 * Private keys written as encrypted PKCS#8 PEM ({@code BEGIN ENCRYPTED PRIVATE KEY}), as openssl
 * does.
 */
public final class EncryptedKeys {

  private EncryptedKeys() {}

  public static Path write(final PrivateKey key, final Path file, final char[] password) {
    final StringWriter text = new StringWriter();
    try (JcaPEMWriter writer = new JcaPEMWriter(text)) {
      writer.writeObject(
          new JcaPKCS8Generator(
              key,
              new JceOpenSSLPKCS8EncryptorBuilder(PKCS8Generator.AES_256_CBC)
                  .setProvider(new BouncyCastleProvider())
                  .setPassword(password)
                  .build()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (OperatorCreationException e) {
      throw new IllegalStateException("no AES-256-CBC in this JVM", e);
    }
    try {
      return Files.writeString(file, text.toString());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + file, e);
    }
  }
}
