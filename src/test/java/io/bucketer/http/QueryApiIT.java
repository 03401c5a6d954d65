package io.bucketer.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.bucketer.avro.Reading;
import io.bucketer.buckets.SeriesKey;
import io.bucketer.cli.BucketerCli;
import io.bucketer.config.HttpSettings;
import io.bucketer.config.KafkaSettings;
import io.bucketer.config.WindowSettings;
import io.bucketer.embedded.LoopbackPorts;
import io.bucketer.embedded.ProcessorProcess;
import io.bucketer.simulate.ReadingGenerator;
import io.bucketer.testing.ChartPageReader;
import io.bucketer.testing.GeneratedReadings;
import io.bucketer.testing.HeadlessChromium;
import io.bucketer.testing.IsolatedRun;
import io.bucketer.testing.LocalInfrastructure;
import io.bucketer.testing.PacedProducer;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The query API of two processors (child JVMs, each with its own HTTP port and state) sharing the
 * series: whichever instance is asked, the answer comes from the one holding the series, and it
 * includes the open hour and minute. Every answer is compared with the readings sent.
 */
@Tag("integration")
// A hung run fails here, after five minutes, instead of holding CI until its limit.
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class QueryApiIT {

  private static final int SENSORS = 12;
  private static final Instant NINE = Instant.parse("2025-06-01T09:00:00Z");
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  /** Two hours of event time per sensor, one reading every 5 s, 5 % out of order. */
  private static final List<Reading> READINGS =
      GeneratedReadings.of(
          new ReadingGenerator.Options(
              SENSORS,
              NINE,
              Duration.ofSeconds(5),
              Duration.ofMillis(500),
              0.05,
              6,
              SENSORS * 1_440L,
              3));

  private static LocalInfrastructure infrastructure;
  private static IsolatedRun run;
  private static List<Integer> ports;
  private static ProcessorProcess first;
  private static ProcessorProcess second;

  @TempDir(cleanup = CleanupMode.ON_SUCCESS)
  static Path dir;

  @BeforeAll
  static void startTwoProcessorsAndSendTheReadings() throws Exception {
    infrastructure = LocalInfrastructure.start();
    run =
        new IsolatedRun(
            infrastructure,
            dir,
            4,
            Map.of(
                KafkaSettings.SERIES_PARTITIONS, "4",
                WindowSettings.GRANULARITIES, "1m,1h",
                WindowSettings.GRACE, "5s",
                // the readings are from 2025: no wall-clock close of the open windows during the
                // test
                WindowSettings.IDLE_TIMEOUT, "1h",
                // hour 09:00 leaves the state once 10:10 has passed: then MongoDB alone answers it
                WindowSettings.LATENESS_HORIZON, "10m",
                // the readings come every 5 s: so many are expected
                WindowSettings.EXPECTED_INTERVAL, "5s",
                HttpSettings.ADVERTISED_HOST, LoopbackPorts.HOST,
                HttpSettings.BIND_ADDRESS, LoopbackPorts.HOST));
    ports = LoopbackPorts.free(2);
    first = run.startProcessor("a", Map.of(HttpSettings.PORT, ports.get(0).toString()));
    second = run.startProcessor("b", Map.of(HttpSettings.PORT, ports.get(1).toString()));
    run.awaitConsumingBy(first, second);
    try (PacedProducer gateways =
        PacedProducer.start(infrastructure, run.inputTopic(), READINGS, 4_000, Map.of())) {
      assertThat(gateways.awaitDone(IsolatedRun.DEADLINE)).isEqualTo(READINGS.size());
    }
    // Every reading is counted once the whole range of every series adds up, on either instance.
    await("every reading visible through the query API")
        .atMost(IsolatedRun.DEADLINE)
        .pollInterval(Duration.ofMillis(500))
        .failFast(run::assertNoProcessorDiedOnItsOwn)
        .until(
            () ->
                series().stream()
                    .allMatch(
                        series -> {
                          final JsonNode answer =
                              statistics(ports.get(0), series, NINE, NINE.plusSeconds(7_200)).body;
                          return answer != null
                              && answer.path("count").asLong()
                                  == sent(series, NINE, NINE.plusSeconds(7_200)).size();
                        }));
  }

  @AfterAll
  static void stop() {
    if (run != null) {
      run.close();
    }
    if (infrastructure != null) {
      infrastructure.close();
    }
  }

  @Test
  void shouldAnswerEverySeriesOnEitherInstanceFromTheInstanceHoldingIt() throws Exception {
    final Set<String> servers = new HashSet<>();
    for (final SeriesKey series : series()) {
      final Answer viaFirst = statistics(ports.get(0), series, NINE, NINE.plusSeconds(7_200));
      final Answer viaSecond = statistics(ports.get(1), series, NINE, NINE.plusSeconds(7_200));
      assertThat(viaFirst.status).isEqualTo(200);
      assertThat(viaFirst.servedBy).as("served by the same instance").isEqualTo(viaSecond.servedBy);
      assertThat(viaFirst.body).isEqualTo(viaSecond.body);
      servers.add(viaFirst.servedBy);
    }
    assertThat(servers)
        .as("each instance holds some series, so half the requests were forwarded")
        .containsExactlyInAnyOrder(
            LoopbackPorts.HOST + ":" + ports.get(0), LoopbackPorts.HOST + ":" + ports.get(1));
  }

  @Test
  void shouldEqualTheReadingsOverRangesThatCutMinutesSpanHoursAndReachTheOpenOnes()
      throws Exception {
    final List<Instant[]> ranges =
        List.of(
            new Instant[] {NINE, NINE.plusSeconds(3_600)}, // the closed hour
            new Instant[] {NINE.plusSeconds(3_600), NINE.plusSeconds(7_200)}, // the open hour
            new Instant[] {NINE.plusSeconds(1_812), NINE.plusSeconds(7_163)}, // cuts, open tail
            new Instant[] {NINE.plusSeconds(7_100), NINE.plusSeconds(7_300)}); // the open minute
    for (final SeriesKey series : series()) {
      for (final Instant[] range : ranges) {
        final Answer answer = statistics(ports.get(1), series, range[0], range[1]);
        assertThat(answer.status).isEqualTo(200);
        assertEqualsSent(answer.body, sent(series, range[0], range[1]));
      }
    }
  }

  @Test
  void shouldAnswerTheReadingsExpectedAtTheIntervalConfiguredAndTheWindowsCounts()
      throws Exception {
    for (final SeriesKey series : series()) {
      final JsonNode closed = statistics(ports.get(0), series, NINE, NINE.plusSeconds(3_600)).body;
      final JsonNode hour =
          get(ports.get(1), bucketsPath(series, "1h", NINE, NINE.plusSeconds(3_600)))
              .body
              .get("buckets")
              .get(0);
      final JsonNode minutes =
          get(ports.get(1), bucketsPath(series, "1m", NINE, NINE.plusSeconds(3_600)))
              .body
              .get("buckets");

      assertThat(closed.get("expected_interval_ms").asLong()).isEqualTo(5_000);
      assertThat(closed.get("expected").asDouble()).isEqualTo(720.0);
      assertThat(closed.get("completeness").asDouble())
          .isCloseTo(sent(series, NINE, NINE.plusSeconds(3_600)).size() / 720.0, within(1e-12));
      // the documents the sink wrote count, and the hour's counts are its minutes'
      assertThat(closed.get("resends").isIntegralNumber()).as(closed.toString()).isTrue();
      assertThat(closed.get("late_readings").isIntegralNumber()).as(closed.toString()).isTrue();
      assertThat(hour.get("resends").asLong())
          .isEqualTo(closed.get("resends").asLong())
          .isEqualTo(sum(minutes, "resends"));
      assertThat(hour.get("late_readings").asLong())
          .isEqualTo(closed.get("late_readings").asLong())
          .isEqualTo(sum(minutes, "late_readings"));
      assertThat(minutes.get(0).get("expected").asDouble()).isEqualTo(12.0);
    }
  }

  @Test
  void shouldReadTheClosedHourFromOneDocumentAndTheOpenHourFromTheState() throws Exception {
    final SeriesKey series = series().get(0);
    final JsonNode closed = statistics(ports.get(0), series, NINE, NINE.plusSeconds(3_600)).body;
    assertThat(closed.get("documents_read").asLong()).isEqualTo(1);
    // the state keeps only the hour's last five minutes, 09:55 - 09:59, for the default 5 minute
    // max gap: the readings the open hour's first minute may carry in
    assertThat(closed.get("state_windows_read").asLong()).isEqualTo(5);

    final JsonNode open =
        statistics(ports.get(0), series, NINE.plusSeconds(3_600), NINE.plusSeconds(7_200)).body;
    assertThat(open.get("documents_read").asLong()).as("no hour 10:00 in MongoDB").isZero();
    assertThat(open.get("state_windows_read").asLong()).isPositive();
  }

  @Test
  void shouldChartHoursAndMinutesWithTheOpenOnesMarked() throws Exception {
    final SeriesKey series = series().get(1);
    final JsonNode hours =
        get(ports.get(0), bucketsPath(series, "1h", NINE, NINE.plusSeconds(7_200))).body;
    assertThat(hours.get("buckets")).hasSize(2);
    assertThat(hours.get("buckets").get(0).get("open").asBoolean()).isFalse();
    assertThat(hours.get("buckets").get(1).get("open").asBoolean()).isTrue();

    final JsonNode minutes =
        get(
                ports.get(1),
                bucketsPath(series, "1m", NINE.plusSeconds(6_600), NINE.plusSeconds(7_200)))
            .body;
    final JsonNode buckets = minutes.get("buckets");
    assertThat(buckets).hasSize(10);
    for (final JsonNode bucket : buckets) {
      final Instant start = Instant.parse(bucket.get("start").asText());
      assertEqualsSent(bucket, sent(series, start, start.plusSeconds(60)));
    }
    assertThat(buckets.get(9).get("open").asBoolean()).as("the last minute is open").isTrue();
    assertThat(buckets.get(0).get("open").asBoolean()).isFalse();
  }

  @Test
  void shouldDrawOnTheChartPageTheWindowsTheApiAnswers() throws Exception {
    HeadlessChromium.assumeAvailable();
    final SeriesKey series = series().get(2);
    final Instant from = NINE.plusSeconds(5_400);
    final Instant to = NINE.plusSeconds(7_200);
    final URI page =
        URI.create(
            "http://"
                + LoopbackPorts.HOST
                + ":"
                + ports.get(0)
                + "/ui/?sensor="
                + encode(series.sensorId())
                + "&metric="
                + encode(series.metric())
                + "&granularity=1m&from="
                + encode(from.toString())
                + "&to="
                + encode(to.toString()));
    final HeadlessChromium chromium = new HeadlessChromium();
    final Path screenshot =
        chromium.screenshot(page, Path.of("target", "query-api-it", "chart.png"));
    final ChartPageReader.ChartPage drawn = new ChartPageReader(chromium).read(page);

    assertThat(drawn.state()).as(drawn.message()).isEqualTo("ready");
    final JsonNode answered = get(ports.get(1), bucketsPath(series, "1m", from, to)).body;
    assertThat(drawn.buckets()).hasSize(answered.get("buckets").size()).hasSize(30);
    for (int i = 0; i < drawn.buckets().size(); i++) {
      final ChartPageReader.DrawnBucket bucket = drawn.buckets().get(i);
      final JsonNode expected = answered.get("buckets").get(i);
      assertThat(bucket.start()).isEqualTo(Instant.parse(expected.get("start").asText()));
      assertThat(bucket.count()).isEqualTo(expected.get("count").asLong());
      assertThat(bucket.min()).isEqualTo(expected.get("min").asDouble());
      assertThat(bucket.avg()).isCloseTo(expected.get("avg").asDouble(), within(1e-9));
      assertThat(bucket.max()).isEqualTo(expected.get("max").asDouble());
      assertThat(bucket.open()).isEqualTo(expected.get("open").asBoolean());
      // The time-weighted fields where the API gives them, no figure where it gives null.
      if (expected.path("twa").isNumber()) {
        assertThat(drawn.twa().get(bucket.start()))
            .isCloseTo(expected.get("twa").asDouble(), within(1e-9));
      } else {
        assertThat(drawn.twa()).doesNotContainKey(bucket.start());
      }
      if (expected.path("coverage").isNumber()) {
        assertThat(drawn.coverage().get(bucket.start()))
            .isCloseTo(expected.get("coverage").asDouble(), within(1e-9));
      } else {
        assertThat(drawn.coverage()).doesNotContainKey(bucket.start());
      }
    }
    assertThat(drawn.twa()).as("closed windows have a twa").isNotEmpty();
    assertThat(drawn.buckets().get(29).open()).isTrue();
    assertThat(drawn.statistics().get("count").replace(",", ""))
        .isEqualTo(String.valueOf(sent(series, from, to).size()));
    assertThat(Files.size(screenshot)).isPositive();
  }

  @Test
  void shouldAnswerTheQueryCommandFromEitherInstance() {
    final SeriesKey series = series().get(3);
    final Instant from = NINE.plusSeconds(1_800);
    final Instant to = NINE.plusSeconds(7_200);
    final StringWriter out = new StringWriter();
    final CommandLine cli = new CommandLine(new BucketerCli());
    cli.setOut(new PrintWriter(out));

    final int exitCode =
        cli.execute(
            "query",
            "statistics",
            "--url",
            "http://" + LoopbackPorts.HOST + ":" + ports.get(1),
            "--sensor",
            series.sensorId(),
            "--metric",
            series.metric(),
            "--from",
            from.toString(),
            "--to",
            to.toString());

    assertThat(exitCode).as(out.toString()).isZero();
    assertThat(out.toString())
        .containsPattern("count: +" + sent(series, from, to).size() + "\\n")
        .containsPattern("documents_read: +\\d+\\n");
  }

  private static String encode(final String text) {
    return URLEncoder.encode(text, StandardCharsets.UTF_8).replace("+", "%20");
  }

  private static void assertEqualsSent(final JsonNode answer, final List<Reading> sent) {
    assertThat(answer.get("count").asLong()).as("count in %s", answer).isEqualTo(sent.size());
    assertThat(answer.get("sum").asDouble())
        .isCloseTo(sent.stream().mapToDouble(Reading::getValue).sum(), within(1e-6));
    assertThat(answer.get("min").asDouble())
        .isEqualTo(sent.stream().mapToDouble(Reading::getValue).min().orElseThrow());
    assertThat(answer.get("max").asDouble())
        .isEqualTo(sent.stream().mapToDouble(Reading::getValue).max().orElseThrow());
  }

  private static List<SeriesKey> series() {
    return READINGS.stream()
        .map(reading -> new SeriesKey(reading.getSensorId(), reading.getMetric()))
        .distinct()
        .sorted((a, b) -> a.toString().compareTo(b.toString()))
        .collect(Collectors.toList());
  }

  private static List<Reading> sent(final SeriesKey series, final Instant from, final Instant to) {
    return READINGS.stream()
        .filter(reading -> reading.getSensorId().equals(series.sensorId()))
        .filter(reading -> java.util.Objects.equals(reading.getMetric(), series.metric()))
        .filter(reading -> !reading.getTimestamp().isBefore(from))
        .filter(reading -> reading.getTimestamp().isBefore(to))
        .toList();
  }

  private record Answer(int status, JsonNode body, String servedBy) {}

  private static Answer statistics(
      final int port, final SeriesKey series, final Instant from, final Instant to) {
    return get(port, seriesPath(series, "statistics") + "&from=" + from + "&to=" + to);
  }

  private static String bucketsPath(
      final SeriesKey series, final String granularity, final Instant from, final Instant to) {
    return seriesPath(series, "buckets")
        + "&granularity="
        + granularity
        + "&from="
        + from
        + "&to="
        + to;
  }

  private static String seriesPath(final SeriesKey series, final String operation) {
    return "/api/v1/series/"
        + URLEncoder.encode(series.sensorId(), StandardCharsets.UTF_8).replace("+", "%20")
        + "/"
        + operation
        + "?metric="
        + URLEncoder.encode(series.metric(), StandardCharsets.UTF_8);
  }

  private static Answer get(final int port, final String path) {
    try {
      final HttpResponse<String> response;
      response =
          HTTP.send(
              HttpRequest.newBuilder(URI.create("http://" + LoopbackPorts.HOST + ":" + port + path))
                  .timeout(Duration.ofSeconds(30))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      return new Answer(
          response.statusCode(),
          response.statusCode() == 200 ? JSON.readTree(response.body()) : null,
          response.headers().firstValue(QueryForwarder.SERVED_BY).orElse(null));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** The sum of {@code field} over {@code points}, each of which must know it. */
  private static long sum(final JsonNode points, final String field) {
    long sum = 0;
    for (final JsonNode point : points) {
      assertThat(point.get(field).isIntegralNumber()).as(point.toString()).isTrue();
      sum += point.get(field).asLong();
    }
    return sum;
  }
}
