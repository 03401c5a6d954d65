package io.bucketer.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bucketer.testing.EncryptedKeys;
import io.bucketer.testing.TestCertificates;
import io.bucketer.testing.TestCertificates.Authority;
import io.bucketer.testing.TestCertificates.Issued;
import io.bucketer.testing.TestCertificates.Purpose;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PemFilesTest {

  private static final char[] ENTRY = "entry".toCharArray();

  @TempDir Path folder;
  private final Authority ca = TestCertificates.ca("test CA");
  private final Issued server = TestCertificates.issue(ca, "server", Purpose.SERVER, "localhost");

  @Test
  void shouldHoldAKeyWithItsChain() throws Exception {
    final KeyStore store =
        PemFiles.keyStore(
            server.writeChain(folder.resolve("chain.pem")),
            server.writeKey(folder.resolve("key.pem")),
            null,
            ENTRY);

    assertThat(store.getKey(PemFiles.KEY_ALIAS, ENTRY)).isEqualTo(server.key());
    assertThat(store.getCertificateChain(PemFiles.KEY_ALIAS))
        .containsExactly(server.certificate(), ca.certificate());
  }

  @Test
  void shouldDecryptAnEncryptedKeyWithItsPasswordOnly() throws Exception {
    final Path chain = server.writeChain(folder.resolve("chain.pem"));
    final Path key =
        EncryptedKeys.write(server.key(), folder.resolve("key.pem"), "k3y-pa55".toCharArray());

    assertThat(Files.readString(key)).contains("BEGIN ENCRYPTED PRIVATE KEY");
    assertThat(
            PemFiles.keyStore(chain, key, "k3y-pa55".toCharArray(), ENTRY)
                .getKey(PemFiles.KEY_ALIAS, ENTRY))
        .isEqualTo(server.key());
    assertThatThrownBy(() -> PemFiles.keyStore(chain, key, "wrong".toCharArray(), ENTRY))
        .isInstanceOf(SecurityMaterialException.class)
        .hasMessageContaining(key.toString())
        .hasMessageContaining("wrong password")
        .hasMessageNotContaining("k3y-pa55");
    assertThatThrownBy(() -> PemFiles.keyStore(chain, key, null, ENTRY))
        .hasMessageContaining("its password is needed");
  }

  @Test
  void shouldRefuseAKeyThatIsNotTheCertificatesNamingBothFiles() {
    final Issued other = TestCertificates.issue(ca, "other", Purpose.SERVER, "localhost");
    final Path chain = server.writeChain(folder.resolve("chain.pem"));
    final Path key = other.writeKey(folder.resolve("other-key.pem"));

    assertThatThrownBy(() -> PemFiles.keyStore(chain, key, null, ENTRY))
        .isInstanceOf(SecurityMaterialException.class)
        .hasMessageContaining(key.toString())
        .hasMessageContaining(chain.toString());
  }

  @Test
  void shouldReadEveryCertificateOfABundle() throws Exception {
    final Authority second = TestCertificates.ca("second CA");
    final Path bundle = folder.resolve("bundle.pem");
    Files.writeString(
        bundle,
        Files.readString(ca.writeBundle(folder.resolve("a.pem")))
            + Files.readString(second.writeBundle(folder.resolve("b.pem"))));

    final KeyStore trust = PemFiles.trustStore(bundle);

    assertThat(trust.size()).isEqualTo(2);
    assertThat(PemFiles.certificates(bundle))
        .extracting(X509Certificate::getSubjectX500Principal)
        .containsExactly(
            ca.certificate().getSubjectX500Principal(),
            second.certificate().getSubjectX500Principal());
  }

  @Test
  void shouldNameAFileThatHoldsNoPemWithoutQuotingIt() throws Exception {
    final Path garbage = Files.writeString(folder.resolve("garbage.pem"), "s3cret garbage");
    final Path missing = folder.resolve("missing.pem");

    assertThatThrownBy(() -> PemFiles.certificates(garbage))
        .isInstanceOf(SecurityMaterialException.class)
        .hasMessageContaining(garbage.toString())
        .hasMessageNotContaining("s3cret");
    assertThatThrownBy(() -> PemFiles.privateKey(garbage, null))
        .hasMessageContaining(garbage.toString())
        .hasMessageNotContaining("s3cret");
    assertThatThrownBy(() -> PemFiles.trustStore(missing)).hasMessageContaining(missing.toString());
  }
}
