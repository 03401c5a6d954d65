package io.bucketer.http;

import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;

/**
 * Passes a query on to the instance that holds its series, and its answer back as it is: the client
 * sees one API whichever instance it asks. A forwarded request carries {@link #HEADER}, and is
 * never forwarded again, so two instances that disagree during a rebalance cannot bounce it.
 */
final class QueryForwarder {

  static final String HEADER = "X-Bucketer-Forwarded-By";
  static final String SERVED_BY = "X-Bucketer-Served-By";
  private static final List<String> RELAYED = List.of("Content-Type", "Retry-After", SERVED_BY);

  private final HttpClient client;
  private final String self;
  private final Duration timeout;

  QueryForwarder(final String self, final Duration timeout) {
    this.self = self;
    this.timeout = timeout;
    this.client = HttpClient.newBuilder().connectTimeout(timeout).build();
  }

  static boolean wasForwarded(final HttpExchange exchange) {
    return exchange.getRequestHeaders().containsKey(HEADER);
  }

  void forward(final HttpExchange exchange, final String host, final int port) throws IOException {
    final URI original = exchange.getRequestURI();
    final URI target =
        URI.create(
            "http://"
                + host
                + ":"
                + port
                + original.getRawPath()
                + (original.getRawQuery() == null ? "" : "?" + original.getRawQuery()));
    final HttpRequest request =
        HttpRequest.newBuilder(target).timeout(timeout).header(HEADER, self).GET().build();
    final HttpResponse<byte[]> answer;
    try {
      answer = client.send(request, HttpResponse.BodyHandlers.ofByteArray());
    } catch (IOException e) {
      JsonResponses.error(
          exchange,
          502,
          "the instance holding this series, " + host + ":" + port + ", did not answer: " + e);
      return;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      JsonResponses.error(exchange, 503, "interrupted while asking " + host + ":" + port);
      return;
    }
    for (final String header : RELAYED) {
      answer
          .headers()
          .firstValue(header)
          .ifPresent(v -> exchange.getResponseHeaders().set(header, v));
    }
    JsonResponses.respond(
        exchange,
        answer.statusCode(),
        answer.headers().firstValue("Content-Type").orElse("application/json"),
        answer.body());
  }
}
