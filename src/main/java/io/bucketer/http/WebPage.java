package io.bucketer.http;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The chart page of the query API: the static files under {@code io/bucketer/web/} on the class
 * path, served at {@code /ui/}; {@code /} and {@code /ui} redirect to {@code /ui/}. Register it for
 * {@code /} to have that redirect (the JDK server gives it every path no other context claims, and
 * it answers 404 for those), or for {@link #PATH} alone.
 *
 * <p>Only plain file names are served ({@code chart.js}, never {@code a/b} or {@code ..}), looked
 * up under one class path folder: nothing else on the class path, or on disk, can be reached.
 */
public final class WebPage implements HttpHandler {

  public static final String PATH = "/ui/";
  private static final String RESOURCES = "/io/bucketer/web/";
  private static final String INDEX = "index.html";
  private static final Pattern FILE_NAME =
      Pattern.compile("[a-z0-9][a-z0-9_-]*\\.(html|js|css|svg|png|ico)");
  private static final Map<String, String> CONTENT_TYPES =
      Map.of(
          "html", "text/html; charset=utf-8",
          "js", "text/javascript; charset=utf-8",
          "css", "text/css; charset=utf-8",
          "svg", "image/svg+xml",
          "png", "image/png",
          "ico", "image/x-icon");
  // The page loads nothing from elsewhere: a closed network has no elsewhere, and a CSP that says
  // so keeps it that way (and blunts any injected markup).
  private static final String CONTENT_SECURITY_POLICY =
      "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none';"
          + " frame-ancestors 'none'";

  @Override
  public void handle(final HttpExchange exchange) throws IOException {
    try (exchange) {
      final String method = exchange.getRequestMethod();
      if (!"GET".equals(method) && !"HEAD".equals(method)) {
        exchange.getResponseHeaders().set("Allow", "GET, HEAD");
        sendText(exchange, 405, "only GET and HEAD are served here\n");
        return;
      }
      final String path = exchange.getRequestURI().getRawPath();
      if ("/".equals(path) || "/ui".equals(path)) {
        redirectToPage(exchange);
        return;
      }
      final Optional<String> name = fileName(path);
      final Optional<byte[]> file = name.flatMap(WebPage::read);
      if (file.isEmpty()) {
        sendText(exchange, 404, "not found\n");
        return;
      }
      final String extension = name.get().substring(name.get().lastIndexOf('.') + 1);
      exchange.getResponseHeaders().set("Content-Type", CONTENT_TYPES.get(extension));
      exchange.getResponseHeaders().set("X-Content-Type-Options", "nosniff");
      exchange.getResponseHeaders().set("Content-Security-Policy", CONTENT_SECURITY_POLICY);
      // Revalidated each time: after an upgrade the page must not mix old and new scripts.
      exchange.getResponseHeaders().set("Cache-Control", "no-cache");
      send(exchange, 200, file.get());
    }
  }

  /** The file a path names, if it is {@code /ui/} (the index) or {@code /ui/<plain name>}. */
  static Optional<String> fileName(final String rawPath) {
    if (!rawPath.startsWith(PATH)) {
      return Optional.empty();
    }
    final String rest = rawPath.substring(PATH.length());
    if (rest.isEmpty()) {
      return Optional.of(INDEX);
    }
    final Matcher matcher = FILE_NAME.matcher(rest);
    return matcher.matches() ? Optional.of(rest) : Optional.empty();
  }

  private static Optional<byte[]> read(final String name) {
    try (InputStream in = WebPage.class.getResourceAsStream(RESOURCES + name)) {
      return in == null ? Optional.empty() : Optional.of(in.readAllBytes());
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  /** To {@code /ui/}, the query kept: relative links in the page resolve against the slash. */
  private static void redirectToPage(final HttpExchange exchange) throws IOException {
    final String query = exchange.getRequestURI().getRawQuery();
    exchange.getResponseHeaders().set("Location", PATH + (query == null ? "" : "?" + query));
    sendText(exchange, 302, "see " + PATH + "\n");
  }

  private static void sendText(final HttpExchange exchange, final int status, final String text)
      throws IOException {
    exchange.getResponseHeaders().set("Content-Type", "text/plain; charset=utf-8");
    send(exchange, status, text.getBytes(StandardCharsets.UTF_8));
  }

  private static void send(final HttpExchange exchange, final int status, final byte[] body)
      throws IOException {
    final boolean head = "HEAD".equals(exchange.getRequestMethod());
    exchange.sendResponseHeaders(status, head ? -1 : body.length);
    if (!head) {
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(body);
      }
    }
  }
}
