package io.bucketer.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What an endpoint answers: a status, headers and a body, built in memory (the answers are small)
 * and written by the server. Error bodies are {@code {"error": "..."}} with a message for the
 * client, never an exception's name or message.
 */
public record HttpAnswer(int status, String contentType, Map<String, String> headers, byte[] body) {

  static final String JSON = "application/json";
  private static final ObjectMapper MAPPER = new ObjectMapper();

  public HttpAnswer {
    headers = Map.copyOf(headers);
  }

  /** {@code body} as JSON. */
  public static HttpAnswer json(final int status, final Object body) {
    try {
      return new HttpAnswer(status, JSON, Map.of(), MAPPER.writeValueAsBytes(body));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("the API's answers are maps, lists and numbers", e);
    }
  }

  public static HttpAnswer error(final int status, final String message) {
    return json(status, Map.of("error", message));
  }

  public static HttpAnswer text(final int status, final String contentType, final String text) {
    return new HttpAnswer(status, contentType, Map.of(), text.getBytes(StandardCharsets.UTF_8));
  }

  /** The same answer with one more header. */
  public HttpAnswer with(final String header, final String value) {
    final Map<String, String> more = new LinkedHashMap<>(headers);
    more.put(header, value);
    return new HttpAnswer(status, contentType, more, body);
  }
}
