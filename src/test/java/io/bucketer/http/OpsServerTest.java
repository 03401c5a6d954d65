package io.bucketer.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class OpsServerTest {

  private final AtomicBoolean healthy = new AtomicBoolean(true);
  private final AtomicReference<Optional<String>> notReady =
      new AtomicReference<>(Optional.empty());
  private final HttpClient client = HttpClient.newHttpClient();
  private OpsServer server;

  @BeforeEach
  void start() {
    server =
        OpsServer.start(
            new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
            () -> "# TYPE up gauge\nup 1.0\n",
            healthy::get,
            notReady::get);
  }

  @AfterEach
  void stop() {
    server.close();
  }

  @Test
  void shouldServeTheScrapeAsPrometheusText() throws Exception {
    final HttpResponse<String> response = get("/metrics");

    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.body()).isEqualTo("# TYPE up gauge\nup 1.0\n");
    assertThat(response.headers().firstValue("Content-Type"))
        .hasValue("text/plain; version=0.0.4; charset=utf-8");
  }

  @Test
  void shouldReportHealthUpUntilTheProcessorFails() throws Exception {
    assertThat(get("/health").statusCode()).isEqualTo(200);

    healthy.set(false);

    final HttpResponse<String> failed = get("/health");
    assertThat(failed.statusCode()).isEqualTo(503);
    assertThat(failed.body()).contains("\"status\":\"DOWN\"");
  }

  @Test
  void shouldAnswerReady503WithTheReasonAsJson() throws Exception {
    assertThat(get("/ready").statusCode()).isEqualTo(200);

    notReady.set(Optional.of("MongoDB does not answer \"ping\""));

    final HttpResponse<String> response = get("/ready");
    assertThat(response.statusCode()).isEqualTo(503);
    assertThat(response.body())
        .isEqualTo(
            "{\"status\":\"NOT_READY\",\"reason\":\"MongoDB does not answer \\\"ping\\\"\"}\n");
  }

  @Test
  void shouldAnswerOnlyTheExactPaths() throws Exception {
    assertThat(get("/readyz").statusCode()).isEqualTo(404);
    assertThat(get("/").statusCode()).isEqualTo(404);
  }

  private HttpResponse<String> get(final String path) throws Exception {
    return client.send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path)).build(),
        HttpResponse.BodyHandlers.ofString());
  }
}
