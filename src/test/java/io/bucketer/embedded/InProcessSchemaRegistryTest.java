package io.bucketer.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;
import org.apache.avro.Schema;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class InProcessSchemaRegistryTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String LONG_SCHEMA = "\"long\"";
  private static final String RECORD_SCHEMA =
      "{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"name\":\"a\",\"type\":\"int\"}]}";

  private final InProcessSchemaRegistry registry = InProcessSchemaRegistry.start();
  private final HttpClient http = HttpClient.newHttpClient();

  @AfterEach
  void stopRegistry() {
    registry.close();
  }

  @Test
  void shouldListenOnLoopback() {
    assertThat(registry.url()).matches("http://127\\.0\\.0\\.1:\\d+");
  }

  @Test
  void shouldStartIdsAtOneAndKeepTheIdOfASchemaRegisteredAgain() throws Exception {
    assertThat(register("s", LONG_SCHEMA).path("id").asInt()).isEqualTo(1);
    assertThat(register("s", RECORD_SCHEMA).path("id").asInt()).isEqualTo(2);
    assertThat(register("s", LONG_SCHEMA).path("id").asInt()).isEqualTo(1);
    assertThat(register("other", " \"long\" ").path("id").asInt()).isEqualTo(1);
  }

  @Test
  void shouldReturnTheRegisteredSchemaById() throws Exception {
    final int id = register("s", RECORD_SCHEMA).path("id").asInt();

    final HttpResponse<String> response = get("/schemas/ids/" + id);

    assertThat(response.statusCode()).isEqualTo(200);
    final String schema = JSON.readTree(response.body()).path("schema").asText();
    assertThat(new Schema.Parser().parse(schema))
        .isEqualTo(new Schema.Parser().parse(RECORD_SCHEMA));
  }

  @Test
  void shouldAnswerAnUnknownIdWithConfluents40403() throws Exception {
    final HttpResponse<String> response = get("/schemas/ids/99");

    assertThat(response.statusCode()).isEqualTo(404);
    assertThat(JSON.readTree(response.body()))
        .isEqualTo(JSON.readTree("{\"error_code\":40403,\"message\":\"Schema not found\"}"));
  }

  @Test
  void shouldListSubjectsAndVersions() throws Exception {
    register("b-value", LONG_SCHEMA);
    register("a-value", LONG_SCHEMA);
    register("a-value", RECORD_SCHEMA);

    assertThat(JSON.readTree(get("/subjects").body()))
        .isEqualTo(JSON.readTree("[\"a-value\",\"b-value\"]"));
    assertThat(JSON.readTree(get("/subjects/a-value/versions").body()))
        .isEqualTo(JSON.readTree("[1,2]"));
    assertThat(get("/subjects/missing/versions").statusCode()).isEqualTo(404);
  }

  @Test
  void shouldRejectAnInvalidSchemaWith422() throws Exception {
    final HttpResponse<String> response =
        post(
            "/subjects/s/versions",
            JSON.writeValueAsString(Map.of("schema", "{\"type\":\"nope\"}")));

    assertThat(response.statusCode()).isEqualTo(422);
    assertThat(JSON.readTree(response.body()).path("error_code").asInt()).isEqualTo(42201);
  }

  @Test
  void shouldCountRequestsAndInjectFailures() throws Exception {
    registry.failNextRequests(1, 503);

    assertThat(get("/subjects").statusCode()).isEqualTo(503);
    assertThat(get("/subjects").statusCode()).isEqualTo(200);
    assertThat(registry.requestCount()).isEqualTo(2);
  }

  private JsonNode register(final String subject, final String schema) throws Exception {
    final HttpResponse<String> response =
        post(
            "/subjects/" + subject + "/versions",
            JSON.writeValueAsString(Map.of("schema", schema)));
    assertThat(response.statusCode()).isEqualTo(200);
    return JSON.readTree(response.body());
  }

  private HttpResponse<String> get(final String path) throws Exception {
    return http.send(
        HttpRequest.newBuilder(URI.create(registry.url() + path)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private HttpResponse<String> post(final String path, final String body) throws Exception {
    return http.send(
        HttpRequest.newBuilder(URI.create(registry.url() + path))
            .header("Content-Type", "application/vnd.schemaregistry.v1+json")
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }
}
