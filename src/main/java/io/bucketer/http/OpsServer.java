package io.bucketer.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.bucketer.http.HttpSecurity.MetricsAccess;
import io.bucketer.security.WatchedFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.eclipse.jetty.http.UriCompliance;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.SecureRequestCustomizer;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.SslConnectionFactory;
import org.eclipse.jetty.server.handler.QoSHandler;
import org.eclipse.jetty.server.handler.SizeLimitHandler;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * The processor's one HTTP listener, on Jetty: the operations endpoints ({@code /metrics}
 * Prometheus text, {@code /health} liveness, {@code /ready} readiness with its reason), and the
 * data endpoints (the query API, the chart page) behind the {@link AccessGate}.
 *
 * <p>Jetty rather than the JDK's own server (used before): TLS with a certificate renewed in place,
 * client certificates, limits on request headers and idle connections, and bounded concurrency
 * ({@link QoSHandler}) are all Jetty's, well kept and tested. Jetty stays inside this class and
 * {@link JettyAdapter}: the endpoints see only {@link HttpCall} and answer {@link HttpAnswer}.
 */
public final class OpsServer implements AutoCloseable {

  static final String PROMETHEUS_TEXT = "text/plain; version=0.0.4; charset=utf-8";
  private static final int MAX_THREADS = 32;
  private static final long MAX_BODY_BYTES = 16_384;

  /** How often the users and tokens files are checked: a revoked token stops working this soon. */
  private static final Duration CREDENTIALS_CHECK = Duration.ofSeconds(5);

  private static final ObjectMapper STATUS_JSON = new ObjectMapper();

  private final Server server;
  private final ServerConnector connector;
  private final HttpSecurity security;
  private final TlsMaterial tls;
  private final Consumer<String> authFailures;
  private final WatchedFiles credentialFiles;

  private OpsServer(
      final Server server,
      final ServerConnector connector,
      final HttpSecurity security,
      final TlsMaterial tls,
      final Consumer<String> authFailures) {
    this.server = server;
    this.connector = connector;
    this.security = security;
    this.tls = tls;
    this.authFailures = authFailures;
    this.credentialFiles =
        security
            .access()
            .credentials()
            .map(
                credentials ->
                    WatchedFiles.watch(
                        credentials.files(),
                        CREDENTIALS_CHECK,
                        "the API's users and tokens",
                        credentials::reload))
            .orElse(null);
  }

  /** Starts serving on {@code address} (port 0: a free one), with the default security. */
  public static OpsServer start(
      final InetSocketAddress address,
      final Supplier<String> scrape,
      final BooleanSupplier healthy,
      final Supplier<Optional<String>> notReady) {
    final OpsServer server = bind(address, HttpSecurity.DEFAULT, reason -> {});
    server.serve(scrape, healthy, notReady, Map.of());
    return server;
  }

  /**
   * Takes the port without serving yet: the processor must know the port it advertises to the other
   * instances (port 0: a free one) before it starts, and the endpoints need the processor.
   *
   * @param authFailures told of each request the gate refused: {@code missing} or {@code invalid}
   * @throws io.bucketer.security.SecurityMaterialException when the TLS files cannot be used
   */
  public static OpsServer bind(
      final InetSocketAddress address,
      final HttpSecurity security,
      final Consumer<String> authFailures) {
    final QueuedThreadPool threads = new QueuedThreadPool(MAX_THREADS, 4);
    threads.setName("bucketer-http");
    threads.setDaemon(true);
    final Server server = new Server(threads);
    server.setErrorHandler(new JsonErrorHandler());
    final HttpConfiguration http = new HttpConfiguration();
    http.setSendServerVersion(false);
    http.setSendXPoweredBy(false);
    http.setRequestHeaderSize(security.limits().maxHeaderBytes());
    // A sensor id may hold a '/', percent-encoded in the path as %2F: allowed, and never decoded
    // before the API splits the path (WebPage accepts only plain file names).
    http.setUriCompliance(
        UriCompliance.DEFAULT.with(
            "bucketer",
            UriCompliance.Violation.AMBIGUOUS_PATH_SEPARATOR,
            UriCompliance.Violation.AMBIGUOUS_PATH_ENCODING));
    final TlsMaterial tls = security.tls().map(TlsMaterial::load).orElse(null);
    final ServerConnector connector;
    if (tls == null) {
      connector = new ServerConnector(server, new HttpConnectionFactory(http));
    } else {
      final SecureRequestCustomizer secure = new SecureRequestCustomizer();
      // One certificate, no virtual hosts: a client asking by IP address sends no matching name.
      secure.setSniHostCheck(false);
      secure.setStsMaxAge(365L * 24 * 3600);
      http.addCustomizer(secure);
      connector =
          new ServerConnector(
              server,
              new SslConnectionFactory(tls.serverFactory(), "http/1.1"),
              new HttpConnectionFactory(http));
    }
    connector.setHost(address.getHostString());
    connector.setPort(address.getPort());
    connector.setIdleTimeout(security.limits().idleTimeout().toMillis());
    server.addConnector(connector);
    try {
      connector.open();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot listen on " + address + " for HTTP", e);
    }
    return new OpsServer(server, connector, security, tls, authFailures);
  }

  /**
   * Serves the operations endpoints (each on its exact path), and the data endpoints by path prefix
   * (the longest that matches), behind the access gate.
   */
  public void serve(
      final Supplier<String> scrape,
      final BooleanSupplier healthy,
      final Supplier<Optional<String>> notReady,
      final Map<String, Endpoint> data) {
    final Map<String, Endpoint> open = new LinkedHashMap<>();
    open.put(
        "/health",
        call ->
            healthy.getAsBoolean()
                ? status(200, "UP", null)
                : status(503, "DOWN", "the processor failed"));
    open.put(
        "/ready",
        call ->
            notReady
                .get()
                .map(reason -> status(503, "NOT_READY", reason))
                .orElseGet(() -> status(200, "READY", null)));
    final Endpoint metrics = call -> HttpAnswer.text(200, PROMETHEUS_TEXT, scrape.get());
    final Map<String, Endpoint> gated = new LinkedHashMap<>();
    if (security.metrics() == MetricsAccess.OPEN) {
      open.put("/metrics", metrics);
    } else if (security.metrics() == MetricsAccess.API) {
      gated.put("/metrics", metrics);
    }
    final List<Map.Entry<String, Endpoint>> byPrefix =
        data.entrySet().stream()
            .sorted(
                Comparator.comparing((Map.Entry<String, Endpoint> e) -> e.getKey().length())
                    .reversed())
            .toList();
    final JettyAdapter adapter =
        new JettyAdapter(
            open, gated, byPrefix, new AccessGate(security.access(), authFailures), tls != null);
    final QoSHandler bounded = new QoSHandler(adapter);
    bounded.setMaxRequestCount(security.limits().maxConcurrentQueries());
    bounded.setMaxSuspend(Duration.ofSeconds(2));
    bounded.excludePath("/health", "/ready", "/metrics");
    // No endpoint takes a body: anything beyond a small one is refused (413) before it is read.
    final SizeLimitHandler limited = new SizeLimitHandler(MAX_BODY_BYTES, -1);
    limited.setHandler(bounded);
    server.setHandler(limited);
    try {
      server.start();
    } catch (Exception e) {
      throw new IllegalStateException("cannot start the HTTP server", e);
    }
  }

  /** The port it listens on, the chosen one when started on port 0. */
  public int port() {
    return connector.getLocalPort();
  }

  /** Checks the TLS files for a renewal now rather than at the next interval: for tests. */
  void checkTlsRenewal() {
    if (tls != null) {
      tls.checkForRenewal();
    }
  }

  /** How this instance reaches the others to forward a query: its scheme, trust and peer token. */
  public PeerAccess peerAccess() {
    return new PeerAccess(tls == null ? null : tls::peerContext, security.access().peerToken());
  }

  @Override
  public void close() {
    try {
      server.stop();
    } catch (Exception e) {
      throw new IllegalStateException("cannot stop the HTTP server", e);
    } finally {
      if (tls != null) {
        tls.close();
      }
      if (credentialFiles != null) {
        credentialFiles.close();
      }
    }
  }

  /** {@code {"status": ..., "reason": ...}}, the reason left out when there is none. */
  private static HttpAnswer status(final int code, final String status, final String reason) {
    final Map<String, String> body = new LinkedHashMap<>();
    body.put("status", status);
    if (reason != null) {
      body.put("reason", reason);
    }
    try {
      return new HttpAnswer(
          code,
          HttpAnswer.JSON,
          Map.of(),
          (STATUS_JSON.writeValueAsString(body) + "\n").getBytes(StandardCharsets.UTF_8));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a map of strings is always JSON", e);
    }
  }
}
