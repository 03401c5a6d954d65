package io.bucketer.cli;

import io.bucketer.security.ApiCredentials;
import io.bucketer.security.PasswordHashes;
import java.io.BufferedReader;
import java.io.Console;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code bucketer auth}: makes the entries of the HTTP API's users and tokens files. */
@Command(
    name = "auth",
    mixinStandardHelpOptions = true,
    description = "Makes entries of the files http.auth.users.file and http.auth.tokens.file.",
    subcommands = {AuthCommand.HashPassword.class, AuthCommand.NewToken.class})
final class AuthCommand implements Runnable {

  @Spec CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  /** {@code bucketer auth hash-password}: a password's hash, for a users file. */
  @Command(
      name = "hash-password",
      mixinStandardHelpOptions = true,
      description = {
        "Reads a password (asked for without echo on a terminal, else the first line of the"
            + " standard input) and prints its hash for a users file line name:hash[:prefixes].",
        "bcrypt by default; --pbkdf2 for PBKDF2-HMAC-SHA256 where only FIPS algorithms are allowed."
      })
  static final class HashPassword implements Callable<Integer> {

    @Spec CommandSpec spec;

    @Option(names = "--pbkdf2", description = "PBKDF2-HMAC-SHA256 instead of bcrypt.")
    boolean pbkdf2;

    @Override
    public Integer call() throws IOException {
      final char[] password = readPassword();
      if (password == null || password.length == 0) {
        spec.commandLine().getErr().println("bucketer auth hash-password: no password given");
        return 1;
      }
      try {
        spec.commandLine()
            .getOut()
            .println(pbkdf2 ? PasswordHashes.pbkdf2(password) : PasswordHashes.bcrypt(password));
        return 0;
      } finally {
        Arrays.fill(password, '\0');
      }
    }

    private static char[] readPassword() throws IOException {
      final Console console = System.console();
      if (console != null) {
        return console.readPassword("password: ");
      }
      final String line =
          new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
      return line == null ? null : line.toCharArray();
    }
  }

  /** {@code bucketer auth new-token}: a random bearer token and its tokens file line. */
  @Command(
      name = "new-token",
      mixinStandardHelpOptions = true,
      description = {
        "Makes a random bearer token. Prints the token (line 1: give it to the client, it is"
            + " not kept anywhere) and the line for the tokens file (line 2: its SHA-256)."
      })
  static final class NewToken implements Callable<Integer> {

    private static final SecureRandom RANDOM = new SecureRandom();

    @Spec CommandSpec spec;

    @Option(names = "--name", required = true, description = "Who the token is for: grafana.")
    String name;

    @Option(
        names = "--prefix",
        paramLabel = "PREFIX",
        description = "A sensor id prefix the token may see; repeat for several; none: all.")
    List<String> prefixes = List.of();

    @Override
    public Integer call() {
      final byte[] random = new byte[32];
      RANDOM.nextBytes(random);
      final String token = Base64.getUrlEncoder().withoutPadding().encodeToString(random);
      spec.commandLine().getOut().println(token);
      spec.commandLine().getOut().println(ApiCredentials.tokenLine(name, token, prefixes));
      return 0;
    }
  }
}
