package io.bucketer.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.bucketer.testing.ChartPageReader;
import io.bucketer.testing.ChartPageReader.ChartPage;
import io.bucketer.testing.ChartPageReader.DrawnBucket;
import io.bucketer.testing.HeadlessChromium;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.net.URI;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.IntPredicate;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The chart page in a real browser (headless Chromium) against a stub of the query API: what it
 * draws is exactly what the API answered, open buckets included, and an error answer is shown; the
 * time-weighted average is a line of its own and buckets of low coverage are shaded, the p95 is a
 * dashed line of its own, while an answer from documents without those fields draws none of them
 * and still draws; and, for a metric with an expected interval, buckets that hold too few of the
 * readings expected are shaded as those of low coverage are.
 */
// A hung run fails here, after five minutes, instead of holding CI until its limit.
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class ChartPageIT {

  private static final String SENSOR = "sensor 7/a";
  private static final String UNKNOWN_SENSOR = "sensor-9";
  // The stub answers this metric as from documents written before schema_version 3: twa and
  // coverage null in every bucket.
  private static final String OLD_METRIC = "humidity";
  // The stub answers this metric as for one with an expected interval: each bucket's completeness.
  private static final String EXPECTED_METRIC = "power";
  private static final Path SCREENSHOTS = Path.of("target", "chart-page");
  private static final Instant FROM = Instant.parse("2026-11-22T14:00:00Z");
  private static final Instant TO = Instant.parse("2026-11-22T14:15:00Z");

  // 14:06 has no readings (a gap: the band must break there), 14:12 is not closed yet.
  private static final List<DrawnBucket> BUCKETS =
      List.of(
          bucket("14:00", 60, 19.1, 20.0, 21.0, false),
          bucket("14:01", 60, 19.4, 20.35, 21.7, false),
          bucket("14:02", 59, 19.9, 20.8, 22.05, false),
          bucket("14:03", 60, 20.2, 21.4, 22.9, false),
          bucket("14:04", 58, 20.0, 21.15, 22.3, false),
          bucket("14:05", 60, 19.35, 20.6, 21.4, false),
          bucket("14:07", 57, 18.2, 19.3, 20.25, false),
          bucket("14:08", 60, 17.6, 18.75, 19.9, false),
          bucket("14:09", 60, 17.9, 18.95, 20.1, false),
          bucket("14:10", 61, 18.5, 19.6, 20.7, false),
          bucket("14:11", 60, 19.0, 20.15, 21.3, false),
          bucket("14:12", 23, 19.7, 20.45, 21.05, true));

  // twa and coverage of the closed buckets, by start: 14:05 and 14:07, on either side of the gap,
  // are covered less than 90 %; 14:03's twa lies above its max (a high value carried in from
  // 14:02), so the value axis must make room for it. The open 14:12 has neither.
  private static final Map<Instant, double[]> TIME_WEIGHTED =
      Map.ofEntries(
          timeWeighted("14:00", 20.1, 1.0),
          timeWeighted("14:01", 20.4, 1.0),
          timeWeighted("14:02", 21.0, 0.99),
          timeWeighted("14:03", 23.4, 1.0),
          timeWeighted("14:04", 21.3, 0.95),
          timeWeighted("14:05", 20.9, 0.55),
          timeWeighted("14:07", 19.0, 0.7),
          timeWeighted("14:08", 18.6, 0.9),
          timeWeighted("14:09", 19.1, 1.0),
          timeWeighted("14:10", 19.5, 1.0),
          timeWeighted("14:11", 20.3, 1.0));

  // completeness by start: 14:01 received half of what it should, though its readings cover it;
  // 14:07 is low on both; 14:08's 0.9 is not low; the open 14:12 is still filling and not shaded.
  private static final Map<Instant, Double> COMPLETENESS =
      Map.ofEntries(
          Map.entry(minute("14:00"), 1.0),
          Map.entry(minute("14:01"), 0.5),
          Map.entry(minute("14:02"), 0.95),
          Map.entry(minute("14:03"), 1.0),
          Map.entry(minute("14:04"), 0.92),
          Map.entry(minute("14:05"), 1.0),
          Map.entry(minute("14:07"), 0.6),
          Map.entry(minute("14:08"), 0.9),
          Map.entry(minute("14:09"), 1.0),
          Map.entry(minute("14:10"), 1.02),
          Map.entry(minute("14:11"), 0.98),
          Map.entry(minute("14:12"), 0.3833));

  /** Each closed bucket's p95, by start: a little below its max. The open 14:12 has none. */
  private static final Map<Instant, Double> P95 = p95OfClosedBuckets();

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final List<String> REQUESTS = new CopyOnWriteArrayList<>();
  private static OpsServer server;
  private static ChartPageReader reader;
  private static HeadlessChromium chromium;

  @BeforeAll
  static void serve() throws IOException {
    if (!HeadlessChromium.available()) {
      return;
    }
    server = TestServers.serve(Map.of("/", new WebPage(), "/api/v1/series", ChartPageIT::stubApi));
    chromium = new HeadlessChromium(Duration.ofSeconds(90));
    reader = new ChartPageReader(chromium);
  }

  @AfterAll
  static void stop() {
    if (server != null) {
      server.close();
    }
  }

  @BeforeEach
  void requireChromium() {
    HeadlessChromium.assumeAvailable();
    REQUESTS.clear();
  }

  @Test
  void shouldDrawEveryBucketTheApiAnswered() throws IOException {
    final URI page = page(SENSOR, "1m");

    final Path png = chromium.screenshot(page, SCREENSHOTS.resolve("chart.png"));
    final ChartPage drawn = reader.read(page);

    assertThat(drawn.state()).as(drawn.message()).isEqualTo("ready");
    assertThat(drawn.buckets()).containsExactlyElementsOf(BUCKETS);
    assertThat(drawn.statistics())
        .containsEntry("count", String.valueOf(readings()))
        .containsEntry("twa", "20.5")
        .containsEntry("coverage", "0.875")
        .containsEntry("gaps", "2")
        .containsEntry("quantiles.p50", "20.2")
        .containsEntry("quantiles.p95", "22.35")
        .containsEntry("quantiles.p99", "22.8")
        .containsEntry("state_windows_read", "1");
    assertThat(drawn.p95()).isEqualTo(P95);
    // As the twa line: broken at the gap, and the open 14:12 has none.
    assertThat(drawn.p95Lines()).containsExactly(6, 5);
    assertThat(drawn.twa()).hasSize(TIME_WEIGHTED.size());
    assertThat(drawn.coverage()).hasSize(TIME_WEIGHTED.size());
    TIME_WEIGHTED.forEach(
        (start, figures) -> {
          assertThat(drawn.twa()).containsEntry(start, figures[0]);
          assertThat(drawn.coverage()).containsEntry(start, figures[1]);
        });
    // One piece from 14:00 to 14:05, one from 14:07 to 14:11: broken at the gap, and the open
    // 14:12 has no twa.
    assertThat(drawn.twaLines()).containsExactly(6, 5);
    // The avg line likewise: 14:00 to 14:05 and 14:07 to 14:11, not drawn across 14:06, then on
    // from 14:11 into the open 14:12.
    assertThat(drawn.avgLines()).containsExactly(6, 5, 2);
    // Below 0.9 only: 14:08's 0.9 is not shaded.
    assertThat(drawn.lowCoverage()).containsExactly(minute("14:05"), minute("14:07"));
    assertThat(drawn.resolution()).as("at a given granularity nothing was picked").isEmpty();
    assertThat(REQUESTS)
        .contains(
            "/api/v1/series/sensor%207%2Fa/buckets?metric=temperature&granularity=1m"
                + "&from=2026-11-22T14%3A00%3A00Z&to=2026-11-22T14%3A15%3A00Z",
            "/api/v1/series/sensor%207%2Fa/statistics?metric=temperature"
                + "&from=2026-11-22T14%3A00%3A00Z&to=2026-11-22T14%3A15%3A00Z");
    final BufferedImage image = readPng(png);
    assertThat(distinctColours(image)).as("distinct colours in " + png).isGreaterThan(100);
    // The avg line (#1f4e79) and, in the chart above the legend, the open bucket's orange.
    assertThat(pixels(image, 545, near(0x1f4e79))).as("avg line pixels").isGreaterThan(300);
    assertThat(pixels(image, 545, near(0xe07b1a))).as("open bucket pixels").isGreaterThan(50);
    // The twa line (#2e8540) and the shading of the two buckets of low coverage (#f8e0dd).
    assertThat(pixels(image, 545, near(0x2e8540))).as("twa line pixels").isGreaterThan(300);
    assertThat(pixels(image, 545, near(0xf8e0dd, 8)))
        .as("low coverage pixels")
        .isGreaterThan(2_000);
    // The dashed p95 line (#8e44ad).
    assertThat(pixels(image, 545, near(0x8e44ad))).as("p95 line pixels").isGreaterThan(150);
  }

  @Test
  void shouldDrawNoTwaLineAndNoShadingFromDocumentsWithoutThem() throws IOException {
    final URI page = page(SENSOR, OLD_METRIC, "1m");

    final Path png = chromium.screenshot(page, SCREENSHOTS.resolve("chart-without-twa.png"));
    final ChartPage drawn = reader.read(page);

    assertThat(drawn.state()).as(drawn.message()).isEqualTo("ready");
    assertThat(drawn.buckets()).containsExactlyElementsOf(BUCKETS);
    assertThat(drawn.twa()).isEmpty();
    assertThat(drawn.coverage()).isEmpty();
    assertThat(drawn.twaLines()).isEmpty();
    assertThat(drawn.lowCoverage()).isEmpty();
    assertThat(drawn.p95()).isEmpty();
    assertThat(drawn.p95Lines()).isEmpty();
    final BufferedImage image = readPng(png);
    assertThat(pixels(image, 545, near(0x1f4e79))).as("avg line pixels").isGreaterThan(300);
    assertThat(pixels(image, 545, near(0x2e8540))).as("twa line pixels").isZero();
    assertThat(pixels(image, 545, near(0x8e44ad))).as("p95 line pixels").isZero();
    // A stray pixel or two where the open bucket's hatching blends into white comes near the
    // shading's tint; the two shaded buckets would give thousands.
    assertThat(pixels(image, 545, near(0xf8e0dd, 8))).as("low coverage pixels").isLessThan(20);
  }

  @Test
  void shouldShadeTheClosedBucketsThatHoldTooFewOfTheReadingsExpected() throws IOException {
    final URI page = page(SENSOR, EXPECTED_METRIC, "1m");
    final URI withoutExpectation = page(SENSOR, "1m");

    final Path png = chromium.screenshot(page, SCREENSHOTS.resolve("chart-completeness.png"));
    final Path coverageOnly =
        chromium.screenshot(withoutExpectation, SCREENSHOTS.resolve("chart-coverage-only.png"));
    final ChartPage drawn = reader.read(page);

    assertThat(drawn.state()).as(drawn.message()).isEqualTo("ready");
    assertThat(drawn.buckets()).containsExactlyElementsOf(BUCKETS);
    assertThat(drawn.completeness()).isEqualTo(COMPLETENESS);
    assertThat(drawn.lowCompleteness()).containsExactly(minute("14:01"), minute("14:07"));
    assertThat(drawn.lowCoverage()).containsExactly(minute("14:05"), minute("14:07"));
    assertThat(drawn.statistics())
        .containsEntry("resends", "14")
        .containsEntry("late_readings", "2")
        .containsEntry("expected", "900")
        .containsEntry("completeness", "0.7533");
    // Three shaded buckets in the tint of low coverage, against the two of coverage alone.
    final int shaded = pixels(readPng(png), 545, near(0xf8e0dd, 8));
    final int shadedForCoverage = pixels(readPng(coverageOnly), 545, near(0xf8e0dd, 8));
    assertThat(shaded).as("shaded pixels").isGreaterThan(shadedForCoverage * 5 / 4);
  }

  @Test
  void shouldAskForPointsAtAnAutomaticResolutionAndSayWhatWasRead() {
    final ChartPage drawn = reader.read(page(SENSOR, "auto"));

    assertThat(drawn.state()).as(drawn.message()).isEqualTo("ready");
    assertThat(drawn.buckets()).containsExactlyElementsOf(BUCKETS);
    // Asked without fill, the answer leaves out a point without readings (14:06), and the page
    // breaks its lines there by the points' times rather than drawing across.
    assertThat(drawn.twaLines()).containsExactly(6, 5);
    assertThat(drawn.avgLines()).containsExactly(6, 5, 2);
    assertThat(REQUESTS)
        .contains(
            "/api/v1/series/sensor%207%2Fa/buckets?metric=temperature&maxDataPoints=300"
                + "&from=2026-11-22T14%3A00%3A00Z&to=2026-11-22T14%3A15%3A00Z");
    assertThat(drawn.resolution()).isEqualTo("read 1m windows from buckets_1m, 1m a point");
    assertThat(query(URI.create(drawn.permalink()).getRawQuery()))
        .containsEntry("granularity", "auto");
  }

  @Test
  void shouldShowTheApisErrorInThePage() throws IOException {
    final URI page = page(UNKNOWN_SENSOR, "1m");

    final Path png = chromium.screenshot(page, SCREENSHOTS.resolve("chart-error.png"));
    final ChartPage drawn = reader.read(page);

    assertThat(drawn.state()).isEqualTo("error");
    assertThat(drawn.message()).isEqualTo("no buckets for series sensor-9/temperature");
    assertThat(drawn.buckets()).isEmpty();
    // The message in the error colour (#b3261e), in the status line and across the chart.
    assertThat(pixels(readPng(png), 800, near(0xb3261e)))
        .as("error text pixels")
        .isGreaterThan(200);
  }

  @Test
  void shouldPickAGranularityThatFitsTheRangeAndPutItInItsUrl() {
    final ChartPage drawn = reader.read(page(SENSOR, null));

    assertThat(drawn.state()).as(drawn.message()).isEqualTo("ready");
    assertThat(drawn.buckets()).containsExactlyElementsOf(BUCKETS);
    assertThat(REQUESTS)
        .anyMatch(request -> request.contains("/buckets?metric=temperature&granularity=1m&"));
    assertThat(query(URI.create(drawn.permalink()).getRawQuery()))
        .containsExactly(
            Map.entry("sensor", SENSOR),
            Map.entry("metric", "temperature"),
            Map.entry("granularity", "1m"),
            Map.entry("from", FROM.toString()),
            Map.entry("to", TO.toString()));
  }

  private static URI page(final String sensor, final String granularity) {
    return page(sensor, "temperature", granularity);
  }

  private static URI page(final String sensor, final String metric, final String granularity) {
    final String query =
        "sensor="
            + encode(sensor)
            + "&metric="
            + encode(metric)
            + (granularity == null ? "" : "&granularity=" + granularity)
            + "&from="
            + encode(FROM.toString())
            + "&to="
            + encode(TO.toString());
    return URI.create("http://127.0.0.1:" + server.port() + "/ui/?" + query);
  }

  /** The three endpoints of the contract, answering for {@link #SENSOR} only. */
  private static HttpAnswer stubApi(final HttpCall call) {
    REQUESTS.add(call.rawPath() + (call.rawQuery() == null ? "" : "?" + call.rawQuery()));
    final String path = call.rawPath();
    final Map<String, String> query = query(call.rawQuery());
    if (path.equals("/api/v1/series")) {
      return HttpAnswer.json(
          200,
          Map.of(
              "series",
              List.of(
                  series(SENSOR, "temperature"),
                  series(SENSOR, "humidity"),
                  series(SENSOR, EXPECTED_METRIC),
                  series("sensor-0001", null)),
              "granularities",
              List.of("1m", "1h")));
    } else if (!path.startsWith("/api/v1/series/" + encode(SENSOR) + "/")) {
      return HttpAnswer.error(404, "no buckets for series " + UNKNOWN_SENSOR + "/temperature");
    } else if (path.endsWith("/buckets")) {
      return HttpAnswer.json(200, bucketsAnswer(query));
    } else if (path.endsWith("/statistics")) {
      return HttpAnswer.json(200, statisticsAnswer(query));
    }
    return HttpAnswer.error(404, "not found");
  }

  private static Map<String, Object> bucketsAnswer(final Map<String, String> query) {
    final Map<String, Object> answer = new LinkedHashMap<>();
    answer.put("sensor_id", SENSOR);
    answer.put("metric", query.get("metric"));
    // At a picked resolution the stub's points are the minutes, as a real API picks for 15 minutes.
    answer.put("granularity", query.getOrDefault("granularity", "1m"));
    answer.put("from", query.get("from"));
    answer.put("to", query.get("to"));
    final boolean timeWeighted = !OLD_METRIC.equals(query.get("metric"));
    answer.put(
        "buckets",
        BUCKETS.stream()
            .map(
                b -> {
                  final Map<String, Object> bucket = new LinkedHashMap<>();
                  bucket.put("start", b.start().toString());
                  bucket.put("end", b.end().toString());
                  bucket.put("count", b.count());
                  bucket.put("sum", b.avg() * b.count());
                  bucket.put("avg", b.avg());
                  bucket.put("min", b.min());
                  bucket.put("max", b.max());
                  final double[] figures = timeWeighted ? TIME_WEIGHTED.get(b.start()) : null;
                  bucket.put("twa", figures == null ? null : figures[0]);
                  bucket.put("coverage", figures == null ? null : figures[1]);
                  bucket.put("quantiles", timeWeighted ? quantiles(P95.get(b.start())) : null);
                  if (EXPECTED_METRIC.equals(query.get("metric"))) {
                    bucket.put("resends", b.count() % 3);
                    bucket.put("late_readings", 0);
                    bucket.put("expected_interval_ms", 1_000);
                    bucket.put("expected", 60.0);
                    bucket.put("completeness", COMPLETENESS.get(b.start()));
                  }
                  bucket.put("open", b.open());
                  return bucket;
                })
            .toList());
    if (query.containsKey("maxDataPoints")) {
      answer.put(
          "resolution",
          Map.of(
              "granularity",
              "1m",
              "read_from",
              "buckets_1m",
              "point_ms",
              60_000,
              "widened",
              false));
    }
    answer.put("documents_read", BUCKETS.size() - 1);
    answer.put("state_windows_read", 1);
    return answer;
  }

  private static Map<String, Object> statisticsAnswer(final Map<String, String> query) {
    final Map<String, Object> answer = new LinkedHashMap<>();
    answer.put("sensor_id", SENSOR);
    answer.put("metric", query.get("metric"));
    answer.put("from", query.get("from"));
    answer.put("to", query.get("to"));
    answer.put("count", readings());
    answer.put("sum", 13_984.3);
    answer.put("avg", 20.267101449275362);
    answer.put("min", 17.6);
    answer.put("max", 22.9);
    answer.put("twa", 20.5);
    answer.put("coverage", 0.875);
    answer.put("gaps", 2);
    final Map<String, Object> quantiles = new LinkedHashMap<>();
    quantiles.put("p50", 20.2);
    quantiles.put("p90", 21.9);
    quantiles.put("p95", 22.35);
    quantiles.put("p99", 22.8);
    answer.put("quantiles", quantiles);
    answer.put("quantile_relative_accuracy", 0.01);
    answer.put("quantiles_missing", null);
    if (EXPECTED_METRIC.equals(query.get("metric"))) {
      answer.put("resends", 14);
      answer.put("late_readings", 2);
      answer.put("expected_interval_ms", 1_000);
      answer.put("expected", 900.0);
      answer.put("completeness", readings() / 900.0);
    }
    answer.put("documents_read", 3);
    answer.put("state_windows_read", 1);
    return answer;
  }

  /** Readings in the stub's buckets: fewer than 1,000, so shown without a separator. */
  private static long readings() {
    return BUCKETS.stream().mapToLong(DrawnBucket::count).sum();
  }

  private static Map<String, Object> series(final String sensor, final String metric) {
    final Map<String, Object> series = new LinkedHashMap<>();
    series.put("sensor_id", sensor);
    series.put("metric", metric);
    return series;
  }

  private static Map<Instant, Double> p95OfClosedBuckets() {
    final Map<Instant, Double> p95 = new LinkedHashMap<>();
    for (final DrawnBucket bucket : BUCKETS) {
      if (!bucket.open()) {
        p95.put(bucket.start(), Math.round((bucket.max() - 0.25) * 100) / 100.0);
      }
    }
    return p95;
  }

  /** A bucket's quantiles as the API answers them; null when it has no p95. */
  private static Map<String, Object> quantiles(final Double p95) {
    if (p95 == null) {
      return null;
    }
    final Map<String, Object> quantiles = new LinkedHashMap<>();
    quantiles.put("p50", p95 - 1);
    quantiles.put("p90", p95 - 0.1);
    quantiles.put("p95", p95);
    quantiles.put("p99", p95 + 0.1);
    return quantiles;
  }

  private static Map.Entry<Instant, double[]> timeWeighted(
      final String minute, final double twa, final double coverage) {
    return Map.entry(minute(minute), new double[] {twa, coverage});
  }

  private static Instant minute(final String minute) {
    return Instant.parse("2026-11-22T" + minute + ":00Z");
  }

  private static DrawnBucket bucket(
      final String minute,
      final long count,
      final double min,
      final double avg,
      final double max,
      final boolean open) {
    final Instant start = Instant.parse("2026-11-22T" + minute + ":00Z");
    return new DrawnBucket(start, start.plusSeconds(60), count, min, avg, max, open);
  }

  /** A PNG by its signature, that decodes, and is the window's size. */
  private static BufferedImage readPng(final Path png) throws IOException {
    final byte[] bytes = Files.readAllBytes(png);
    assertThat(Arrays.copyOf(bytes, 8))
        .as("PNG signature of " + png)
        .isEqualTo(new byte[] {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'});
    assertThat(bytes.length).as("size of " + png).isGreaterThan(10_000);
    final BufferedImage image = ImageIO.read(png.toFile());
    assertThat(image).as("decoded " + png).isNotNull();
    assertThat(image.getWidth()).isEqualTo(1200);
    assertThat(image.getHeight()).isEqualTo(800);
    return image;
  }

  private static int distinctColours(final BufferedImage image) {
    final Set<Integer> colours = new HashSet<>();
    for (int y = 0; y < image.getHeight(); y++) {
      for (int x = 0; x < image.getWidth(); x++) {
        colours.add(image.getRGB(x, y) & 0xffffff);
      }
    }
    return colours.size();
  }

  /** Pixels in the rows above {@code belowRow} whose colour passes {@code colour}. */
  private static int pixels(
      final BufferedImage image, final int belowRow, final IntPredicate colour) {
    int count = 0;
    for (int y = 0; y < Math.min(belowRow, image.getHeight()); y++) {
      for (int x = 0; x < image.getWidth(); x++) {
        count += colour.test(image.getRGB(x, y) & 0xffffff) ? 1 : 0;
      }
    }
    return count;
  }

  /** Within a small distance of {@code rgb}: anti-aliasing blends the edges. */
  private static IntPredicate near(final int rgb) {
    return near(rgb, 30);
  }

  private static IntPredicate near(final int rgb, final int distance) {
    return pixel -> {
      final int red = ((pixel >> 16) & 0xff) - ((rgb >> 16) & 0xff);
      final int green = ((pixel >> 8) & 0xff) - ((rgb >> 8) & 0xff);
      final int blue = (pixel & 0xff) - (rgb & 0xff);
      return red * red + green * green + blue * blue <= distance * distance;
    };
  }

  private static Map<String, String> query(final String rawQuery) {
    final Map<String, String> parameters = new LinkedHashMap<>();
    if (rawQuery == null) {
      return parameters;
    }
    for (final String pair : rawQuery.split("&")) {
      final int equals = pair.indexOf('=');
      parameters.put(decode(pair.substring(0, equals)), decode(pair.substring(equals + 1)));
    }
    return parameters;
  }

  private static String encode(final String text) {
    return URLEncoder.encode(text, StandardCharsets.UTF_8).replace("+", "%20");
  }

  private static String decode(final String text) {
    return URLDecoder.decode(text, StandardCharsets.UTF_8);
  }
}
