package io.bucketer.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.reactivestreams.client.MongoClient;
import com.mongodb.reactivestreams.client.MongoClients;
import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.Retention;
import io.bucketer.buckets.SeriesKey;
import io.bucketer.embedded.EmbeddedMongoServer;
import io.bucketer.http.HttpSecurity.Access;
import io.bucketer.http.HttpSecurity.Limits;
import io.bucketer.http.HttpSecurity.MetricsAccess;
import io.bucketer.query.LiveWindows;
import io.bucketer.query.QueryLimits;
import io.bucketer.query.SeriesOwner;
import io.bucketer.query.SeriesQueries;
import io.bucketer.query.StoredBuckets;
import io.bucketer.security.ApiCredentials;
import io.bucketer.security.PasswordHashes;
import io.bucketer.sink.MongoBucketWriter;
import io.bucketer.testing.SeriesBuckets;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A fuzz test of the HTTP listener: 1,500 generated malformed requests (odd methods and versions,
 * percent-encoding gone wrong, NUL, huge paths, values and headers, broken credentials) against
 * every endpoint, on an instance open to this host and on one asking for credentials, written byte
 * by byte on raw sockets, so that nothing a client library would refuse to send is left out. Never
 * a 5xx, never an exception's or a class's name in a body. Seeded: the same requests each run.
 */
class MalformedRequestsTest {

  private static final int REQUESTS = 1_500;
  private static final long SEED = 20261125L;
  private static final Pattern INTERNAL_NAME =
      Pattern.compile(
          "Exception|Error:|java\\.|javax\\.|org\\.eclipse|jetty|io\\.bucketer|com\\.mongodb"
              + "|org\\.bson|reactor\\.|\\tat |NullPointer|stack",
          Pattern.CASE_INSENSITIVE);
  private static final List<String> PATHS =
      List.of(
          "/",
          "/ui",
          "/ui/",
          "/ui/chart.js",
          "/ui/index.html",
          "/metrics",
          "/health",
          "/ready",
          "/api/v1/series",
          "/api/v1/series/",
          "/api/v1/series/sensor-8/statistics",
          "/api/v1/series/sensor-8/buckets",
          "/api/v1/series/sensor%207%2Fa/statistics",
          "/api/v1/series/x/y/z/statistics");
  private static final List<String> PARAMETERS =
      List.of(
          "prefix",
          "limit",
          "metric",
          "from",
          "to",
          "granularity",
          "maxDataPoints",
          "interval_ms",
          "fill",
          "quantiles",
          "",
          "%00",
          "from[]");
  private static final List<String> NASTY =
      List.of(
          "%00",
          "%",
          "%2",
          "%zz",
          "%C0%AF",
          "%FF%FE",
          "%E2%82",
          "%2e%2e",
          "..",
          "//",
          "\\",
          ";x=1",
          "%0d%0aX-Injected:%201",
          "%25",
          "%u0000",
          "\u00e9",
          "\u2603",
          "'",
          "\"",
          "<script>",
          "{}",
          "-1",
          "0",
          "99999999999999999999",
          "1e309",
          "NaN",
          "2026-13-45T99:99:99Z",
          "2026-11-22T13:00:00",
          "+10000-01-01T00:00:00Z",
          "1m,1h",
          "5m",
          "none",
          "null",
          "previous",
          "linear",
          "2147483648",
          "9223372036854775807",
          "-9223372036854775808",
          "");
  private static final List<String> METHODS =
      List.of(
          "GET",
          "GET",
          "GET",
          "HEAD",
          "POST",
          "PUT",
          "DELETE",
          "OPTIONS",
          "TRACE",
          "PATCH",
          "CONNECT",
          "get",
          "G\u0000T",
          "PRI",
          "BREW",
          "X".repeat(300));
  private static final List<String> VERSIONS =
      List.of(
          "HTTP/1.1", "HTTP/1.1", "HTTP/1.1", "HTTP/1.0", "HTTP/2.0", "HTTP/9.9", "HTTP/1.1x", "");

  @TempDir static Path folder;
  private static EmbeddedMongoServer mongo;
  private static MongoClient client;
  private static OpsServer thisHostOnly;
  private static OpsServer withCredentials;

  @BeforeAll
  static void serve() throws Exception {
    mongo = EmbeddedMongoServer.start();
    client = MongoClients.create(mongo.connectionString());
    final List<Granularity> granularities = Granularity.parseList("1m,1h");
    final SeriesKey series = new SeriesKey("sensor-8", "temperature");
    final long start = Instant.parse("2026-11-22T12:00:00Z").toEpochMilli();
    new MongoBucketWriter(
            client.getDatabase("iot"), "buckets_", granularities, Retention.NONE, 500, 4)
        .write(
            SeriesBuckets.closed(series, granularities, SeriesBuckets.readings(series, start, 600)),
            Duration.ofSeconds(30));
    final Path users =
        Files.writeString(
            folder.resolve("users"),
            "fuzz:" + PasswordHashes.pbkdf2("fuzz-pw".toCharArray()) + ":sensor-\n");
    final Path tokens =
        Files.writeString(
            folder.resolve("tokens"),
            ApiCredentials.tokenLine("ci", "fuzz-token-0123456789", List.of()));
    thisHostOnly = serve(HttpSecurity.DEFAULT, granularities);
    withCredentials =
        serve(
            new HttpSecurity(
                Optional.empty(),
                Access.withCredentials(ApiCredentials.load(users, tokens)),
                MetricsAccess.OPEN,
                Limits.DEFAULT),
            granularities);
  }

  private static OpsServer serve(
      final HttpSecurity security, final List<Granularity> granularities) {
    final OpsServer server = TestServers.bind(security);
    final SeriesApi api =
        new SeriesApi(
            new SeriesQueries(
                new StoredBuckets(
                    client.getDatabase("iot"), "buckets_", granularities, Duration.ofSeconds(30))),
            key -> new SeriesOwner.Local(LiveWindows.NONE),
            new QueryLimits(Duration.ofDays(2), 100, Duration.ofSeconds(30)),
            "127.0.0.1:" + server.port());
    server.serve(
        () -> "bucketer_up 1\n",
        () -> true,
        Optional::empty,
        Map.of(SeriesApi.PATH, api, "/", new WebPage()));
    return server;
  }

  @AfterAll
  static void stop() {
    thisHostOnly.close();
    withCredentials.close();
    client.close();
    mongo.close();
  }

  @Test
  void shouldNeverAnswerA5xxNorNameAnythingInternal() throws Exception {
    final Random random = new Random(SEED);
    final List<String> faults = new ArrayList<>();
    final int[] byClass = new int[6];
    for (int i = 0; i < REQUESTS; i++) {
      final OpsServer server = random.nextBoolean() ? thisHostOnly : withCredentials;
      final byte[] request = request(random);
      final Answer answer = send(server, request);
      byClass[answer.status() / 100]++;
      final boolean versionRefused = answer.status() == 505 && !speaksHttp11(request);
      if ((answer.status() >= 500 && !versionRefused)
          || INTERNAL_NAME.matcher(answer.body()).find()) {
        faults.add(answer.status() + " for " + printable(request) + " -> " + answer.body());
      }
    }

    assertThat(faults).isEmpty();
    // The generator reached the endpoints, not only the parser: answers of several kinds.
    assertThat(byClass[2]).as("2xx").isGreaterThan(10);
    assertThat(byClass[4]).as("4xx").isGreaterThan(500);
    assertThat(
            send(
                    thisHostOnly,
                    "GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
                        .getBytes(StandardCharsets.US_ASCII))
                .status())
        .isEqualTo(200);
  }

  /**
   * The chart parameters ({@code maxDataPoints}, {@code interval_ms}, {@code fill}) with values
   * that are no number, negative, zero, huge or unknown, on a request otherwise well formed: each a
   * 400 that names nothing internal.
   */
  @Test
  void shouldRefuseEveryMalformedChartParameterWith400() throws Exception {
    final List<String> faults = new ArrayList<>();
    final List<String> numbers =
        List.of(
            "0",
            "-1",
            "-9223372036854775808",
            "9223372036854775807",
            "99999999999999999999",
            "1e3",
            "4.5",
            "NaN",
            "0x10",
            "%00",
            "%zz",
            "%20",
            "a".repeat(3_000));
    final List<String> requests = new ArrayList<>();
    for (final String value : numbers) {
      requests.add("maxDataPoints=" + value);
      requests.add("interval_ms=" + value);
      requests.add("granularity=1m&interval_ms=" + value);
    }
    for (final String value : List.of("zero", "NULL", "Linear", "%00", "none%00", "-1", "")) {
      requests.add("maxDataPoints=10&fill=" + value + (value.isEmpty() ? "x" : ""));
    }
    requests.add("fill=null");
    for (final String query : requests) {
      final Answer answer =
          send(
              thisHostOnly,
              ("GET /api/v1/series/sensor-8/buckets?metric=temperature"
                      + "&from=2026-11-22T12:00:00Z&to=2026-11-22T13:00:00Z&"
                      + query
                      + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
                  .getBytes(StandardCharsets.UTF_8));
      if (answer.status() != 400
          || !answer.body().startsWith("{\"error\":")
          || INTERNAL_NAME.matcher(answer.body()).find()) {
        faults.add(answer.status() + " for " + query + " -> " + answer.body());
      }
    }

    assertThat(faults).isEmpty();
  }

  private static boolean speaksHttp11(final byte[] request) {
    final String text = new String(request, StandardCharsets.UTF_8);
    final int endOfLine = text.indexOf("\r\n");
    final String requestLine = endOfLine < 0 ? text : text.substring(0, endOfLine);
    return requestLine.endsWith(" HTTP/1.1") || requestLine.endsWith(" HTTP/1.0");
  }

  private static byte[] request(final Random random) {
    final StringBuilder path = new StringBuilder(pick(random, PATHS));
    for (int n = random.nextInt(3); n > 0; n--) {
      final int at = random.nextInt(path.length() + 1);
      path.insert(
          at,
          random.nextInt(4) == 0
              ? randomText(random, 1 + random.nextInt(40))
              : pick(random, NASTY));
    }
    if (random.nextInt(20) == 0) {
      path.append("/").append("a".repeat(10_000 + random.nextInt(10_000)));
    }
    if (random.nextBoolean()) {
      path.append('?');
      for (int n = 1 + random.nextInt(5); n > 0; n--) {
        path.append(pick(random, PARAMETERS)).append('=').append(value(random)).append('&');
      }
      if (random.nextBoolean()) {
        path.append("from=2026-11-22T12:00:00Z&to=2026-11-22T13:00:00Z&metric=temperature");
      }
    }
    final StringBuilder text = new StringBuilder();
    text.append(pick(random, METHODS))
        .append(' ')
        .append(path)
        .append(' ')
        .append(pick(random, VERSIONS));
    text.append("\r\n");
    if (random.nextInt(10) != 0) {
      text.append("Host: ")
          .append(random.nextInt(10) == 0 ? randomText(random, 30) : "127.0.0.1")
          .append("\r\n");
    }
    for (int n = random.nextInt(4); n > 0; n--) {
      text.append(header(random)).append("\r\n");
    }
    text.append("Connection: close\r\n\r\n");
    if (random.nextInt(8) == 0) {
      text.append(randomText(random, random.nextInt(200)));
    }
    return text.toString().getBytes(StandardCharsets.UTF_8);
  }

  private static String header(final Random random) {
    return switch (random.nextInt(12)) {
      case 0 -> "Authorization: Basic " + randomText(random, 1 + random.nextInt(60));
      case 1 -> "Authorization: Bearer " + randomText(random, 1 + random.nextInt(60));
      case 2 ->
          "Authorization: "
              + pick(
                  random,
                  List.of(
                      "Basic ZnV6ejpmdXp6LXB3",
                      "Bearer fuzz-token-0123456789",
                      "Basic ",
                      "Bearer",
                      "Negotiate abc"));
      case 3 -> "X-Big: " + "b".repeat(4_000 + random.nextInt(12_000));
      case 4 -> "Content-Length: " + pick(random, List.of("-1", "abc", "99999999999", "5", "0"));
      case 5 -> "Transfer-Encoding: " + pick(random, List.of("chunked", "gzip, chunked", "x"));
      case 6 -> QueryForwarder.HEADER + ": " + randomText(random, 20);
      case 7 -> "Bad Header Name: x";
      case 8 -> "X-Nul: a\u0000b";
      case 9 -> " folded-continuation";
      case 10 -> "Expect: 100-continue";
      default -> randomText(random, 10) + ": " + randomText(random, 30);
    };
  }

  private static String value(final Random random) {
    return switch (random.nextInt(4)) {
      case 0 -> pick(random, NASTY);
      case 1 -> randomText(random, random.nextInt(20));
      case 2 -> "a".repeat(2_000 + random.nextInt(3_000));
      default -> pick(random, NASTY) + randomText(random, 5) + pick(random, NASTY);
    };
  }

  /** Printable ASCII and a few control characters, never a dot: no text here names a class. */
  private static String randomText(final Random random, final int length) {
    final String alphabet =
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 -_~!$&'()*+,;=:@/?#[]%\t\u0001\u007f";
    final StringBuilder text = new StringBuilder();
    for (int i = 0; i < length; i++) {
      text.append(alphabet.charAt(random.nextInt(alphabet.length())));
    }
    return text.toString();
  }

  private static <T> T pick(final Random random, final List<T> values) {
    return values.get(random.nextInt(values.size()));
  }

  private record Answer(int status, String body) {}

  /**
   * Writes the request and reads until the server closes. A connection closed without a status line
   * (a request too broken to answer) counts as 400: the server did not fail.
   */
  private static Answer send(final OpsServer server, final byte[] request) throws IOException {
    try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), server.port())) {
      socket.setSoTimeout((int) Duration.ofSeconds(20).toMillis());
      final OutputStream out = socket.getOutputStream();
      try {
        out.write(request);
        out.flush();
        socket.shutdownOutput();
      } catch (IOException e) {
        // The server may close on a request it refused before reading all of it.
      }
      final ByteArrayOutputStream received = new ByteArrayOutputStream();
      final InputStream in = socket.getInputStream();
      try {
        in.transferTo(received);
      } catch (SocketTimeoutException e) {
        throw new AssertionError("no answer within 20 s to " + printable(request), e);
      } catch (IOException e) {
        // reset by the server after its answer
      }
      final String text = received.toString(StandardCharsets.UTF_8);
      if (!text.startsWith("HTTP/1.")) {
        return new Answer(400, text);
      }
      final int status = Integer.parseInt(text.substring(9, 12));
      final int bodyStart = text.indexOf("\r\n\r\n");
      return new Answer(status, bodyStart < 0 ? "" : text.substring(bodyStart + 4));
    }
  }

  private static String printable(final byte[] request) {
    final String text = new String(request, StandardCharsets.UTF_8);
    final String shown = text.length() > 300 ? text.substring(0, 300) + "..." : text;
    return shown.replace("\r\n", "\\r\\n").replace("\u0000", "\\0");
  }
}
