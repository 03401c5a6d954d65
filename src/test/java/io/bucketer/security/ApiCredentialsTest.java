package io.bucketer.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ApiCredentialsTest {

  @TempDir Path folder;

  @Test
  void shouldKnowAUserByItsPasswordWithItsPrefixes() throws Exception {
    final Path users =
        Files.writeString(
            folder.resolve("users"),
            "# who may read\n\nalice:"
                + PasswordHashes.bcrypt("alice-pw".toCharArray())
                + ":plant-a/,plant-c/\nbob:"
                + PasswordHashes.pbkdf2("bob-pw".toCharArray())
                + "\n");
    final ApiCredentials credentials = ApiCredentials.load(users, null);

    assertThat(credentials.password("alice", "alice-pw".toCharArray()))
        .hasValue(new Caller("alice", List.of("plant-a/", "plant-c/")));
    assertThat(credentials.password("bob", "bob-pw".toCharArray()))
        .hasValue(Caller.unrestricted("bob"));
    assertThat(credentials.password("alice", "bob-pw".toCharArray())).isEmpty();
    assertThat(credentials.password("carol", "alice-pw".toCharArray())).isEmpty();
    assertThat(credentials.token("alice-pw")).isEmpty();
    // Remembered once checked, and still refused with another password.
    assertThat(credentials.password("alice", "alice-pw".toCharArray())).isPresent();
    assertThat(credentials.password("alice", "alice-pw2".toCharArray())).isEmpty();
  }

  @Test
  void shouldKnowATokenByItsDigest() throws Exception {
    final String token = "k3WlKx0a9Wc3bX7yVZ0mQ1Yv";
    final Path tokens =
        Files.writeString(
            folder.resolve("tokens"),
            ApiCredentials.tokenLine("grafana", token, List.of("plant-a/")) + "\n");
    final ApiCredentials credentials = ApiCredentials.load(null, tokens);

    assertThat(Files.readString(tokens)).doesNotContain(token);
    assertThat(credentials.token(token)).hasValue(new Caller("grafana", List.of("plant-a/")));
    assertThat(credentials.token(token + "x")).isEmpty();
    assertThat(credentials.password("grafana", token.toCharArray())).isEmpty();
  }

  @Test
  void shouldTakeAChangedPasswordAndARevokedTokenOnReload() throws Exception {
    final Path users = folder.resolve("users");
    final Path tokens = folder.resolve("tokens");
    Files.writeString(users, "alice:" + PasswordHashes.bcrypt("old".toCharArray()) + "\n");
    Files.writeString(tokens, ApiCredentials.tokenLine("ci", "token-of-ci-0123456789", List.of()));
    final ApiCredentials credentials = ApiCredentials.load(users, tokens);
    assertThat(credentials.password("alice", "old".toCharArray())).isPresent();

    Files.writeString(users, "alice:" + PasswordHashes.bcrypt("new".toCharArray()) + "\n");
    Files.writeString(tokens, "");
    credentials.reload();

    assertThat(credentials.password("alice", "old".toCharArray())).isEmpty();
    assertThat(credentials.password("alice", "new".toCharArray())).isPresent();
    assertThat(credentials.token("token-of-ci-0123456789")).isEmpty();
  }

  @Test
  void shouldNameTheFileAndLineOfAMalformedEntryWithoutQuotingIt() throws Exception {
    final Path users =
        Files.writeString(folder.resolve("users"), "# users\nalice:plain-text-password\n");
    final Path tokens = Files.writeString(folder.resolve("tokens"), "ci:not-a-digest\n");
    final Path twice =
        Files.writeString(
            folder.resolve("twice"),
            "a:"
                + PasswordHashes.pbkdf2("x".toCharArray())
                + "\na:"
                + PasswordHashes.pbkdf2("y".toCharArray())
                + "\n");

    assertThatThrownBy(() -> ApiCredentials.load(users, null))
        .isInstanceOf(SecurityMaterialException.class)
        .hasMessageContaining(users + " line 2")
        .hasMessageContaining("plain text")
        .hasMessageNotContaining("plain-text-password");
    assertThatThrownBy(() -> ApiCredentials.load(null, tokens))
        .hasMessageContaining(tokens + " line 1")
        .hasMessageNotContaining("not-a-digest");
    assertThatThrownBy(() -> ApiCredentials.load(twice, null))
        .hasMessageContaining("line 2")
        .hasMessageContaining("named twice");
  }

  @Test
  void shouldKeepTheEntriesInForceWhenAReloadFindsAMalformedFile() throws Exception {
    final Path users = folder.resolve("users");
    Files.writeString(users, "alice:" + PasswordHashes.pbkdf2("pw".toCharArray()) + "\n");
    final ApiCredentials credentials = ApiCredentials.load(users, null);

    Files.writeString(users, "alice\n");

    assertThatThrownBy(credentials::reload).isInstanceOf(SecurityMaterialException.class);
    assertThat(credentials.password("alice", "pw".toCharArray())).isPresent();
  }
}
