package io.bucketer.http;

import java.io.IOException;
import java.io.InputStream;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The chart page of the query API: the static files under {@code io/bucketer/web/} on the class
 * path, served at {@code /ui/}; {@code /} and {@code /ui} redirect to {@code /ui/}, and every other
 * path answers 404.
 *
 * <p>Only plain file names are served ({@code chart.js}, never {@code a/b} or {@code ..}), looked
 * up under one class path folder: nothing else on the class path, or on disk, can be reached.
 */
public final class WebPage implements Endpoint {

  public static final String PATH = "/ui/";
  private static final String RESOURCES = "/io/bucketer/web/";
  private static final String INDEX = "index.html";
  private static final String TEXT = "text/plain; charset=utf-8";
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
  public HttpAnswer answer(final HttpCall call) {
    final String method = call.method();
    if (!"GET".equals(method) && !"HEAD".equals(method)) {
      return HttpAnswer.text(405, TEXT, "only GET and HEAD are served here\n")
          .with("Allow", "GET, HEAD");
    }
    final String path = call.rawPath();
    if ("/".equals(path) || "/ui".equals(path)) {
      // To /ui/, the query kept: relative links in the page resolve against the slash.
      final String query = call.rawQuery();
      return HttpAnswer.text(302, TEXT, "see " + PATH + "\n")
          .with("Location", PATH + (query == null ? "" : "?" + query));
    }
    final Optional<String> name = fileName(path);
    final Optional<byte[]> file = name.flatMap(WebPage::read);
    if (file.isEmpty()) {
      return HttpAnswer.text(404, TEXT, "not found\n");
    }
    final String extension = name.get().substring(name.get().lastIndexOf('.') + 1);
    return new HttpAnswer(
        200,
        CONTENT_TYPES.get(extension),
        Map.of(
            "Content-Security-Policy",
            CONTENT_SECURITY_POLICY,
            // Revalidated each time: after an upgrade the page must not mix old and new scripts.
            "Cache-Control",
            "no-cache"),
        file.get());
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
}
