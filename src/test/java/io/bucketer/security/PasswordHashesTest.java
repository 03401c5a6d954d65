package io.bucketer.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class PasswordHashesTest {

  /** OpenBSD's own test vector, as htpasswd and Python's bcrypt check it. */
  private static final String OPENBSD_VECTOR =
      "$2a$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW";

  /**
   * Made outside Java, by Python's hashlib.pbkdf2_hmac('sha256', b'correct horse',
   * b'bucketer-salt-16', 1000) in passlib's form.
   */
  private static final String PASSLIB_VECTOR =
      "$pbkdf2-sha256$1000$YnVja2V0ZXItc2FsdC0xNg$ooo9ai26lT47WwSq8Gs.UHQPTq1jt1M3ScGAAWpeo3c";

  @Test
  void shouldCheckBcryptHashesMadeByOtherTools() {
    assertThat(PasswordHashes.matches(OPENBSD_VECTOR, "U*U".toCharArray())).isTrue();
    assertThat(PasswordHashes.matches(OPENBSD_VECTOR, "U*V".toCharArray())).isFalse();
  }

  @Test
  void shouldCheckPbkdf2HashesInPasslibsForm() {
    assertThat(PasswordHashes.matches(PASSLIB_VECTOR, "correct horse".toCharArray())).isTrue();
    assertThat(PasswordHashes.matches(PASSLIB_VECTOR, "correct horse!".toCharArray())).isFalse();
  }

  @Test
  void shouldMakeHashesThatMatchTheirPasswordOnly() {
    final String bcrypt = PasswordHashes.bcrypt("s3cret".toCharArray());
    final String pbkdf2 = PasswordHashes.pbkdf2("s3cret".toCharArray());

    assertThat(bcrypt).startsWith("$2y$10$").hasSize(60);
    assertThat(pbkdf2).startsWith("$pbkdf2-sha256$600000$");
    for (final String hash : new String[] {bcrypt, pbkdf2}) {
      PasswordHashes.checkForm(hash);
      assertThat(PasswordHashes.matches(hash, "s3cret".toCharArray())).isTrue();
      assertThat(PasswordHashes.matches(hash, "s3cret ".toCharArray())).isFalse();
    }
    assertThat(PasswordHashes.bcrypt("s3cret".toCharArray())).isNotEqualTo(bcrypt);
  }

  @Test
  void shouldRefusePlainTextAndUnknownForms() {
    for (final String notAHash : new String[] {"s3cret", "$1$abc$def", "{SHA}abc", ""}) {
      assertThatThrownBy(() -> PasswordHashes.checkForm(notAHash))
          .isInstanceOf(SecurityMaterialException.class)
          .hasMessageContaining("plain text")
          .hasMessageNotContaining(notAHash.isEmpty() ? "\u0000" : notAHash);
      assertThat(PasswordHashes.matches(notAHash, notAHash.toCharArray())).isFalse();
    }
  }
}
