package io.bucketer.security;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The lines of a users or tokens file, {@code name:secret[:prefix,prefix...]}, where the secret is
 * a hash (a password's bcrypt or PBKDF2 hash, a token's SHA-256) and the optional prefixes limit
 * the series the entry may see. Blank lines and lines starting with {@code #} are skipped. The
 * first two fields are an htpasswd line, so {@code htpasswd -B} makes a users file's entries.
 */
record CredentialFile(Path path, Map<String, Entry> entries) {

  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._@-]{1,128}");

  /** One line: who, the hash of its secret, and the sensor id prefixes it may see. */
  record Entry(String name, String hash, List<String> prefixes) {}

  /**
   * Reads a file; {@code checkHash} refuses a malformed hash with a message for the operator.
   *
   * @throws SecurityMaterialException naming the file and the line, never quoting a hash
   */
  static CredentialFile read(final Path path, final java.util.function.Consumer<String> checkHash) {
    final List<String> lines;
    try {
      lines = Files.readAllLines(path, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new SecurityMaterialException("cannot read " + path + ": " + e.getMessage());
    }
    final Map<String, Entry> entries = new LinkedHashMap<>();
    for (int i = 0; i < lines.size(); i++) {
      final String line = lines.get(i).strip();
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      final String where = path + " line " + (i + 1);
      final String[] fields = line.split(":", 3);
      if (fields.length < 2 || !NAME.matcher(fields[0]).matches()) {
        throw new SecurityMaterialException(
            where + ": expected name:hash[:prefix,...] with a name of letters, digits, . _ @ -");
      }
      try {
        checkHash.accept(fields[1]);
      } catch (SecurityMaterialException e) {
        throw new SecurityMaterialException(where + ": " + e.getMessage());
      }
      final List<String> prefixes =
          fields.length < 3
              ? List.of()
              : Arrays.stream(fields[2].split(","))
                  .map(String::strip)
                  .filter(p -> !p.isEmpty())
                  .toList();
      if (fields.length == 3 && prefixes.isEmpty()) {
        throw new SecurityMaterialException(
            where + ": an empty prefix list; leave out the third field to allow every series");
      }
      if (entries.put(fields[0], new Entry(fields[0], fields[1], prefixes)) != null) {
        throw new SecurityMaterialException(where + ": " + fields[0] + " is named twice");
      }
    }
    return new CredentialFile(path, entries);
  }

  List<Entry> list() {
    return new ArrayList<>(entries.values());
  }
}
