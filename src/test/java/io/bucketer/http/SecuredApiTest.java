package io.bucketer.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.mongodb.reactivestreams.client.MongoClient;
import com.mongodb.reactivestreams.client.MongoClients;
import io.bucketer.buckets.ClosedBucket;
import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.Retention;
import io.bucketer.buckets.SeriesKey;
import io.bucketer.embedded.EmbeddedMongoServer;
import io.bucketer.http.HttpSecurity.Access;
import io.bucketer.http.HttpSecurity.ClientAuth;
import io.bucketer.http.HttpSecurity.Limits;
import io.bucketer.http.HttpSecurity.MetricsAccess;
import io.bucketer.http.HttpSecurity.Tls;
import io.bucketer.query.LiveWindows;
import io.bucketer.query.QueryLimits;
import io.bucketer.query.SeriesOwner;
import io.bucketer.query.SeriesQueries;
import io.bucketer.query.StoredBuckets;
import io.bucketer.security.ApiCredentials;
import io.bucketer.security.ClientTls;
import io.bucketer.security.PasswordHashes;
import io.bucketer.sink.MongoBucketWriter;
import io.bucketer.testing.SeriesBuckets;
import io.bucketer.testing.TestCertificates;
import io.bucketer.testing.TestCertificates.Authority;
import io.bucketer.testing.TestCertificates.Issued;
import io.bucketer.testing.TestCertificates.Purpose;
import java.io.IOException;
import java.math.BigInteger;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The data API over HTTPS with client certificates required and passwords, on two instances that
 * forward to each other: who gets in, what each user sees, and a certificate renewed in place.
 */
class SecuredApiTest {

  private static final List<Granularity> GRANULARITIES = Granularity.parseList("1m,1h");
  private static final SeriesKey HERE = new SeriesKey("sensor 7/a", "temperature");
  private static final SeriesKey THERE = new SeriesKey("sensor-8", "temperature");
  private static final long START = Instant.parse("2026-11-22T12:00:00Z").toEpochMilli();
  private static final String ONE_HOUR = "&from=2026-11-22T13:00:00Z&to=2026-11-22T14:00:00Z";
  private static final String HERE_STATISTICS =
      "/api/v1/series/sensor%207%2Fa/statistics?metric=temperature" + ONE_HOUR;
  private static final String THERE_STATISTICS =
      "/api/v1/series/sensor-8/statistics?metric=temperature" + ONE_HOUR;
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir static Path folder;
  private static EmbeddedMongoServer mongo;
  private static MongoClient client;
  private static Authority ca;
  private static Issued clientCertificate;
  private static Path serverChain;
  private static Path serverKey;
  private static OpsServer here;
  private static OpsServer there;

  @BeforeAll
  static void serve() throws Exception {
    mongo = EmbeddedMongoServer.start();
    client = MongoClients.create(mongo.connectionString());
    final List<ClosedBucket> buckets = new ArrayList<>();
    for (final SeriesKey series : List.of(HERE, THERE)) {
      buckets.addAll(
          SeriesBuckets.closed(
              series, GRANULARITIES, SeriesBuckets.readings(series, START, 7_200)));
    }
    new MongoBucketWriter(
            client.getDatabase("iot"), "buckets_", GRANULARITIES, Retention.NONE, 500, 4)
        .write(buckets, Duration.ofSeconds(30));

    ca = TestCertificates.ca("bucketer test CA");
    final Issued server =
        TestCertificates.issue(ca, "bucketer", Purpose.SERVER_AND_CLIENT, "127.0.0.1", "localhost");
    serverChain = server.writeChain(folder.resolve("server.pem"));
    serverKey = server.writeKey(folder.resolve("server-key.pem"));
    clientCertificate = TestCertificates.issue(ca, "grafana", Purpose.CLIENT);
    final Path bundle = ca.writeBundle(folder.resolve("ca.pem"));
    final Path users =
        Files.writeString(
            folder.resolve("users"),
            "admin:"
                + PasswordHashes.bcrypt("admin-pw".toCharArray())
                + "\ntenant7:"
                + PasswordHashes.bcrypt("seven-pw".toCharArray())
                + ":sensor 7\ntenant8:"
                + PasswordHashes.bcrypt("eight-pw".toCharArray())
                + ":sensor-8,sensor-9\n");
    final HttpSecurity security =
        new HttpSecurity(
            Optional.of(
                new Tls(
                    serverChain,
                    serverKey,
                    null,
                    ClientAuth.REQUIRED,
                    bundle,
                    null,
                    Duration.ofHours(1))),
            Access.withCredentials(ApiCredentials.load(users, null)),
            MetricsAccess.API,
            Limits.DEFAULT);
    here = TestServers.bind(security);
    there = TestServers.bind(security);
    serve(here, THERE, there.port());
    serve(there, HERE, here.port());
  }

  /** Serves the API, told that {@code elsewhere} is held by the instance on {@code port}. */
  private static void serve(final OpsServer server, final SeriesKey elsewhere, final int port) {
    final SeriesApi api =
        new SeriesApi(
            new SeriesQueries(
                new StoredBuckets(
                    client.getDatabase("iot"), "buckets_", GRANULARITIES, Duration.ofSeconds(30))),
            series ->
                series.equals(elsewhere)
                    ? new SeriesOwner.Remote("127.0.0.1", port)
                    : new SeriesOwner.Local(LiveWindows.NONE),
            new QueryLimits(Duration.ofDays(1), 100, Duration.ofSeconds(30)),
            "127.0.0.1:" + server.port(),
            server.peerAccess());
    server.serve(() -> "bucketer_up 1\n", () -> true, Optional::empty, Map.of(SeriesApi.PATH, api));
  }

  @AfterAll
  static void stop() {
    here.close();
    there.close();
    client.close();
    mongo.close();
  }

  @Test
  void shouldShakeHandsWithAClientThatTrustsTheCaAndShowsItsCertificate() throws Exception {
    final HttpResponse<String> health = get(client(ca, clientCertificate), here, "/health", null);

    assertThat(health.statusCode()).isEqualTo(200);
    assertThat(health.sslSession()).isPresent();
    assertThat(health.headers().firstValue("Strict-Transport-Security")).isPresent();
  }

  @Test
  void shouldRefuseAHandshakeWithAClientThatTrustsAnotherCa() {
    final Authority rogue = TestCertificates.ca("rogue CA");

    assertThatThrownBy(() -> get(client(rogue, clientCertificate), here, "/health", null))
        .isInstanceOf(IOException.class);
  }

  @Test
  void shouldRefuseAClientWithoutACertificateOrWithOneOfAnotherCa() {
    final Issued foreign =
        TestCertificates.issue(TestCertificates.ca("rogue CA"), "intruder", Purpose.CLIENT);

    assertThatThrownBy(() -> get(client(ca, null), here, "/health", null))
        .isInstanceOf(IOException.class);
    assertThatThrownBy(() -> get(client(ca, foreign), here, "/health", null))
        .isInstanceOf(IOException.class);
  }

  @Test
  void shouldAskForCredentialsWithoutSayingWhichPartWasWrong() throws Exception {
    final HttpClient https = client(ca, clientCertificate);

    final HttpResponse<String> none = get(https, here, HERE_STATISTICS, null);
    final HttpResponse<String> wrongPassword = get(https, here, HERE_STATISTICS, "admin:nope");
    final HttpResponse<String> wrongUser = get(https, here, HERE_STATISTICS, "nobody:admin-pw");
    final HttpResponse<String> metrics = get(https, here, "/metrics", null);

    for (final HttpResponse<String> refused : List.of(none, wrongPassword, wrongUser, metrics)) {
      assertThat(refused.statusCode()).isEqualTo(401);
      assertThat(refused.headers().firstValue("WWW-Authenticate"))
          .hasValue("Basic realm=\"bucketer\", charset=\"UTF-8\"");
      assertThat(refused.body()).isEqualTo(none.body());
    }
    assertThat(get(https, here, "/health", null).statusCode()).isEqualTo(200);
    assertThat(get(https, here, "/ready", null).statusCode()).isEqualTo(200);
    assertThat(get(https, here, "/metrics", "admin:admin-pw").body()).isEqualTo("bucketer_up 1\n");
    assertThat(get(https, here, HERE_STATISTICS, "admin:admin-pw").statusCode()).isEqualTo(200);
  }

  @Test
  void shouldListOnlyTheSeriesOfAUsersPrefixes() throws Exception {
    final HttpClient https = client(ca, clientCertificate);

    assertThat(sensors(get(https, here, "/api/v1/series", "admin:admin-pw")))
        .containsExactly("sensor 7/a", "sensor-8");
    assertThat(sensors(get(https, here, "/api/v1/series", "tenant7:seven-pw")))
        .containsExactly("sensor 7/a");
    assertThat(sensors(get(https, here, "/api/v1/series?prefix=sensor", "tenant8:eight-pw")))
        .containsExactly("sensor-8");
    assertThat(sensors(get(https, here, "/api/v1/series?prefix=sensor%207", "tenant8:eight-pw")))
        .isEmpty();
  }

  @Test
  void shouldAnswerForAnotherUsersSeriesAsIfItDidNotExist() throws Exception {
    final HttpClient https = client(ca, clientCertificate);
    final HttpResponse<String> absent =
        get(
            https,
            here,
            "/api/v1/series/sensor-0/statistics?metric=temperature" + ONE_HOUR,
            "tenant7:seven-pw");

    final HttpResponse<String> hidden = get(https, here, THERE_STATISTICS, "tenant7:seven-pw");

    assertThat(hidden.statusCode()).isEqualTo(404).isEqualTo(absent.statusCode());
    assertThat(JSON.readTree(hidden.body()).get("error").asText())
        .startsWith("no buckets for series");
  }

  @Test
  void shouldForwardWithTheCallersOwnCredentialsOverTls() throws Exception {
    final HttpClient https = client(ca, clientCertificate);

    final HttpResponse<String> forwarded = get(https, here, THERE_STATISTICS, "tenant8:eight-pw");
    final HttpResponse<String> direct = get(https, there, THERE_STATISTICS, "tenant8:eight-pw");

    assertThat(forwarded.statusCode()).isEqualTo(200);
    assertThat(forwarded.headers().firstValue(QueryForwarder.SERVED_BY))
        .hasValue("127.0.0.1:" + there.port());
    assertThat(forwarded.body()).isEqualTo(direct.body());
  }

  @Test
  void shouldCheckAForwardedRequestAsAnyOther() throws Exception {
    final HttpClient https = client(ca, clientCertificate);
    final HttpRequest.Builder asIfForwarded =
        HttpRequest.newBuilder(uri(there, THERE_STATISTICS))
            .header(QueryForwarder.HEADER, "127.0.0.1:" + here.port());

    final HttpResponse<String> anonymous =
        https.send(asIfForwarded.build(), HttpResponse.BodyHandlers.ofString());
    final HttpResponse<String> otherTenant =
        https.send(
            asIfForwarded
                .header("Authorization", AccessGateTest.basic("tenant7", "seven-pw"))
                .build(),
            HttpResponse.BodyHandlers.ofString());

    assertThat(anonymous.statusCode()).isEqualTo(401);
    assertThat(otherTenant.statusCode()).isEqualTo(404);
  }

  @Test
  void shouldServeARenewedCertificateWithoutARestart() throws Exception {
    final BigInteger before = serverSerial(client(ca, clientCertificate));
    final Issued renewed =
        TestCertificates.issue(ca, "bucketer", Purpose.SERVER_AND_CLIENT, "127.0.0.1", "localhost");
    renewed.writeChain(serverChain);
    renewed.writeKey(serverKey);

    here.checkTlsRenewal();

    final BigInteger after = serverSerial(client(ca, clientCertificate));
    assertThat(after).isNotEqualTo(before).isEqualTo(renewed.certificate().getSerialNumber());
    // The other instance renews at its own check; until then it forwards with what it had.
    there.checkTlsRenewal();
    assertThat(
            get(client(ca, clientCertificate), there, HERE_STATISTICS, "admin:admin-pw")
                .statusCode())
        .isEqualTo(200);
  }

  private static BigInteger serverSerial(final HttpClient https) throws Exception {
    final HttpResponse<String> response = get(https, here, "/health", null);
    return ((X509Certificate) response.sslSession().orElseThrow().getPeerCertificates()[0])
        .getSerialNumber();
  }

  private static List<String> sensors(final HttpResponse<String> response) throws Exception {
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    final List<String> sensors = new ArrayList<>();
    JSON.readTree(response.body())
        .get("series")
        .forEach(s -> sensors.add(s.get("sensor_id").asText()));
    return sensors;
  }

  private static HttpResponse<String> get(
      final HttpClient https, final OpsServer server, final String path, final String userPassword)
      throws Exception {
    final HttpRequest.Builder request = HttpRequest.newBuilder(uri(server, path));
    if (userPassword != null) {
      final String[] parts = userPassword.split(":", 2);
      request.header("Authorization", AccessGateTest.basic(parts[0], parts[1]));
    }
    return https.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  private static URI uri(final OpsServer server, final String path) {
    return URI.create("https://127.0.0.1:" + server.port() + path);
  }

  /** A client that trusts {@code trusted} and shows {@code certificate} (none: null). */
  private static HttpClient client(final Authority trusted, final Issued certificate)
      throws Exception {
    final ClientTls tls =
        new ClientTls(
            trusted.writeBundle(Files.createTempFile(folder, "ca", ".pem")),
            certificate == null
                ? null
                : certificate.writeChain(Files.createTempFile(folder, "client", ".pem")),
            certificate == null
                ? null
                : certificate.writeKey(Files.createTempFile(folder, "client-key", ".pem")),
            null);
    return HttpClient.newBuilder()
        .sslContext(tls.context())
        .connectTimeout(Duration.ofSeconds(10))
        .build();
  }
}
