package io.bucketer.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * The operations endpoints: {@code /metrics} (Prometheus text format), {@code /health} (liveness:
 * 200 unless the processor failed) and {@code /ready} (200 only when it can do its work, else 503
 * with the reason as JSON).
 *
 * <p>Served by the JDK's own {@code com.sun.net.httpserver} (module jdk.httpserver, shipped with
 * every JDK): a few small GET endpoints do not justify a web framework and its dependencies.
 */
public final class OpsServer implements AutoCloseable {

  private static final String PROMETHEUS_TEXT = "text/plain; version=0.0.4; charset=utf-8";
  private static final String JSON = "application/json";
  private static final int OK = 200;
  private static final int NOT_FOUND = 404;
  private static final int UNAVAILABLE = 503;
  private static final int THREADS = 8;
  private static final ObjectMapper STATUS_JSON = new ObjectMapper();

  private final HttpServer server;
  private final ExecutorService threads;

  private OpsServer(final HttpServer server, final ExecutorService threads) {
    this.server = server;
    this.threads = threads;
  }

  /**
   * Starts serving on {@code address} (port 0: a free one).
   *
   * @param scrape the metrics in Prometheus text format
   * @param healthy false once the processor failed and should be restarted
   * @param notReady why the processor cannot do its work now, empty when it can
   */
  public static OpsServer start(
      final InetSocketAddress address,
      final Supplier<String> scrape,
      final BooleanSupplier healthy,
      final Supplier<Optional<String>> notReady) {
    return start(address, scrape, healthy, notReady, Map.of());
  }

  /**
   * As {@link #start(InetSocketAddress, Supplier, BooleanSupplier, Supplier)}, with more handlers
   * by path prefix (the query API).
   */
  public static OpsServer start(
      final InetSocketAddress address,
      final Supplier<String> scrape,
      final BooleanSupplier healthy,
      final Supplier<Optional<String>> notReady,
      final Map<String, HttpHandler> more) {
    final OpsServer server = bind(address);
    server.serve(scrape, healthy, notReady, more);
    return server;
  }

  /**
   * Takes the port without serving yet: the processor must know the port it advertises to the other
   * instances (port 0: a free one) before it starts, and the endpoints need the processor.
   */
  public static OpsServer bind(final InetSocketAddress address) {
    final HttpServer server;
    try {
      server = HttpServer.create(address, 0);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot listen on " + address + " for /metrics", e);
    }
    // A readiness check waiting on MongoDB must not hold up a scrape, and a query forwarded to
    // another instance holds its thread until that instance answers.
    final ExecutorService threads =
        Executors.newFixedThreadPool(
            THREADS,
            task -> {
              final Thread thread = new Thread(task, "bucketer-ops-http");
              thread.setDaemon(true);
              return thread;
            });
    server.setExecutor(threads);
    return new OpsServer(server, threads);
  }

  /** Serves the operations endpoints, and {@code more} handlers by path prefix. */
  public void serve(
      final Supplier<String> scrape,
      final BooleanSupplier healthy,
      final Supplier<Optional<String>> notReady,
      final Map<String, HttpHandler> more) {
    server.createContext(
        "/metrics", exchange -> respond(exchange, "/metrics", OK, PROMETHEUS_TEXT, scrape.get()));
    server.createContext(
        "/health",
        exchange -> {
          final boolean up = healthy.getAsBoolean();
          respond(
              exchange,
              "/health",
              up ? OK : UNAVAILABLE,
              JSON,
              up ? status("UP", null) : status("DOWN", "the processor failed"));
        });
    server.createContext(
        "/ready",
        exchange -> {
          final Optional<String> reason = notReady.get();
          respond(
              exchange,
              "/ready",
              reason.isEmpty() ? OK : UNAVAILABLE,
              JSON,
              reason.map(r -> status("NOT_READY", r)).orElse(status("READY", null)));
        });
    more.forEach(server::createContext);
    server.start();
  }

  /** The port it listens on, the chosen one when started on port 0. */
  public int port() {
    return server.getAddress().getPort();
  }

  @Override
  public void close() {
    server.stop(0);
    threads.shutdownNow();
  }

  /** {@code {"status": ..., "reason": ...}}, the reason left out when there is none. */
  private static String status(final String status, final String reason) {
    final Map<String, String> body = new LinkedHashMap<>();
    body.put("status", status);
    if (reason != null) {
      body.put("reason", reason);
    }
    try {
      return STATUS_JSON.writeValueAsString(body) + "\n";
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a map of strings is always JSON", e);
    }
  }

  /** Answers on the exact path only: a context also matches every path it prefixes. */
  private static void respond(
      final HttpExchange exchange,
      final String path,
      final int status,
      final String contentType,
      final String body)
      throws IOException {
    try (exchange) {
      final boolean exact = exchange.getRequestURI().getPath().equals(path);
      final byte[] bytes = (exact ? body : "not found\n").getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().set("Content-Type", exact ? contentType : "text/plain");
      exchange.sendResponseHeaders(exact ? status : NOT_FOUND, bytes.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(bytes);
      }
    }
  }
}
