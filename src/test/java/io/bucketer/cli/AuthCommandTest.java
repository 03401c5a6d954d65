package io.bucketer.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.bucketer.security.ApiCredentials;
import io.bucketer.security.Caller;
import io.bucketer.security.PasswordHashes;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class AuthCommandTest {

  @TempDir Path folder;
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  @Test
  void shouldPrintAHashOfThePasswordOnStandardInput() {
    assertThat(executeWithInput("correct horse\n", "auth", "hash-password")).isZero();
    final String bcrypt = out.toString().strip();
    out.getBuffer().setLength(0);
    assertThat(executeWithInput("correct horse\n", "auth", "hash-password", "--pbkdf2")).isZero();
    final String pbkdf2 = out.toString().strip();

    assertThat(bcrypt).startsWith("$2y$");
    assertThat(pbkdf2).startsWith("$pbkdf2-sha256$");
    for (final String hash : List.of(bcrypt, pbkdf2)) {
      assertThat(hash).doesNotContain("correct horse");
      assertThat(PasswordHashes.matches(hash, "correct horse".toCharArray())).isTrue();
    }
    assertThat(executeWithInput("", "auth", "hash-password")).isEqualTo(1);
  }

  @Test
  void shouldPrintATokenAndTheTokensFileLineThatAcceptsIt() throws Exception {
    assertThat(execute("auth", "new-token", "--name", "grafana", "--prefix", "plant-a/")).isZero();

    final List<String> lines = out.toString().lines().toList();
    assertThat(lines).hasSize(2);
    final String token = lines.get(0);
    assertThat(token).hasSizeGreaterThanOrEqualTo(40);
    assertThat(lines.get(1)).startsWith("grafana:").doesNotContain(token).endsWith(":plant-a/");
    final Path tokens = Files.writeString(folder.resolve("tokens"), lines.get(1) + "\n");
    assertThat(ApiCredentials.load(null, tokens).token(token))
        .hasValue(new Caller("grafana", List.of("plant-a/")));
  }

  private int executeWithInput(final String input, final String... args) {
    final InputStream before = System.in;
    System.setIn(new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8)));
    try {
      return execute(args);
    } finally {
      System.setIn(before);
    }
  }

  private int execute(final String... args) {
    final CommandLine commandLine = BucketerCli.commandLine();
    commandLine.setOut(new PrintWriter(out, true));
    commandLine.setErr(new PrintWriter(err, true));
    return commandLine.execute(args);
  }
}
