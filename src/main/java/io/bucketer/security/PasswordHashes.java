package io.bucketer.security;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;
import org.bouncycastle.crypto.generators.OpenBSDBCrypt;

/**
 * Password hashes in the forms other tools write, so that a users file can be made with the tools a
 * team already has: bcrypt ({@code $2a$}, {@code $2b$}, {@code $2y$}: {@code htpasswd -B}, Python's
 * bcrypt, Prometheus' web config) and PBKDF2-HMAC-SHA256 in passlib's form ({@code
 * $pbkdf2-sha256$<rounds>$<salt>$<hash>}, for sites where only FIPS algorithms are allowed). Both
 * compare in constant time. Plain text is never accepted.
 */
public final class PasswordHashes {

  /** bcrypt's cost for new hashes: about 50 ms on a server core today. */
  public static final int BCRYPT_COST = 10;

  /** PBKDF2 rounds for new hashes: OWASP's 2023 advice for PBKDF2-HMAC-SHA256. */
  public static final int PBKDF2_ROUNDS = 600_000;

  private static final String PBKDF2_PREFIX = "$pbkdf2-sha256$";
  private static final SecureRandom RANDOM = new SecureRandom();

  private PasswordHashes() {}

  /** A new bcrypt hash of {@code password}, with a random salt. */
  public static String bcrypt(final char[] password) {
    final byte[] salt = new byte[16];
    RANDOM.nextBytes(salt);
    return OpenBSDBCrypt.generate("2y", password, salt, BCRYPT_COST);
  }

  /** A new PBKDF2-HMAC-SHA256 hash of {@code password} in passlib's form, with a random salt. */
  public static String pbkdf2(final char[] password) {
    final byte[] salt = new byte[16];
    RANDOM.nextBytes(salt);
    return PBKDF2_PREFIX
        + PBKDF2_ROUNDS
        + "$"
        + adaptedBase64(salt)
        + "$"
        + adaptedBase64(pbkdf2(password, salt, PBKDF2_ROUNDS, 32));
  }

  /**
   * Whether {@code hash} is a form this class checks.
   *
   * @throws SecurityMaterialException naming the form, when it is plain text or unknown
   */
  public static void checkForm(final String hash) {
    if (isBcrypt(hash)) {
      return;
    }
    if (hash.startsWith(PBKDF2_PREFIX) && hash.split("\\$").length == 5) {
      return;
    }
    throw new SecurityMaterialException(
        "not a bcrypt ($2y$...) or PBKDF2 ($pbkdf2-sha256$...) hash: passwords are never kept in"
            + " plain text (make one with: bucketer auth hash-password)");
  }

  /** True when {@code password} is the one {@code hash} was made from; false for any bad form. */
  public static boolean matches(final String hash, final char[] password) {
    if (isBcrypt(hash)) {
      try {
        return OpenBSDBCrypt.checkPassword(hash, password);
      } catch (IllegalArgumentException e) {
        return false;
      }
    }
    final String[] parts = hash.split("\\$");
    if (!hash.startsWith(PBKDF2_PREFIX) || parts.length != 5) {
      return false;
    }
    try {
      final int rounds = Integer.parseInt(parts[2]);
      final byte[] salt = fromAdaptedBase64(parts[3]);
      final byte[] expected = fromAdaptedBase64(parts[4]);
      return MessageDigest.isEqual(expected, pbkdf2(password, salt, rounds, expected.length));
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  private static boolean isBcrypt(final String hash) {
    return hash.length() == 60
        && (hash.startsWith("$2a$") || hash.startsWith("$2b$") || hash.startsWith("$2y$"));
  }

  private static byte[] pbkdf2(
      final char[] password, final byte[] salt, final int rounds, final int bytes) {
    try {
      final PBEKeySpec spec = new PBEKeySpec(password, salt, rounds, bytes * 8);
      try {
        return SecretKeyFactory.getInstance("PBKDF2WithHmacSHA256")
            .generateSecret(spec)
            .getEncoded();
      } finally {
        spec.clearPassword();
      }
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("every Java 17 runtime has PBKDF2WithHmacSHA256", e);
    }
  }

  /** passlib's "adapted base64": standard base64 with '.' for '+' and no padding. */
  private static String adaptedBase64(final byte[] bytes) {
    return Base64.getEncoder().withoutPadding().encodeToString(bytes).replace('+', '.');
  }

  private static byte[] fromAdaptedBase64(final String text) {
    return Base64.getDecoder().decode(text.replace('.', '+').getBytes(StandardCharsets.US_ASCII));
  }
}
