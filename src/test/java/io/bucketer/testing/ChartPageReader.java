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
 * and the page's own link to itself; and what it drew from the time-weighted fields: each bucket's
 * twa and coverage where it had them, the twa line's pieces ({@code path.twa}), the buckets shaded
 * for low coverage ({@code rect.low-coverage}) and the resolution it says it got ({@code
 * #resolution}); and each bucket's p95 where it had one, and the p95 line's pieces ({@code
 * path.p95}), and the avg line's pieces ({@code path.avg}, closed and open ones); and each bucket's
 * completeness where it had one, and the buckets shaded for low completeness ({@code
 * rect.low-completeness}, the same band as for low coverage). For tests against a stub of the API
 * or a real processor: {@code new ChartPageReader(new
 * HeadlessChromium()).read(URI.create("http://host:8080/ui/?..."))}.
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
  private static final Pattern AVG_LINE =
      Pattern.compile("<path\\b[^>]*\\bclass=\"avg (?:closed|open)\"[^>]*>");
  private static final Pattern TWA_LINE = Pattern.compile("<path\\b[^>]*\\bclass=\"twa\"[^>]*>");
  private static final Pattern P95_LINE = Pattern.compile("<path\\b[^>]*\\bclass=\"p95\"[^>]*>");
  private static final Pattern LOW_COVERAGE = shading("low-coverage");
  private static final Pattern LOW_COMPLETENESS = shading("low-completeness");
  private static final Pattern RESOLUTION =
      Pattern.compile("<span\\b[^>]*\\bid=\"resolution\"[^>]*>([^<]*)</span>");
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
   * @param twa each bucket's time-weighted average by its start, for the buckets that had one
   * @param coverage each bucket's covered fraction by its start, for the buckets that had one
   * @param twaLines the twa line's pieces in order, each as the number of buckets it passes
   * @param lowCoverage the starts of the buckets shaded for a coverage below 90 %, in order
   * @param resolution what the page says it read at a picked resolution; empty at a given one
   * @param p95 each bucket's p95 by its start, for the buckets that had one
   * @param p95Lines the p95 line's pieces in order, each as the number of buckets it passes
   * @param avgLines the avg line's pieces in order, each as the number of buckets it passes: it
   *     breaks where buckets are not adjacent (a time without readings), and passes from closed to
   *     open buckets in a piece of its own that starts at the last closed one
   * @param completeness each bucket's fraction of the readings expected by its start, for the
   *     buckets that had one
   * @param lowCompleteness the starts of the buckets shaded for a completeness below 90 %, in order
   */
  public record ChartPage(
      String state,
      String message,
      List<DrawnBucket> buckets,
      Map<String, String> statistics,
      String permalink,
      Map<Instant, Double> twa,
      Map<Instant, Double> coverage,
      List<Integer> twaLines,
      List<Instant> lowCoverage,
      String resolution,
      Map<Instant, Double> p95,
      List<Integer> p95Lines,
      List<Integer> avgLines,
      Map<Instant, Double> completeness,
      List<Instant> lowCompleteness) {

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
    final Map<Instant, Double> twa = new LinkedHashMap<>();
    final Map<Instant, Double> coverage = new LinkedHashMap<>();
    final Map<Instant, Double> p95 = new LinkedHashMap<>();
    final Map<Instant, Double> completeness = new LinkedHashMap<>();
    final Matcher bucket = BUCKET.matcher(dom);
    while (bucket.find()) {
      final Map<String, String> attributes = attributes(bucket.group());
      final DrawnBucket drawn = drawnBucket(attributes);
      buckets.add(drawn);
      if (attributes.containsKey("data-twa")) {
        twa.put(drawn.start(), Double.parseDouble(attributes.get("data-twa")));
      }
      if (attributes.containsKey("data-coverage")) {
        coverage.put(drawn.start(), Double.parseDouble(attributes.get("data-coverage")));
      }
      if (attributes.containsKey("data-p95")) {
        p95.put(drawn.start(), Double.parseDouble(attributes.get("data-p95")));
      }
      if (attributes.containsKey("data-completeness")) {
        completeness.put(drawn.start(), Double.parseDouble(attributes.get("data-completeness")));
      }
    }
    final List<Integer> twaLines = new ArrayList<>();
    final Matcher line = TWA_LINE.matcher(dom);
    while (line.find()) {
      twaLines.add(Integer.parseInt(required(attributes(line.group()), "data-points")));
    }
    final List<Integer> p95Lines = new ArrayList<>();
    final Matcher p95Line = P95_LINE.matcher(dom);
    while (p95Line.find()) {
      p95Lines.add(Integer.parseInt(required(attributes(p95Line.group()), "data-points")));
    }
    final List<Integer> avgLines = new ArrayList<>();
    final Matcher avgLine = AVG_LINE.matcher(dom);
    while (avgLine.find()) {
      avgLines.add(Integer.parseInt(required(attributes(avgLine.group()), "data-points")));
    }
    final List<Instant> lowCoverage = shadedStarts(LOW_COVERAGE, dom);
    final List<Instant> lowCompleteness = shadedStarts(LOW_COMPLETENESS, dom);
    final Matcher resolution = RESOLUTION.matcher(dom);
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
        first(PERMALINK, dom).map(link -> link.getOrDefault("href", "")).orElse(""),
        twa,
        coverage,
        twaLines,
        lowCoverage,
        resolution.find() ? unescape(resolution.group(1)) : "",
        p95,
        p95Lines,
        avgLines,
        completeness,
        lowCompleteness);
  }

  /** A shading band whose classes include {@code reason}. */
  private static Pattern shading(final String reason) {
    return Pattern.compile(
        "<rect\\b[^>]*\\bclass=\"(?:[^\"]* )?" + reason + "(?: [^\"]*)?\"[^>]*>");
  }

  private static List<Instant> shadedStarts(final Pattern shading, final String dom) {
    final List<Instant> starts = new ArrayList<>();
    final Matcher shade = shading.matcher(dom);
    while (shade.find()) {
      starts.add(Instant.parse(required(attributes(shade.group()), "data-start")));
    }
    return starts;
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
      throw new IllegalArgumentException("a drawn element without " + name + ": " + attributes);
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
