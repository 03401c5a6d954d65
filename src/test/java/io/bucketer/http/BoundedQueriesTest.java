package io.bucketer.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.bucketer.http.HttpSecurity.Limits;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Queries beyond http.max.concurrent.queries wait briefly, then get 503; probes never wait. */
class BoundedQueriesTest {

  @Test
  void shouldAnswer503BeyondTheConcurrentQueriesWhileTheProbesStillAnswer() throws Exception {
    final CountDownLatch entered = new CountDownLatch(1);
    final CountDownLatch release = new CountDownLatch(1);
    final Endpoint slow =
        call -> {
          entered.countDown();
          try {
            release.await(30, TimeUnit.SECONDS);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
          return HttpAnswer.json(200, Map.of("answered", true));
        };
    final HttpSecurity oneAtATime =
        new HttpSecurity(
            Optional.empty(),
            HttpSecurity.Access.LOOPBACK_ONLY,
            HttpSecurity.MetricsAccess.API,
            new Limits(1, Limits.DEFAULT.maxHeaderBytes(), Limits.DEFAULT.idleTimeout()));
    final HttpClient client = HttpClient.newHttpClient();
    try (OpsServer server = TestServers.serve(oneAtATime, Map.of("/api/v1/series", slow))) {
      final CompletableFuture<HttpResponse<String>> first =
          client.sendAsync(request(server, "/api/v1/series"), HttpResponse.BodyHandlers.ofString());
      assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();

      final HttpResponse<String> second =
          client.send(request(server, "/api/v1/series"), HttpResponse.BodyHandlers.ofString());
      final HttpResponse<String> health =
          client.send(request(server, "/health"), HttpResponse.BodyHandlers.ofString());
      release.countDown();

      assertThat(second.statusCode()).isEqualTo(503);
      assertThat(second.body()).isEqualTo("{\"error\":\"Service Unavailable\"}\n");
      assertThat(health.statusCode()).isEqualTo(200);
      assertThat(first.get(10, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
    }
  }

  private static HttpRequest request(final OpsServer server, final String path) {
    return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path))
        .timeout(Duration.ofSeconds(20))
        .build();
  }
}
