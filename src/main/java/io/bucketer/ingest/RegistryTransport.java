package io.bucketer.ingest;

import dev.failsafe.Failsafe;
import dev.failsafe.FailsafeException;
import dev.failsafe.RetryPolicy;
import io.bucketer.security.ClientTls;
import io.bucketer.security.TlsFailures;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * HTTP to one or more registry URLs. Separates "could not get an answer" (retried within the {@link
 * RetryBudget}, then {@link SchemaRegistryUnavailableException}) from "got an answer", which is
 * returned whatever its status so the client can interpret it. A TLS handshake that fails (the
 * registry's certificate not trusted, ours refused) is not retried: retrying cannot fix it, so it
 * raises {@link SchemaRegistryException} at once, saying why in one line.
 */
final class RegistryTransport {

  private static final Logger LOG = LoggerFactory.getLogger(RegistryTransport.class);
  static final String CONTENT_TYPE = "application/vnd.schemaregistry.v1+json";
  // What Confluent's own client sends; some registries (Karapace) negotiate on it.
  private static final String ACCEPT =
      "application/vnd.schemaregistry.v1+json, application/vnd.schemaregistry+json; qs=0.9,"
          + " application/json; qs=0.5";

  private final List<URI> baseUrls;
  private final Duration requestTimeout;
  private final RetryBudget retry;
  private final RegistryAuth auth;
  private final ClientTls tls;
  private final HttpClient http;
  // Index of the URL that last answered: later calls start there instead of re-failing on a dead
  // one.
  private final AtomicInteger preferred = new AtomicInteger();

  RegistryTransport(
      final String baseUrls,
      final Duration requestTimeout,
      final RetryBudget retry,
      final RegistryAuth auth,
      final Optional<ClientTls> tls) {
    this.baseUrls = parseUrls(baseUrls);
    this.requestTimeout = requestTimeout;
    this.retry = retry;
    this.auth = auth;
    this.tls = tls.orElse(null);
    // HTTP/1.1 explicitly: the default HTTP/2 tries an h2c upgrade that some registries mishandle.
    final HttpClient.Builder http =
        HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(requestTimeout);
    tls.ifPresent(files -> http.sslContext(files.context()));
    this.http = http.build();
  }

  /** The URLs, comma-separated, for messages. */
  String describeUrls() {
    return String.join(", ", baseUrls.stream().map(URI::toString).toList());
  }

  /** Which credentials the requests carry, never the secret. */
  String describeAuth() {
    return auth.describe();
  }

  /** The cause of a failed TLS handshake, if {@code failure} is one. */
  private Optional<String> tlsFailure(final Throwable failure) {
    return TlsFailures.describe(failure, tls);
  }

  /**
   * Sends and returns any non-transient answer; throws once transient failures outlast the budget.
   */
  HttpResponse<String> send(final String method, final String path, final String jsonBody) {
    final AtomicInteger attempts = new AtomicInteger();
    final long start = System.nanoTime();
    final RetryPolicy<HttpResponse<String>> policy =
        RetryPolicy.<HttpResponse<String>>builder()
            .handle(IOException.class)
            .withBackoff(retry.initialBackoff(), retry.maxBackoff())
            .withJitter(0.2) // several stream threads/instances should not retry in lockstep
            .withMaxDuration(retry.total())
            .withMaxRetries(-1)
            .abortOn(failure -> tlsFailure(failure).isPresent())
            .onRetry(
                e ->
                    LOG.warn(
                        "Schema registry {} {} failed (attempt {}), retrying: {}",
                        method,
                        path,
                        e.getAttemptCount(),
                        String.valueOf(e.getLastException())))
            .build();
    try {
      return Failsafe.with(policy)
          .get(
              () -> {
                attempts.incrementAndGet();
                return sendToAnyUrl(method, path, jsonBody);
              });
    } catch (FailsafeException e) {
      if (e.getCause() instanceof InterruptedException) {
        Thread.currentThread().interrupt();
      }
      final Optional<String> handshake = tlsFailure(e.getCause());
      if (handshake.isPresent()) {
        throw new SchemaRegistryException(
            "schema registry " + describeUrls() + ": " + handshake.get(), e.getCause());
      }
      throw new SchemaRegistryUnavailableException(
          String.format(
              "schema registry %s unavailable for %s %s: %d attempt(s) in %d ms, last failure: %s",
              baseUrls,
              method,
              path,
              attempts.get(),
              Duration.ofNanos(System.nanoTime() - start).toMillis(),
              e.getCause()),
          e.getCause());
    }
  }

  /** One attempt: each URL once, starting with the preferred one, until one gives an answer. */
  private HttpResponse<String> sendToAnyUrl(
      final String method, final String path, final String jsonBody)
      throws IOException, InterruptedException {
    final int first = preferred.get();
    IOException failure = null;
    for (int i = 0; i < baseUrls.size(); i++) {
      final int index = (first + i) % baseUrls.size();
      final URI url = URI.create(baseUrls.get(index) + path);
      try {
        final HttpResponse<String> response =
            http.send(request(url, method, jsonBody), HttpResponse.BodyHandlers.ofString());
        if (!isTransient(response.statusCode())) {
          preferred.set(index);
          return response;
        }
        failure = chain(failure, new TransientStatusException(url, response));
      } catch (IOException e) {
        failure = chain(failure, e);
      }
    }
    throw failure;
  }

  private HttpRequest request(final URI url, final String method, final String jsonBody) {
    final HttpRequest.Builder builder =
        HttpRequest.newBuilder(url).timeout(requestTimeout).header("Accept", ACCEPT);
    auth.authorization().ifPresent(value -> builder.header("Authorization", value));
    if (jsonBody == null) {
      return builder.method(method, HttpRequest.BodyPublishers.noBody()).build();
    }
    return builder
        .header("Content-Type", CONTENT_TYPE)
        .method(method, HttpRequest.BodyPublishers.ofString(jsonBody, StandardCharsets.UTF_8))
        .build();
  }

  private static boolean isTransient(final int status) {
    return status >= 500 || status == 429 || status == 408;
  }

  private static IOException chain(final IOException first, final IOException next) {
    if (first == null) {
      return next;
    }
    first.addSuppressed(next);
    return first;
  }

  private static List<URI> parseUrls(final String baseUrls) {
    final List<URI> urls = new ArrayList<>();
    for (String raw : baseUrls.split(",")) {
      String url = raw.trim();
      if (url.isEmpty()) {
        continue;
      }
      while (url.endsWith("/")) {
        url = url.substring(0, url.length() - 1);
      }
      final URI uri = URI.create(url);
      if (uri.getHost() == null
          || !("http".equals(uri.getScheme()) || "https".equals(uri.getScheme()))) {
        throw new IllegalArgumentException("not an http(s) schema registry URL: " + raw);
      }
      urls.add(uri);
    }
    if (urls.isEmpty()) {
      throw new IllegalArgumentException("no schema registry URL in '" + baseUrls + "'");
    }
    return List.copyOf(urls);
  }

  /** A 5xx/429/408 answer, expressed as an IOException so it is retried like a lost connection. */
  private static final class TransientStatusException extends IOException {
    private static final long serialVersionUID = 1L;

    TransientStatusException(final URI url, final HttpResponse<String> response) {
      super("HTTP " + response.statusCode() + " from " + url + ": " + abbreviate(response.body()));
    }

    private static String abbreviate(final String body) {
      return body == null || body.length() <= 200 ? body : body.substring(0, 200) + "...";
    }
  }
}
