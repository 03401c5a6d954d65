package io.bucketer.security;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * The users (name and password hash) and bearer tokens (name and the token's SHA-256) allowed to
 * call the data API, each with the series prefixes it may see. Read from files, and read again by
 * {@link #reload()} when they change, so that a password or token is added or revoked without a
 * restart.
 *
 * <p>Every comparison takes the same time whether the name exists or not, and whatever the secret's
 * first differing byte.
 */
public final class ApiCredentials {

  private static final Pattern SHA_256_HEX = Pattern.compile("[0-9a-f]{64}");

  /** Checked for a name that does not exist, so that its answer takes as long as a real one. */
  private static final String ABSENT_USER_HASH =
      PasswordHashes.bcrypt("no such user".toCharArray());

  /** Most remembered password checks; the map is emptied when it is full. */
  private static final int MAX_REMEMBERED = 1_024;

  private final Path usersFile;
  private final Path tokensFile;
  private volatile Files files;

  /**
   * bcrypt's cost is the point of it, but a dashboard sending the same password every few seconds
   * must not pay it each time: a password once checked is remembered by a keyed digest of the name
   * and password (the key is random per process, so the digest is no offline oracle) with the hash
   * it matched. A changed or removed hash no longer matches what is remembered.
   */
  private final Map<String, String> checkedPasswords = new ConcurrentHashMap<>();

  private final byte[] rememberKey = new byte[32];

  private record Files(CredentialFile users, CredentialFile tokens) {}

  private ApiCredentials(final Path usersFile, final Path tokensFile) {
    this.usersFile = usersFile;
    this.tokensFile = tokensFile;
    new SecureRandom().nextBytes(rememberKey);
    this.files = read();
  }

  /**
   * Reads the files, either of which may be null (none of that kind).
   *
   * @throws SecurityMaterialException naming the file and the line at fault
   */
  public static ApiCredentials load(final Path usersFile, final Path tokensFile) {
    return new ApiCredentials(usersFile, tokensFile);
  }

  /** The files read, for watching them. */
  public List<Path> files() {
    return java.util.stream.Stream.of(usersFile, tokensFile)
        .filter(java.util.Objects::nonNull)
        .toList();
  }

  public boolean acceptsPasswords() {
    return usersFile != null;
  }

  public boolean acceptsTokens() {
    return tokensFile != null;
  }

  /**
   * Reads the files again. When one is malformed the ones read before stay in force.
   *
   * @throws SecurityMaterialException naming the file and the line at fault
   */
  public void reload() {
    files = read();
    checkedPasswords.clear();
  }

  private Files read() {
    return new Files(
        usersFile == null ? null : CredentialFile.read(usersFile, PasswordHashes::checkForm),
        tokensFile == null
            ? null
            : CredentialFile.read(tokensFile, ApiCredentials::checkTokenHash));
  }

  /** The caller a user name and password are, if they match an entry of the users file. */
  public Optional<Caller> password(final String user, final char[] password) {
    final CredentialFile users = files.users();
    if (users == null) {
      return Optional.empty();
    }
    final CredentialFile.Entry entry = users.entries().get(user);
    final String hash = entry == null ? ABSENT_USER_HASH : entry.hash();
    final String remembered = rememberKey(user, password);
    final boolean matches =
        hash.equals(checkedPasswords.get(remembered)) || PasswordHashes.matches(hash, password);
    if (!matches || entry == null) {
      return Optional.empty();
    }
    if (checkedPasswords.size() >= MAX_REMEMBERED) {
      checkedPasswords.clear();
    }
    checkedPasswords.put(remembered, hash);
    return Optional.of(new Caller(entry.name(), entry.prefixes()));
  }

  /** The caller a bearer token is, if its SHA-256 is in the tokens file. */
  public Optional<Caller> token(final String token) {
    final CredentialFile tokens = files.tokens();
    if (tokens == null) {
      return Optional.empty();
    }
    final byte[] presented =
        HexFormat.of()
            .formatHex(sha256(token.getBytes(StandardCharsets.UTF_8)))
            .getBytes(StandardCharsets.US_ASCII);
    CredentialFile.Entry found = null;
    // Every entry is compared, in constant time each: the answer's timing says nothing of which.
    for (final CredentialFile.Entry entry : tokens.list()) {
      if (MessageDigest.isEqual(presented, entry.hash().getBytes(StandardCharsets.US_ASCII))) {
        found = entry;
      }
    }
    return found == null
        ? Optional.empty()
        : Optional.of(new Caller(found.name(), found.prefixes()));
  }

  /** The line of a tokens file for a token: {@code name:<sha-256 hex>[:prefixes]}. */
  public static String tokenLine(
      final String name, final String token, final List<String> prefixes) {
    return name
        + ":"
        + HexFormat.of().formatHex(sha256(token.getBytes(StandardCharsets.UTF_8)))
        + (prefixes.isEmpty() ? "" : ":" + String.join(",", prefixes));
  }

  private static void checkTokenHash(final String hash) {
    if (!SHA_256_HEX.matcher(hash).matches()) {
      throw new SecurityMaterialException(
          "not a token's SHA-256 in lower-case hex: tokens are never kept in plain text (make"
              + " one with: bucketer auth new-token)");
    }
  }

  private String rememberKey(final String user, final char[] password) {
    final ByteBuffer secret = StandardCharsets.UTF_8.encode(CharBuffer.wrap(password));
    final byte[] bytes = new byte[secret.remaining()];
    secret.get(bytes);
    try {
      final MessageDigest digest = MessageDigest.getInstance("SHA-256");
      digest.update(rememberKey);
      digest.update(user.getBytes(StandardCharsets.UTF_8));
      digest.update((byte) 0);
      digest.update(bytes);
      return HexFormat.of().formatHex(digest.digest());
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java runtime has SHA-256", e);
    } finally {
      java.util.Arrays.fill(bytes, (byte) 0);
    }
  }

  private static byte[] sha256(final byte[] bytes) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(bytes);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java runtime has SHA-256", e);
    }
  }
}
