package io.bucketer.testing;

import java.net.URI;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the chart page ({@code /ui/}) drew, read back from its DOM in headless Chromium: each
 * bucket's figures (the page's {@code rect.bucket} elements and their data-* attributes), the
 * status ({@code #status}: ready, or error with the message), the statistics shown under the chart
 * and the page's own link to itself. For tests against a stub of the API or a real processor:
 * {@code new ChartPageReader(new HeadlessChromium()).read(URI.create("http://host:8080/ui/?..."))}.
 *
 * <p>Regular expressions over Chromium's serialization suffice: it quotes every attribute value
 * with double quotes and escapes {@code & " < >} inside them, so no {@code >} ends a tag early.
 */
public final class ChartPageReader {

  private static final Pattern BUCKET =
      Pattern.compile("<rect\\b[^>]*\\bclass=\"bucket(?: open)?\"[^>]*>");
  private static final Pattern STATUS = Pattern.compile("<p\\b[^>]*\\bid=\"status\"[^>]*>");
  private static final Pattern PERMALINK = Pattern.compile("<a\\b[^>]*\\bid=\"permalink\"[^>]*>");
  private static final Pattern STATISTIC =
      Pattern.compile("<dd\\b[^>]*\\bdata-field=\"([^\"]*)\"[^>]*>([^<]*)</dd>");
  private static final Pattern ATTRIBUTE =
      Pattern.compile("([A-Za-z_:][-A-Za-z0-9_:.]*)=\"([^\"]*)\"");

  private final HeadlessChromium chromium;

  public ChartPageReader(final HeadlessChromium chromium) {
    this.chromium = chromium;
  }

  /** One bucket as the page drew it. */
  public record DrawnBucket(
      Instant start, Instant end, long count, double min, double avg, double max, boolean open) {}

  /**
   * The page once its scripts settled.
   *
   * @param state {@code ready}, {@code error}, {@code loading} or {@code idle}
   * @param message what the status line says: the error's message when {@code error}
   * @param statistics the figures under the chart by API field name, as shown ({@code 3,600})
   * @param permalink the page's link to itself, its state in the query
   */
  public record ChartPage(
      String state,
      String message,
      List<DrawnBucket> buckets,
      Map<String, String> statistics,
      String permalink) {

    public boolean ready() {
      return "ready".equals(state);
    }
  }

  /** Opens {@code page} in headless Chromium and reads what it drew. */
  public ChartPage read(final URI page) {
    return parse(chromium.dumpDom(page));
  }

  /** Reads a DOM as Chromium's --dump-dom serializes it. */
  public static ChartPage parse(final String dom) {
    final Map<String, String> status =
        first(STATUS, dom)
            .orElseThrow(() -> new IllegalArgumentException("no #status in the page: " + dom));
    final List<DrawnBucket> buckets = new ArrayList<>();
    final Matcher bucket = BUCKET.matcher(dom);
    while (bucket.find()) {
      buckets.add(drawnBucket(attributes(bucket.group())));
    }
    final Map<String, String> statistics = new LinkedHashMap<>();
    final Matcher statistic = STATISTIC.matcher(dom);
    while (statistic.find()) {
      statistics.put(unescape(statistic.group(1)), unescape(statistic.group(2)));
    }
    return new ChartPage(
        status.getOrDefault("data-state", ""),
        status.getOrDefault("data-message", ""),
        buckets,
        statistics,
        first(PERMALINK, dom).map(link -> link.getOrDefault("href", "")).orElse(""));
  }

  private static DrawnBucket drawnBucket(final Map<String, String> attributes) {
    return new DrawnBucket(
        Instant.parse(required(attributes, "data-start")),
        Instant.parse(required(attributes, "data-end")),
        Long.parseLong(required(attributes, "data-count")),
        Double.parseDouble(required(attributes, "data-min")),
        Double.parseDouble(required(attributes, "data-avg")),
        Double.parseDouble(required(attributes, "data-max")),
        Boolean.parseBoolean(required(attributes, "data-open")));
  }

  private static String required(final Map<String, String> attributes, final String name) {
    final String value = attributes.get(name);
    if (value == null) {
      throw new IllegalArgumentException("a drawn bucket without " + name + ": " + attributes);
    }
    return value;
  }

  private static Optional<Map<String, String>> first(final Pattern tag, final String dom) {
    final Matcher matcher = tag.matcher(dom);
    return matcher.find() ? Optional.of(attributes(matcher.group())) : Optional.empty();
  }

  private static Map<String, String> attributes(final String tag) {
    final Map<String, String> attributes = new HashMap<>();
    final Matcher attribute = ATTRIBUTE.matcher(tag);
    while (attribute.find()) {
      attributes.put(attribute.group(1), unescape(attribute.group(2)));
    }
    return attributes;
  }

  /** The entities Chromium writes in attribute values and text; {@code &amp;} last. */
  private static String unescape(final String text) {
    return text.replace("&quot;", "\"")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&nbsp;", "\u00a0")
        .replace("&amp;", "&");
  }
}
