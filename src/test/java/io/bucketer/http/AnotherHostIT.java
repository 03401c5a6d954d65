package io.bucketer.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.bucketer.config.BucketerConfig;
import io.bucketer.config.HttpSettings;
import io.bucketer.security.PasswordHashes;
import io.bucketer.testing.AnotherHost;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Requests from another host, for real: a network namespace of the test's own calls a server
 * listening on every interface, as {@code run} does by default. With no security settings only the
 * probes answer it; with credentials, anyone who has them.
 */
@Tag("integration")
// A hung request fails here, after two minutes, instead of holding CI until its limit.
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class AnotherHostIT {

  private static final List<String> DATA = List.of("/api/v1/series", "/ui/", "/metrics");
  private static final Endpoint ECHO_CALLER =
      call -> HttpAnswer.json(200, Map.of("caller", call.caller().name()));

  @TempDir static Path folder;
  private static AnotherHost other;

  @BeforeAll
  static void makeTheOtherHost() {
    other = AnotherHost.create();
  }

  @AfterAll
  static void removeIt() {
    if (other != null) {
      other.close();
    }
  }

  @Test
  void shouldAnswerAnotherHostOnlyOnTheProbesWhenNothingIsConfigured() throws Exception {
    try (OpsServer server = serve(Map.of())) {
      final String base = "http://" + other.hereAddress() + ":" + server.port();

      assertThat(other.get(base + "/health").status()).isEqualTo(200);
      assertThat(other.get(base + "/ready").status()).isEqualTo(200);
      for (final String path : DATA) {
        final AnotherHost.Answer refused = other.get(base + path);
        assertThat(refused.status()).as(path).isEqualTo(403);
        assertThat(refused.body()).as(path).contains("only its own host").doesNotContain("caller");
      }
      // The same paths answer this host.
      for (final String path : DATA) {
        assertThat(local(server, path).statusCode()).as(path).isEqualTo(200);
      }
    }
  }

  @Test
  void shouldAnswerAnotherHostWithCredentials() throws Exception {
    final Path users =
        Files.writeString(
            folder.resolve("users"), "grafana:" + PasswordHashes.bcrypt("pw".toCharArray()) + "\n");
    try (OpsServer server =
        serve(
            Map.of(
                HttpSettings.AUTH_MODE,
                "credentials",
                HttpSettings.AUTH_USERS_FILE,
                users.toString()))) {
      final String base = "http://" + other.hereAddress() + ":" + server.port();

      assertThat(other.get(base + "/api/v1/series").status()).isEqualTo(401);
      assertThat(
              other
                  .get(
                      base + "/api/v1/series",
                      "Authorization: " + AccessGateTest.basic("grafana", "nope"))
                  .status())
          .isEqualTo(401);
      final AnotherHost.Answer allowed =
          other.get(
              base + "/api/v1/series", "Authorization: " + AccessGateTest.basic("grafana", "pw"));
      assertThat(allowed.status()).isEqualTo(200);
      assertThat(allowed.body()).contains("\"caller\":\"grafana\"");
      assertThat(other.get(base + "/health").status()).isEqualTo(200);
      // This host needs them too.
      assertThat(local(server, "/api/v1/series").statusCode()).isEqualTo(401);
    }
  }

  /** A server on every interface, with the security the settings give. */
  private static OpsServer serve(final Map<String, String> settings) {
    final Map<String, Object> all = new HashMap<>(settings);
    all.put("bootstrap.servers", "broker:9092");
    all.put("input.format", "json");
    all.put("mongodb.uri", "mongodb://mongo:27017");
    final HttpSecurity security = new BucketerConfig(all).http().security();
    final OpsServer server = OpsServer.bind(new InetSocketAddress("0.0.0.0", 0), security, r -> {});
    server.serve(
        () -> "bucketer_up 1\n",
        () -> true,
        Optional::empty,
        Map.of(SeriesApi.PATH, ECHO_CALLER, "/", new WebPage()));
    return server;
  }

  private static HttpResponse<String> local(final OpsServer server, final String path)
      throws Exception {
    return HttpClient.newHttpClient()
        .send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path)).build(),
            HttpResponse.BodyHandlers.ofString());
  }
}
