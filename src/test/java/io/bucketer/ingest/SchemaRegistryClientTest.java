package io.bucketer.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import io.bucketer.avro.Reading;
import io.bucketer.embedded.InProcessSchemaRegistry;
import io.bucketer.ingest.InvalidReadingException.Reason;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class SchemaRegistryClientTest {

  private static final RetryBudget FAST =
      new RetryBudget(Duration.ofMillis(10), Duration.ofMillis(50), Duration.ofMillis(400));

  private final InProcessSchemaRegistry registry = InProcessSchemaRegistry.start();

  @AfterEach
  void stopRegistry() {
    registry.close();
  }

  @Test
  void shouldRegisterAndFetchById() throws Exception {
    final int id = client(registry.url()).register("readings-value", Reading.getClassSchema());

    final SchemaRegistryClient consumer = client(registry.url());

    assertThat(id).isEqualTo(1);
    assertThat(consumer.schemaById(id)).isEqualTo(Reading.getClassSchema());
  }

  @Test
  void shouldCacheRegistrationsPerSubjectAndSchema() {
    final SchemaRegistryClient producer = client(registry.url());
    final int first = producer.register("readings-value", Reading.getClassSchema());
    final int requestsAfterFirst = registry.requestCount();

    final int again = producer.register("readings-value", Reading.getClassSchema());

    assertThat(again).isEqualTo(first);
    assertThat(registry.requestCount()).isEqualTo(requestsAfterFirst);
  }

  @Test
  void shouldShareIdsAcrossSubjects() {
    final SchemaRegistryClient producer = client(registry.url());

    final int a = producer.register("a-value", Reading.getClassSchema());
    final int b = producer.register("b-value", Reading.getClassSchema());
    final int other = producer.register("b-value", WriterSchemas.V2_WITH_FIRMWARE);

    assertThat(b).isEqualTo(a);
    assertThat(other).isEqualTo(a + 1);
  }

  @Test
  void shouldServeTheSecondFetchOfAnIdFromTheCache() throws Exception {
    final int id = client(registry.url()).register("readings-value", Reading.getClassSchema());
    final SchemaRegistryClient consumer = client(registry.url());
    final int before = registry.requestCount();

    consumer.schemaById(id);
    consumer.schemaById(id);

    assertThat(registry.requestCount() - before).isEqualTo(1);
  }

  @Test
  void shouldNotFetchWhatItRegisteredItself() throws Exception {
    final SchemaRegistryClient producer = client(registry.url());
    final int id = producer.register("readings-value", Reading.getClassSchema());
    final int before = registry.requestCount();

    assertThat(producer.schemaById(id)).isEqualTo(Reading.getClassSchema());
    assertThat(registry.requestCount()).isEqualTo(before);
  }

  @Test
  void shouldCallAnUnknownIdAnInvalidReadingAndNotRememberIt() throws Exception {
    final SchemaRegistryClient consumer = client(registry.url());

    assertThatThrownBy(() -> consumer.schemaById(1))
        .isInstanceOfSatisfying(
            InvalidReadingException.class,
            e -> assertThat(e.reason()).isEqualTo(Reason.UNKNOWN_SCHEMA_ID));

    client(registry.url()).register("late-value", Reading.getClassSchema());
    assertThat(consumer.schemaById(1)).isEqualTo(Reading.getClassSchema());
  }

  @Test
  void shouldRetryTransientServerErrors() throws Exception {
    final int id = client(registry.url()).register("readings-value", Reading.getClassSchema());
    registry.failNextRequests(2, 503);
    final int before = registry.requestCount();

    assertThat(client(registry.url()).schemaById(id)).isEqualTo(Reading.getClassSchema());
    assertThat(registry.requestCount() - before).isEqualTo(3);
  }

  @Test
  void shouldEndPersistentServerErrorsAsUnavailableNotAsBadData() {
    registry.failNextRequests(Integer.MAX_VALUE, 500);

    assertThatThrownBy(() -> client(registry.url()).schemaById(1))
        .isInstanceOf(SchemaRegistryUnavailableException.class)
        .hasMessageContaining("HTTP 500");
    assertThat(registry.requestCount()).isGreaterThan(1);
  }

  @Test
  void shouldCallAnUnreachableRegistryUnavailableAfterABoundedRetry() {
    final String deadUrl = registry.url();
    registry.close();
    final long start = System.nanoTime();

    assertThatThrownBy(() -> client(deadUrl).schemaById(1))
        .isInstanceOf(SchemaRegistryUnavailableException.class)
        .hasCauseInstanceOf(ConnectException.class)
        .hasMessageContaining(deadUrl)
        .hasMessageMatching("(?s).*: ([2-9]|\\d{2,}) attempt\\(s\\) in .*");
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
  }

  @Test
  void shouldTryTheNextUrlWhenTheFirstIsDown() throws Exception {
    final InProcessSchemaRegistry dead = InProcessSchemaRegistry.start();
    dead.close();
    final int id = client(registry.url()).register("readings-value", Reading.getClassSchema());

    final SchemaRegistryClient failover = client(dead.url() + ", " + registry.url() + "/");

    assertThat(failover.schemaById(id)).isEqualTo(Reading.getClassSchema());
  }

  @Test
  void shouldSendBasicAuthCredentials() throws Exception {
    try (InProcessSchemaRegistry secured =
        InProcessSchemaRegistry.startWithBasicAuth("svc:s3cr3t")) {
      final SchemaRegistryClient authorized =
          new SchemaRegistryClient(secured.url(), Duration.ofSeconds(2), FAST, "svc:s3cr3t");

      final int id = authorized.register("readings-value", Reading.getClassSchema());

      assertThat(id).isEqualTo(1);
    }
  }

  @Test
  void shouldFailAtOnceOnRejectedCredentialsAndNotCallThemBadData() {
    try (InProcessSchemaRegistry secured =
        InProcessSchemaRegistry.startWithBasicAuth("svc:s3cr3t")) {
      final SchemaRegistryClient wrong =
          new SchemaRegistryClient(secured.url(), Duration.ofSeconds(2), FAST, "svc:guess");

      assertThatThrownBy(() -> wrong.schemaById(1))
          .isExactlyInstanceOf(SchemaRegistryException.class)
          .hasMessageContaining("HTTP 401");
      assertThat(secured.requestCount()).isEqualTo(1);
    }
  }

  @Test
  void shouldCallANotFoundWithoutTheSchemaErrorCodeAConfigurationProblem() {
    final SchemaRegistryClient misconfigured = client(registry.url() + "/wrong-prefix");

    assertThatThrownBy(() -> misconfigured.schemaById(1))
        .isExactlyInstanceOf(SchemaRegistryException.class)
        .hasMessageContaining("HTTP 404");
  }

  @Test
  void shouldReportARejectedRegistration() {
    registry.failNextRequests(1, 409);

    assertThatThrownBy(
            () -> client(registry.url()).register("readings-value", Reading.getClassSchema()))
        .isExactlyInstanceOf(SchemaRegistryException.class)
        .hasMessageContaining("HTTP 409");
  }

  @Test
  void shouldCallNonAvroOrUnparseableSchemasIncompatible() throws Exception {
    final HttpServer stub = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    stub.createContext("/schemas/ids/1", reply("{\"schemaType\":\"PROTOBUF\",\"schema\":\"x\"}"));
    stub.createContext("/schemas/ids/2", reply("{\"schema\":\"{\\\"type\\\":\\\"nope\\\"}\"}"));
    stub.start();
    try {
      final SchemaRegistryClient client = client("http://127.0.0.1:" + stub.getAddress().getPort());

      for (int id = 1; id <= 2; id++) {
        final int schemaId = id;
        assertThatThrownBy(() -> client.schemaById(schemaId))
            .isInstanceOfSatisfying(
                InvalidReadingException.class,
                e -> assertThat(e.reason()).isEqualTo(Reason.INCOMPATIBLE_SCHEMA));
      }
    } finally {
      stub.stop(0);
    }
  }

  @Test
  void shouldRejectMalformedUrlsUpFront() {
    assertThatThrownBy(() -> client(" , "))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("no schema registry URL");
    assertThatThrownBy(() -> client("ftp://registry:21"))
        .isInstanceOf(IllegalArgumentException.class);
  }

  private static HttpHandler reply(final String json) {
    return exchange -> {
      try (exchange) {
        final byte[] body = json.getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(200, body.length);
        exchange.getResponseBody().write(body);
      }
    };
  }

  private static SchemaRegistryClient client(final String urls) {
    return new SchemaRegistryClient(urls, Duration.ofSeconds(2), FAST, null);
  }
}
