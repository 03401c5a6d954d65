package io.bucketer.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.bucketer.http.HttpSecurity.Access;
import io.bucketer.http.HttpSecurity.AuthMode;
import io.bucketer.security.ApiCredentials;
import io.bucketer.security.Caller;
import io.bucketer.security.PasswordHashes;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Who the gate lets in. "Another host" is an address handed to the gate: tests never send requests
 * to this machine's other addresses.
 */
class AccessGateTest {

  private static final String PEER_TOKEN = "peer-token-shared-by-all-instances";
  private static final String GRAFANA_TOKEN = "grafana-token-0123456789abcdef";

  @TempDir Path folder;
  private final List<String> failures = new ArrayList<>();
  private InetAddress loopback;
  private InetAddress loopbackV6;
  private InetAddress otherHost;

  @BeforeEach
  void addresses() throws Exception {
    loopback = InetAddress.getByName("127.0.0.1");
    loopbackV6 = InetAddress.getByName("::1");
    otherHost = InetAddress.getByName("10.20.30.40");
  }

  @Test
  void shouldLetInOnlyThisHostByDefault() {
    final AccessGate gate = new AccessGate(Access.LOOPBACK_ONLY, failures::add);

    assertThat(gate.decide(loopback, Optional.empty())).isInstanceOf(AccessGate.Allowed.class);
    assertThat(gate.decide(loopbackV6, Optional.empty())).isInstanceOf(AccessGate.Allowed.class);
    final AccessGate.Decision remote = gate.decide(otherHost, Optional.empty());
    assertThat(remote).isInstanceOf(AccessGate.Refused.class);
    assertThat(((AccessGate.Refused) remote).answer().status()).isEqualTo(403);
    assertThat(new String(((AccessGate.Refused) remote).answer().body(), StandardCharsets.UTF_8))
        .contains("only its own host");
    // A token is no way in without a peer token configured.
    assertThat(gate.decide(otherHost, Optional.of("Bearer " + PEER_TOKEN)))
        .isInstanceOf(AccessGate.Refused.class);
    assertThat(failures).containsExactly("missing", "invalid");
  }

  @Test
  void shouldLetInAnotherInstanceWithThePeerToken() {
    final AccessGate gate =
        new AccessGate(
            new Access(AuthMode.LOOPBACK, Optional.empty(), Optional.of(PEER_TOKEN)),
            failures::add);

    assertThat(gate.decide(otherHost, Optional.of("Bearer " + PEER_TOKEN)))
        .isEqualTo(new AccessGate.Allowed(Caller.unrestricted("peer")));
    assertThat(gate.decide(otherHost, Optional.of("Bearer " + PEER_TOKEN + "x")))
        .isInstanceOf(AccessGate.Refused.class);
    assertThat(gate.decide(otherHost, Optional.of(basic("peer", PEER_TOKEN))))
        .isInstanceOf(AccessGate.Refused.class);
  }

  @Test
  void shouldAnswerEveryWrongOrMissingCredentialWithTheSame401() throws Exception {
    final AccessGate gate = new AccessGate(Access.withCredentials(credentials()), failures::add);
    final List<Optional<String>> wrong =
        List.of(
            Optional.empty(),
            Optional.of(basic("alice", "wrong")),
            Optional.of(basic("nobody", "alice-pw")),
            Optional.of(basic("alice", "")),
            Optional.of("Basic !!!not-base64"),
            Optional.of("Bearer " + GRAFANA_TOKEN + "0"),
            Optional.of("Bearer "),
            Optional.of("Digest username=alice"));

    final List<HttpAnswer> answers = new ArrayList<>();
    for (final Optional<String> authorization : wrong) {
      // From this host too: with credentials configured, nobody is let in without them.
      final AccessGate.Decision decision = gate.decide(loopback, authorization);
      assertThat(decision).as(authorization.toString()).isInstanceOf(AccessGate.Refused.class);
      answers.add(((AccessGate.Refused) decision).answer());
    }

    assertThat(answers)
        .allSatisfy(
            answer -> {
              assertThat(answer.status()).isEqualTo(401);
              assertThat(answer.headers().get("WWW-Authenticate"))
                  .isEqualTo(
                      "Basic realm=\"bucketer\", charset=\"UTF-8\", Bearer realm=\"bucketer\"");
              assertThat(answer.body()).isEqualTo(answers.get(0).body());
            });
    assertThat(failures).first().isEqualTo("missing");
    assertThat(failures).hasSize(wrong.size()).filteredOn("invalid"::equals).hasSize(7);
  }

  @Test
  void shouldLetInAUserOrATokenAsItsCaller() throws Exception {
    final AccessGate gate = new AccessGate(Access.withCredentials(credentials()), failures::add);

    assertThat(gate.decide(otherHost, Optional.of(basic("alice", "alice-pw"))))
        .isEqualTo(new AccessGate.Allowed(new Caller("alice", List.of("plant-a/"))));
    assertThat(gate.decide(otherHost, Optional.of("bearer " + GRAFANA_TOKEN)))
        .isEqualTo(new AccessGate.Allowed(Caller.unrestricted("grafana")));
    assertThat(failures).isEmpty();
  }

  @Test
  void shouldLetInAnyoneWhenOpen() {
    final AccessGate gate = new AccessGate(Access.OPEN, failures::add);

    assertThat(gate.decide(otherHost, Optional.empty())).isInstanceOf(AccessGate.Allowed.class);
  }

  private ApiCredentials credentials() throws Exception {
    final Path users =
        Files.writeString(
            folder.resolve("users"),
            "alice:" + PasswordHashes.bcrypt("alice-pw".toCharArray()) + ":plant-a/\n");
    final Path tokens =
        Files.writeString(
            folder.resolve("tokens"),
            ApiCredentials.tokenLine("grafana", GRAFANA_TOKEN, List.of()));
    return ApiCredentials.load(users, tokens);
  }

  static String basic(final String user, final String password) {
    return "Basic "
        + Base64.getEncoder()
            .encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
  }
}
