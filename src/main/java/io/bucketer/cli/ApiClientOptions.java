package io.bucketer.cli;

import io.bucketer.security.ClientTls;
import io.bucketer.security.SecurityMaterialException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.Optional;
import javax.net.ssl.SSLContext;
import picocli.CommandLine.Option;

/**
 * How a command authenticates to a processor's HTTP API and trusts its certificate: a user and a
 * password file, or a token file, and a CA file for a private CA. Secrets come from files only,
 * never from the command line, where {@code ps} and shell histories would show them.
 */
final class ApiClientOptions {

  @Option(names = "--user", paramLabel = "NAME", description = "User of the API's users file.")
  String user;

  @Option(
      names = "--password-file",
      paramLabel = "FILE",
      description = "File holding --user's password (its first line).")
  Path passwordFile;

  @Option(
      names = "--token-file",
      paramLabel = "FILE",
      description = "File holding a bearer token (its first line), instead of --user.")
  Path tokenFile;

  @Option(
      names = "--ca-file",
      paramLabel = "FILE",
      description = "PEM bundle of the CA of an https:// --url's certificate, if it is private.")
  Path caFile;

  /** The Authorization header's value, if credentials were given. */
  Optional<String> authorization() {
    if (tokenFile != null) {
      return Optional.of("Bearer " + firstLine(tokenFile));
    }
    if (user != null) {
      if (passwordFile == null) {
        throw new IllegalArgumentException("--user needs --password-file");
      }
      final String pair = user + ":" + firstLine(passwordFile);
      return Optional.of(
          "Basic " + Base64.getEncoder().encodeToString(pair.getBytes(StandardCharsets.UTF_8)));
    }
    return Optional.empty();
  }

  /** The TLS context trusting --ca-file, if it was given. */
  Optional<SSLContext> tls() {
    if (caFile == null) {
      return Optional.empty();
    }
    try {
      return Optional.of(new ClientTls(caFile, null, null, null).context());
    } catch (SecurityMaterialException e) {
      throw new IllegalArgumentException("--ca-file: " + e.getMessage());
    }
  }

  private static String firstLine(final Path file) {
    try {
      return Files.readAllLines(file, StandardCharsets.UTF_8).stream()
          .findFirst()
          .orElse("")
          .strip();
    } catch (IOException e) {
      throw new IllegalArgumentException("cannot read " + file);
    }
  }
}
