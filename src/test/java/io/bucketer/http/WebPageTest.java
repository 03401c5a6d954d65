package io.bucketer.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class WebPageTest {

  private static final HttpClient CLIENT = HttpClient.newHttpClient();
  private static OpsServer server;

  @BeforeAll
  static void serve() throws IOException {
    server = TestServers.serve(Map.of("/", new WebPage()));
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  @Test
  void shouldServeThePageAtUi() throws Exception {
    final HttpResponse<String> response = get("/ui/?sensor=sensor-0001&granularity=1m");

    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.headers().firstValue("Content-Type")).hasValue("text/html; charset=utf-8");
    assertThat(response.headers().firstValue("X-Content-Type-Options")).hasValue("nosniff");
    assertThat(response.headers().firstValue("Content-Security-Policy"))
        .hasValueSatisfying(policy -> assertThat(policy).startsWith("default-src 'self'"));
    assertThat(response.body()).contains("<svg id=\"plot\"").contains("page.js");
  }

  @ParameterizedTest
  @CsvSource({
    "page.js, text/javascript; charset=utf-8",
    "chart.js, text/javascript; charset=utf-8",
    "api.js, text/javascript; charset=utf-8",
    "summary.js, text/javascript; charset=utf-8",
    "time.js, text/javascript; charset=utf-8",
    "chart.css, text/css; charset=utf-8",
    "index.html, text/html; charset=utf-8"
  })
  void shouldServeEachFileWithItsContentType(final String file, final String contentType)
      throws Exception {
    final HttpResponse<String> response = get("/ui/" + file);

    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.headers().firstValue("Content-Type")).hasValue(contentType);
    assertThat(response.body()).isNotBlank();
  }

  @ParameterizedTest
  @CsvSource({"/, /ui/", "/ui, /ui/", "'/?sensor=a%20b&metric=t', '/ui/?sensor=a%20b&metric=t'"})
  void shouldRedirectToThePageKeepingTheQuery(final String path, final String location)
      throws Exception {
    final HttpResponse<String> response = get(path);

    assertThat(response.statusCode()).isEqualTo(302);
    assertThat(response.headers().firstValue("Location")).hasValue(location);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "/ui/missing.js",
        "/ui/../pom.xml",
        "/ui/..%2fpom.xml",
        "/ui/%2e%2e%2f%2e%2e%2flogback.xml",
        "/ui/..",
        "/ui/.hidden.js",
        "/ui/sub/index.html",
        "/ui/logback.xml",
        "/ui/WebPage.class",
        "/ui/INDEX.HTML",
        "/uix",
        "/metricsx"
      })
  void shouldAnswerNotFoundForAnythingButAFileOfThePage(final String path) throws Exception {
    final HttpResponse<String> response = get(path);

    assertThat(response.statusCode()).as(path).isEqualTo(404);
    assertThat(response.body()).isEqualTo("not found\n");
  }

  /** Paths the server refuses before any endpoint sees them: dot segments, empty segments. */
  @ParameterizedTest
  @ValueSource(strings = {"/ui/%2e%2e/pom.xml", "/ui//etc/passwd"})
  void shouldRefuseAmbiguousPathsAsBadRequests(final String path) throws Exception {
    final HttpResponse<String> response = get(path);

    assertThat(response.statusCode()).as(path).isEqualTo(400);
    assertThat(response.body()).isEqualTo("{\"error\":\"Bad Request\"}\n");
  }

  @Test
  void shouldFindOnlyPlainNamesInThePagesFolder() {
    assertThat(WebPage.fileName("/ui/")).hasValue("index.html");
    assertThat(WebPage.fileName("/ui/chart.js")).hasValue("chart.js");
    assertThat(WebPage.fileName("/ui/a/chart.js")).isEmpty();
    assertThat(WebPage.fileName("/ui/..%2Fchart.js")).isEmpty();
    assertThat(WebPage.fileName("/other/chart.js")).isEmpty();
  }

  @Test
  void shouldAnswerHeadWithoutABodyAndRefuseOtherMethods() throws Exception {
    final HttpResponse<String> head =
        CLIENT.send(
            request("/ui/chart.css").method("HEAD", HttpRequest.BodyPublishers.noBody()).build(),
            HttpResponse.BodyHandlers.ofString());
    final HttpResponse<String> post =
        CLIENT.send(
            request("/ui/").POST(HttpRequest.BodyPublishers.ofString("x")).build(),
            HttpResponse.BodyHandlers.ofString());

    assertThat(head.statusCode()).isEqualTo(200);
    assertThat(head.headers().firstValue("Content-Type")).hasValue("text/css; charset=utf-8");
    assertThat(head.body()).isEmpty();
    assertThat(post.statusCode()).isEqualTo(405);
    assertThat(post.headers().firstValue("Allow")).hasValue("GET, HEAD");
  }

  private static HttpResponse<String> get(final String path) throws Exception {
    return CLIENT.send(request(path).build(), HttpResponse.BodyHandlers.ofString());
  }

  private static HttpRequest.Builder request(final String path) {
    return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path));
  }
}
