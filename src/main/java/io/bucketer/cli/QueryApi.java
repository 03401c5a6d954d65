package io.bucketer.cli;

import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.UnknownHostException;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.channels.UnresolvedAddressException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.StringJoiner;
import javax.net.ssl.SSLContext;

/** The processor's query API, as {@code bucketer query} calls it: one GET, its status and body. */
final class QueryApi {

  private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);
  // A range read may touch thousands of documents on a busy MongoDB: generous, yet bounded.
  private static final Duration ANSWER_TIMEOUT = Duration.ofSeconds(60);

  private final URI base;
  private final Optional<String> authorization;
  private final HttpClient client;

  /**
   * @param base the processor's HTTP address, {@code http://host:8080}
   */
  QueryApi(final URI base) {
    this(base, Optional.empty(), Optional.empty());
  }

  /**
   * @param authorization the Authorization header to send, if any
   * @param tls the TLS context for an https:// base with a private CA; empty: the JVM's
   */
  QueryApi(final URI base, final Optional<String> authorization, final Optional<SSLContext> tls) {
    this.base = base;
    this.authorization = authorization;
    final HttpClient.Builder builder = HttpClient.newBuilder().connectTimeout(CONNECT_TIMEOUT);
    tls.ifPresent(builder::sslContext);
    this.client = builder.build();
  }

  /** What the processor answered; {@code retryAfter} is its Retry-After header, if any. */
  record Answer(int status, String body, Optional<String> retryAfter) {
    boolean ok() {
      return status == 200;
    }
  }

  /** The processor could not be reached, or did not answer in time. */
  static final class UnreachableException extends Exception {
    UnreachableException(final String message, final Throwable cause) {
      super(message, cause);
    }
  }

  /**
   * GETs {@code /api/v1/series/{sensorId}/{resource}}; the sensor id is one path segment however
   * many slashes or spaces it holds.
   */
  Answer getSeries(
      final String sensorId, final String resource, final Map<String, String> parameters)
      throws UnreachableException {
    return get("/api/v1/series/" + encode(sensorId) + "/" + resource, parameters);
  }

  private Answer get(final String path, final Map<String, String> parameters)
      throws UnreachableException {
    final StringJoiner query = new StringJoiner("&", "?", "").setEmptyValue("");
    parameters.forEach((name, value) -> query.add(encode(name) + "=" + encode(value)));
    final URI uri = URI.create(stripTrailingSlash(base.toString()) + path + query);
    final HttpRequest.Builder builder =
        HttpRequest.newBuilder(uri)
            .timeout(ANSWER_TIMEOUT)
            .header("Accept", "application/json")
            .GET();
    authorization.ifPresent(value -> builder.header("Authorization", value));
    final HttpRequest request = builder.build();
    try {
      final HttpResponse<String> response =
          client.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
      return new Answer(
          response.statusCode(), response.body(), response.headers().firstValue("Retry-After"));
    } catch (HttpConnectTimeoutException e) {
      throw new UnreachableException(
          "cannot reach the processor at "
              + base
              + ": no connection within "
              + CONNECT_TIMEOUT.toSeconds()
              + " s",
          e);
    } catch (HttpTimeoutException e) {
      throw new UnreachableException(
          "no answer from the processor at "
              + base
              + " within "
              + ANSWER_TIMEOUT.toSeconds()
              + " s",
          e);
    } catch (IOException e) {
      throw new UnreachableException("cannot reach the processor at " + base + ": " + reason(e), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new UnreachableException("interrupted while asking the processor at " + base, e);
    }
  }

  /**
   * Percent-encoding of one path segment or query value: URLEncoder's form encoding, but a space as
   * %20, since '+' means a plus sign in a path.
   */
  static String encode(final String text) {
    return URLEncoder.encode(text, StandardCharsets.UTF_8).replace("+", "%20");
  }

  private static String stripTrailingSlash(final String url) {
    return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
  }

  /**
   * Why the call failed, in a few words. The JDK's client throws a ConnectException without a
   * message, its cause a message-less UnresolvedAddressException for an unknown host and a
   * ClosedChannelException when nothing listens on the port.
   */
  private static String reason(final IOException failure) {
    String message = null;
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (t instanceof UnresolvedAddressException || t instanceof UnknownHostException) {
        return "unknown host";
      }
      if (message == null && t.getMessage() != null && !t.getMessage().isBlank()) {
        message = t.getMessage();
      }
    }
    if (message != null) {
      return message;
    }
    return failure instanceof ConnectException
        ? "connection refused"
        : failure.getClass().getSimpleName();
  }
}
