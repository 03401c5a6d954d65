package io.bucketer.http;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Map;

/** JSON bodies of the query API, and its errors: {@code {"error": "..."}}. */
final class JsonResponses {

  private static final ObjectMapper JSON = new ObjectMapper();

  private JsonResponses() {}

  static void respond(final HttpExchange exchange, final int status, final Object body)
      throws IOException {
    respond(exchange, status, "application/json", JSON.writeValueAsBytes(body));
  }

  static void error(final HttpExchange exchange, final int status, final String message)
      throws IOException {
    respond(exchange, status, Map.of("error", message));
  }

  static void respond(
      final HttpExchange exchange, final int status, final String contentType, final byte[] body)
      throws IOException {
    exchange.getResponseHeaders().set("Content-Type", contentType);
    exchange.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(body);
    }
  }
}
