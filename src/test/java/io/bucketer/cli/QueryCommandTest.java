package io.bucketer.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class QueryCommandTest {

  private static final String STATISTICS =
      """
      {"sensor_id":"sensor 7/a","metric":"temperature","from":"2026-11-22T13:00:00Z",\
      "to":"2026-11-22T14:00:00Z","count":3600,"sum":72000.5,"avg":20.000138888888888,\
      "min":12.1,"max":28.3,"stddev":3.25,\
      "first":{"timestamp":"2026-11-22T13:00:00.250Z","value":19.5},\
      "last":{"timestamp":"2026-11-22T13:59:59.750Z","value":21.25},\
      "twa":20.01234567,"integral":{"value":20.0034,"unit":"value·h"},"covered_ms":3598000,\
      "coverage":0.9994444,"gaps":1,"longest_gap_ms":2000,"max_gap_ms":300000,\
      "interpolation":"step","time_weighted_complete":true,"time_weighted_missing":null,\
      "quantiles":{"p50":20.01,"p90":24.5,"p95":25.75,"p99":27.123456},\
      "quantile_relative_accuracy":0.01,"quantiles_missing":null,\
      "documents_read":1,"state_windows_read":0}
      """;
  private static final String BUCKETS =
      """
      {"sensor_id":"sensor 7/a","metric":"temperature","granularity":"1m",\
      "from":"2026-11-22T14:00:00Z","to":"2026-11-22T14:05:00Z","buckets":[\
      {"start":"2026-11-22T14:00:00Z","end":"2026-11-22T14:01:00Z",\
      "count":60,"sum":1200.0,"avg":20.0,"min":19.1,"max":21.0,"twa":20.0125,\
      "coverage":0.98333,"quantiles":{"p50":20.01,"p95":20.85,"p99":20.9979},"open":false},\
      {"start":"2026-11-22T14:02:00Z","end":"2026-11-22T14:03:00Z",\
      "count":12,"sum":246.6,"avg":20.55,"min":20.4,"max":20.7,"twa":null,"coverage":null,\
      "quantiles":null,"open":true}],\
      "documents_read":1,"state_windows_read":1}
      """;

  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();
  private HttpServer api;
  private volatile URI request;
  private volatile String authorization;
  @TempDir Path folder;
  private volatile int status = 200;
  private volatile String body = "{}";
  private final Map<String, String> headers = new LinkedHashMap<>();

  @BeforeEach
  void serve() throws IOException {
    api = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    api.createContext(
        "/",
        exchange -> {
          request = exchange.getRequestURI();
          authorization = exchange.getRequestHeaders().getFirst("Authorization");
          final byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
          exchange.getResponseHeaders().set("Content-Type", "application/json");
          headers.forEach(exchange.getResponseHeaders()::set);
          exchange.sendResponseHeaders(status, bytes.length);
          try (OutputStream stream = exchange.getResponseBody()) {
            stream.write(bytes);
          }
        });
    api.start();
  }

  @AfterEach
  void stop() {
    api.stop(0);
  }

  @Test
  void shouldSendAUsersPasswordOrATokenFromFiles() throws IOException {
    body = STATISTICS;
    final Path password = Files.writeString(folder.resolve("password"), "s3cret pw\n");
    final Path token = Files.writeString(folder.resolve("token"), "tok-123\n");
    final String[] query = {
      "query", "statistics", "--sensor", "s", "--metric", "m", "--last", "1h", "--json"
    };

    assertThat(execute(query)).isZero();
    assertThat(authorization).isNull();
    assertThat(execute(with(query, "--user", "alice", "--password-file", password.toString())))
        .isZero();
    assertThat(authorization).isEqualTo(AccessHeaders.basic("alice", "s3cret pw"));
    assertThat(execute(with(query, "--token-file", token.toString()))).isZero();
    assertThat(authorization).isEqualTo("Bearer tok-123");
    assertThat(execute(with(query, "--user", "alice"))).isEqualTo(2);
    assertThat(err.toString()).contains("--user needs --password-file");
  }

  private static String[] with(final String[] args, final String... more) {
    final String[] all = Arrays.copyOf(args, args.length + more.length);
    System.arraycopy(more, 0, all, args.length, more.length);
    return all;
  }

  private static final class AccessHeaders {
    static String basic(final String user, final String password) {
      return "Basic "
          + java.util.Base64.getEncoder()
              .encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    }
  }

  @Test
  void shouldPrintStatisticsAsAlignedLines() {
    body = STATISTICS;

    final int exitCode =
        execute(
            "query",
            "statistics",
            "--sensor",
            "sensor 7/a",
            "--metric",
            "temperature",
            "--from",
            "2026-11-22T13:00:00Z",
            "--to",
            "2026-11-22T14:00:00Z");

    assertThat(exitCode).isZero();
    assertThat(err.toString()).isEmpty();
    assertThat(out.toString())
        .isEqualTo(
            """
            sensor_id:                  sensor 7/a
            metric:                     temperature
            from:                       2026-11-22T13:00:00Z
            to:                         2026-11-22T14:00:00Z
            count:                      3600
            sum:                        72000.5
            avg:                        20.0001
            min:                        12.1
            max:                        28.3
            stddev:                     3.25
            first:                      19.5 at 2026-11-22T13:00:00.250Z
            last:                       21.25 at 2026-11-22T13:59:59.750Z
            twa:                        20.0123
            integral:                   20.0034 value·h
            covered_ms:                 3598000
            coverage:                   0.9994
            gaps:                       1
            longest_gap_ms:             2000
            max_gap_ms:                 300000
            interpolation:              step
            time_weighted_complete:     true
            time_weighted_missing:      -
            quantiles:                  p50 20.01, p90 24.5, p95 25.75, p99 27.1235
            quantile_relative_accuracy: 0.01
            quantiles_missing:          -
            documents_read:             1
            state_windows_read:         0
            """);
  }

  @Test
  void shouldAskForTheQuantilesGivenAndRefuseLevelsTheApiWouldRefuse() {
    final int exitCode =
        queryBuckets(BUCKETS, "--granularity", "1m", "--quantiles", "0.5, 0.999", "--last", "5m");

    assertThat(exitCode).isZero();
    assertThat(parameters(request)).containsEntry("quantiles", "0.5,0.999");
    assertThat(
            execute(
                "query", "statistics", "--sensor", "s", "--last", "1h", "--quantiles", "0.5,95"))
        .isEqualTo(2);
    assertThat(err.toString())
        .contains("--quantiles must be up to 20 comma-separated numbers from 0 to 1")
        .contains("number 2 is not");
  }

  @Test
  void shouldEncodeTheSensorIdAsOnePathSegment() {
    body = STATISTICS;

    execute(
        "query",
        "statistics",
        "--sensor",
        "sensor 7/a+b",
        "--metric",
        "wind speed",
        "--from",
        "2026-11-22T13:00:00Z",
        "--to",
        "2026-11-22T14:00:00Z");

    assertThat(request.getRawPath()).isEqualTo("/api/v1/series/sensor%207%2Fa%2Bb/statistics");
    assertThat(request.getRawQuery())
        .isEqualTo("metric=wind%20speed&from=2026-11-22T13%3A00%3A00Z&to=2026-11-22T14%3A00%3A00Z");
  }

  @Test
  void shouldPrintBucketsAsATableWithOpenOnesMarkedAndTheTimeWeightedFieldsBlankWhereUnknown() {
    final int exitCode =
        queryBuckets(
            BUCKETS,
            "--metric",
            "temperature",
            "--granularity",
            "1m",
            "--from",
            "2026-11-22T14:00:00Z",
            "--to",
            "2026-11-22T14:05:00Z");

    assertThat(exitCode).isZero();
    assertThat(request.getRawPath()).isEqualTo("/api/v1/series/sensor%207%2Fa/buckets");
    assertThat(parameters(request))
        .containsExactly(
            Map.entry("metric", "temperature"),
            Map.entry("granularity", "1m"),
            Map.entry("quantiles", "0.5,0.95,0.99"),
            Map.entry("from", "2026-11-22T14:00:00Z"),
            Map.entry("to", "2026-11-22T14:05:00Z"));
    assertThat(out.toString())
        .isEqualTo(
            """
            sensor 7/a temperature, 1m buckets in [2026-11-22T14:00:00Z, 2026-11-22T14:05:00Z)
            start                 count   min    avg   max    sum      twa  coverage    p50    p95      p99
            2026-11-22T14:00:00Z     60  19.1     20    21   1200  20.0125     98.3%  20.01  20.85  20.9979
            2026-11-22T14:02:00Z     12  20.4  20.55  20.7  246.6                                            open
            2 buckets (1 open); documents_read: 1, state_windows_read: 1
            """);
  }

  @Test
  void shouldAskForPointsAtAPickedResolutionAndMarkTheFilledOnes() {
    final String points =
        """
        {"sensor_id":"sensor 7/a","metric":"temperature","granularity":"15m",\
        "from":"2026-11-22T14:00:00Z","to":"2026-11-22T15:00:00Z","buckets":[\
        {"start":"2026-11-22T14:00:00Z","end":"2026-11-22T14:15:00Z",\
        "count":900,"sum":18000.0,"avg":20.0,"min":19.1,"max":21.0,"twa":19.8,\
        "coverage":1.0,"open":false},\
        {"start":"2026-11-22T14:15:00Z","end":"2026-11-22T14:30:00Z",\
        "count":0,"sum":null,"avg":21.0,"min":21.0,"max":21.0,"open":false,"filled":"previous"},\
        {"start":"2026-11-22T14:30:00Z","end":"2026-11-22T14:45:00Z",\
        "count":450,"sum":9225.0,"avg":20.5,"min":20.4,"max":20.7,"open":true}],\
        "resolution":{"granularity":"1m","read_from":"buckets_1h summaries",\
        "point_ms":900000,"widened":false},"documents_read":1,"state_windows_read":1}
        """;

    final int exitCode =
        queryBuckets(
            points,
            "--metric",
            "temperature",
            "--max-data-points",
            "4",
            "--interval",
            "1m",
            "--fill",
            "previous",
            "--from",
            "2026-11-22T14:00:00Z",
            "--to",
            "2026-11-22T15:00:00Z");

    assertThat(exitCode).isZero();
    assertThat(parameters(request))
        .containsExactly(
            Map.entry("metric", "temperature"),
            Map.entry("maxDataPoints", "4"),
            Map.entry("interval_ms", "60000"),
            Map.entry("fill", "previous"),
            Map.entry("quantiles", "0.5,0.95,0.99"),
            Map.entry("from", "2026-11-22T14:00:00Z"),
            Map.entry("to", "2026-11-22T15:00:00Z"));
    assertThat(out.toString())
        .isEqualTo(
            """
            sensor 7/a temperature, 15m buckets in [2026-11-22T14:00:00Z, 2026-11-22T15:00:00Z)
            start                 count   min   avg   max    sum   twa  coverage
            2026-11-22T14:00:00Z    900  19.1    20    21  18000  19.8      100%
            2026-11-22T14:15:00Z      0    21    21    21      -                  filled: previous
            2026-11-22T14:30:00Z    450  20.4  20.5  20.7   9225                  open
            3 buckets (1 open, 1 filled); documents_read: 1, state_windows_read: 1
            read: 1m windows from buckets_1h summaries, 15m a point
            """);
  }

  @Test
  void shouldShowEachPointsResendsLateReadingsAndCompletenessWhereTheAnswerHasThem() {
    final String points =
        """
        {"sensor_id":"sensor 7/a","metric":"temperature","granularity":"15m",\
        "from":"2026-11-22T14:00:00Z","to":"2026-11-22T14:45:00Z","buckets":[\
        {"start":"2026-11-22T14:00:00Z","end":"2026-11-22T14:15:00Z",\
        "count":180,"sum":3600.0,"avg":20.0,"min":19.1,"max":21.0,"twa":19.8,\
        "coverage":1.0,"quantiles":null,"resends":3,"late_readings":0,\
        "expected_interval_ms":5000,"expected":180.0,"completeness":1.0,"open":false},\
        {"start":"2026-11-22T14:15:00Z","end":"2026-11-22T14:30:00Z",\
        "count":0,"sum":null,"avg":null,"min":null,"max":null,"quantiles":null,\
        "resends":0,"late_readings":0,"expected_interval_ms":5000,"expected":180.0,\
        "completeness":0.0,"open":false,"filled":"null"},\
        {"start":"2026-11-22T14:30:00Z","end":"2026-11-22T14:45:00Z",\
        "count":121,"sum":2420.0,"avg":20.0,"min":19.5,"max":20.5,"twa":20.0,\
        "coverage":0.97,"quantiles":null,"resends":null,"late_readings":null,\
        "expected_interval_ms":5000,"expected":180.0,"completeness":0.67222,"open":false}],\
        "documents_read":1,"state_windows_read":0}
        """;

    final int exitCode =
        queryBuckets(
            points,
            "--max-data-points",
            "3",
            "--fill",
            "null",
            "--from",
            "2026-11-22T14:00:00Z",
            "--to",
            "2026-11-22T14:45:00Z");

    assertThat(exitCode).isZero();
    // the last point's counts are unknown: a document written before they were counted
    assertThat(out.toString())
        .isEqualTo(
            """
            sensor 7/a temperature, 15m buckets in [2026-11-22T14:00:00Z, 2026-11-22T14:45:00Z)
            start                 count   min  avg   max   sum   twa  coverage  resends  late  completeness
            2026-11-22T14:00:00Z    180  19.1   20    21  3600  19.8      100%        3     0          100%
            2026-11-22T14:15:00Z      0     -    -     -     -                        0     0            0%  filled: null
            2026-11-22T14:30:00Z    121  19.5   20  20.5  2420    20       97%                        67.2%
            3 buckets (0 open, 1 filled); documents_read: 1, state_windows_read: 0
            """);
  }

  @Test
  void shouldPrintARangesResendsLateReadingsAndCompleteness() {
    body =
        STATISTICS.replace(
            "\"documents_read\"",
            "\"resends\":12,\"late_readings\":null,\"expected_interval_ms\":1000,"
                + "\"expected\":3600.0,\"completeness\":1.0,\"documents_read\"");

    final int exitCode =
        execute(
            "query",
            "statistics",
            "--sensor",
            "sensor 7/a",
            "--from",
            "2026-11-22T13:00:00Z",
            "--to",
            "2026-11-22T14:00:00Z");

    assertThat(exitCode).isZero();
    assertThat(out.toString())
        .contains("resends:                    12\n")
        .contains("late_readings:              -\n")
        .contains("expected_interval_ms:       1000\n")
        .contains("expected:                   3600\n")
        .contains("completeness:               1\n");
  }

  @Test
  void shouldPrintTheLearnedIntervalAndTheCompletenessAtItOfALearnedMetric() {
    body =
        STATISTICS.replace(
            "\"documents_read\"",
            "\"resends\":0,\"late_readings\":0,\"expected_interval_ms\":null,"
                + "\"learned_interval_ms\":5000,\"expected\":720.0,\"completeness\":0.5,"
                + "\"documents_read\"");

    final int exitCode =
        execute(
            "query",
            "statistics",
            "--sensor",
            "sensor 7/a",
            "--from",
            "2026-11-22T13:00:00Z",
            "--to",
            "2026-11-22T14:00:00Z");

    assertThat(exitCode).isZero();
    assertThat(out.toString())
        .contains("expected_interval_ms:       -\n")
        .contains("learned_interval_ms:        5000\n")
        .contains("expected:                   720\n")
        .contains("completeness:               0.5\n");
  }

  @Test
  void shouldShowTheCompletenessOfPointsOfALearnedMetric() {
    final String points =
        """
        {"sensor_id":"sensor 7/a","metric":"door","granularity":"1h",\
        "from":"2026-11-22T14:00:00Z","to":"2026-11-22T15:00:00Z","buckets":[\
        {"start":"2026-11-22T14:00:00Z","end":"2026-11-22T15:00:00Z",\
        "count":9,"sum":9.0,"avg":1.0,"min":1.0,"max":1.0,"twa":1.0,\
        "coverage":1.0,"quantiles":null,"resends":0,"late_readings":0,\
        "expected_interval_ms":null,"learned_interval_ms":300000,"expected":12.0,\
        "completeness":0.75,"open":false}],\
        "documents_read":1,"state_windows_read":0}
        """;

    final int exitCode =
        queryBuckets(
            points,
            "--granularity",
            "1h",
            "--from",
            "2026-11-22T14:00:00Z",
            "--to",
            "2026-11-22T15:00:00Z");

    assertThat(exitCode).isZero();
    assertThat(out.toString()).contains("completeness").contains("75%");
  }

  @Test
  void shouldRefuseBucketsWithoutAGranularityAPointCountOrAnIntervalAndAnUnknownFill() {
    assertThat(execute("query", "buckets", "--sensor", "s", "--last", "1h")).isEqualTo(2);
    assertThat(err.toString()).contains("give --granularity, or --max-data-points or --interval");
    assertThat(
            execute("query", "buckets", "--sensor", "s", "--last", "1h", "--max-data-points", "0"))
        .isEqualTo(2);
    assertThat(err.toString()).contains("--max-data-points must be at least 1");
    assertThat(
            execute(
                "query",
                "buckets",
                "--sensor",
                "s",
                "--last",
                "1h",
                "--interval",
                "1m",
                "--fill",
                "zero"))
        .isEqualTo(2);
    assertThat(err.toString()).contains("--fill must be one of none, null, previous, linear");
    assertThat(execute("query", "buckets", "--sensor", "s", "--last", "1h", "--interval", "15"))
        .isEqualTo(2);
    assertThat(request).as("nothing was asked").isNull();
  }

  @Test
  void shouldSaySoWhenNoWindowHasReadings() {
    body =
        """
        {"sensor_id":"s","metric":null,"granularity":"1h","from":"2026-11-22T00:00:00Z",\
        "to":"2026-11-23T00:00:00Z","buckets":[],"documents_read":0,"state_windows_read":0}
        """;

    assertThat(execute("query", "buckets", "--sensor", "s", "--granularity", "1h", "--last", "1d"))
        .isZero();

    assertThat(parameters(request)).doesNotContainKey("metric");
    assertThat(out.toString())
        .isEqualTo(
            """
            s, 1h buckets in [2026-11-22T00:00:00Z, 2026-11-23T00:00:00Z)
            no window of the range has readings
            0 buckets (0 open); documents_read: 0, state_windows_read: 0
            """);
  }

  @Test
  void shouldPrintTheApisJsonAsItIs() {
    assertThat(queryBuckets(BUCKETS, "--granularity", "1m", "--last", "5m", "--json")).isZero();

    assertThat(out.toString()).isEqualTo(BUCKETS);
  }

  @Test
  void shouldAskForTheLastSpanUpToNow() {
    body = STATISTICS;
    final Instant before = Instant.now();

    execute("query", "statistics", "--sensor", "s", "--last", "90s");

    final Instant after = Instant.now();
    final Instant from = Instant.parse(parameters(request).get("from"));
    final Instant to = Instant.parse(parameters(request).get("to"));
    assertThat(Duration.between(from, to)).isEqualTo(Duration.ofSeconds(90));
    assertThat(to).isBetween(before.minusMillis(1), after);
  }

  @Test
  void shouldPrintTheApisMessageAndExitOneOnABadRequest() {
    answerError(400, "granularity 1w is not one of 1m, 1h");

    final int exitCode =
        execute("query", "buckets", "--sensor", "s", "--granularity", "1w", "--last", "1h");

    assertThat(exitCode).isEqualTo(1);
    assertThat(out.toString()).isEmpty();
    assertThat(err.toString())
        .isEqualTo("bucketer query: granularity 1w is not one of 1m, 1h" + System.lineSeparator());
  }

  @Test
  void shouldPrintTheApisMessageAndExitOneForAnUnknownSeries() {
    answerError(404, "no buckets for series sensor-9/temperature");

    final int exitCode =
        execute(
            "query",
            "statistics",
            "--sensor",
            "sensor-9",
            "--metric",
            "temperature",
            "--last",
            "1h");

    assertThat(exitCode).isEqualTo(1);
    assertThat(err.toString())
        .isEqualTo(
            "bucketer query: no buckets for series sensor-9/temperature" + System.lineSeparator());
  }

  @Test
  void shouldSayWhenToRetryWhileTheStoresRebalance() {
    answerError(503, "the state stores are rebalancing");
    headers.put("Retry-After", "5");

    assertThat(execute("query", "buckets", "--sensor", "s", "--granularity", "1m", "--last", "1h"))
        .isEqualTo(1);

    assertThat(err.toString())
        .isEqualTo(
            "bucketer query: the state stores are rebalancing (retry after 5 s)"
                + System.lineSeparator());
  }

  @Test
  void shouldShowAnAnswerThatIsNotTheApisAsItIs() {
    // A processor from before the query API answers its own plain-text 404.
    status = 404;
    body = "not found\n";

    assertThat(execute("query", "statistics", "--sensor", "s", "--last", "1h")).isEqualTo(1);

    assertThat(err.toString())
        .isEqualTo("bucketer query: HTTP 404: not found" + System.lineSeparator());
  }

  @Test
  void shouldNameTheUrlAndExitOneWhenNoProcessorListens() throws IOException {
    final int closedPort;
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      closedPort = socket.getLocalPort();
    }
    final String url = "http://127.0.0.1:" + closedPort;

    final int exitCode =
        execute("query", "statistics", "--sensor", "s", "--last", "1h", "--url", url);

    assertThat(exitCode).isEqualTo(1);
    assertThat(err.toString())
        .isEqualTo(
            "bucketer query: cannot reach the processor at "
                + url
                + ": connection refused"
                + System.lineSeparator());
  }

  @Test
  void shouldRefuseARangeGivenTwiceOrHalfGiven() {
    assertThat(execute("query", "statistics", "--sensor", "s")).isEqualTo(2);
    assertThat(execute("query", "statistics", "--sensor", "s", "--from", "2026-11-22T13:00:00Z"))
        .isEqualTo(2);
    assertThat(
            execute(
                "query",
                "statistics",
                "--sensor",
                "s",
                "--last",
                "1h",
                "--from",
                "2026-11-22T13:00:00Z",
                "--to",
                "2026-11-22T14:00:00Z"))
        .isEqualTo(2);
    assertThat(request).as("nothing was asked").isNull();
  }

  @Test
  void shouldRefuseAUrlThatIsNotHttp() {
    assertThat(
            execute(
                "query", "statistics", "--sensor", "s", "--last", "1h", "--url", "localhost:8080"))
        .isEqualTo(2);

    assertThat(err.toString()).contains("--url must be an http:// or https:// address");
  }

  @Test
  void shouldRefuseASpanWithoutAUnit() {
    assertThat(execute("query", "statistics", "--sensor", "s", "--last", "60")).isEqualTo(2);

    assertThat(err.toString()).contains("--last").contains("not a time span");
  }

  /**
   * {@code bucketer query buckets --sensor "sensor 7/a"} with {@code options}, asking the stub,
   * whose body is {@code answer}.
   */
  private int queryBuckets(final String answer, final String... options) {
    body = answer;
    return execute(with(new String[] {"query", "buckets", "--sensor", "sensor 7/a"}, options));
  }

  /** The stub answers {@code status} with the API's error body, {@code {"error":message}}. */
  private void answerError(final int status, final String message) {
    this.status = status;
    body = "{\"error\":\"" + message + "\"}";
  }

  private int execute(final String... args) {
    final CommandLine commandLine = BucketerCli.commandLine();
    commandLine.setOut(new PrintWriter(out));
    commandLine.setErr(new PrintWriter(err));
    if (Arrays.asList(args).contains("--url")) {
      return commandLine.execute(args);
    }
    // Every other run asks the stub.
    final String[] withUrl = Arrays.copyOf(args, args.length + 2);
    withUrl[args.length] = "--url";
    withUrl[args.length + 1] = "http://127.0.0.1:" + api.getAddress().getPort();
    return commandLine.execute(withUrl);
  }

  /** The query's parameters, decoded, in the order sent. */
  private static Map<String, String> parameters(final URI uri) {
    final Map<String, String> parameters = new LinkedHashMap<>();
    for (final String pair : uri.getRawQuery().split("&")) {
      final int equals = pair.indexOf('=');
      parameters.put(
          URLDecoder.decode(pair.substring(0, equals), StandardCharsets.UTF_8),
          URLDecoder.decode(pair.substring(equals + 1), StandardCharsets.UTF_8));
    }
    return parameters;
  }
}
