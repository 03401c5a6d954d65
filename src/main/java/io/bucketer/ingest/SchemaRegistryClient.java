package io.bucketer.ingest;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.bucketer.ingest.InvalidReadingException.Reason;
import io.bucketer.security.ClientTls;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import org.apache.avro.Schema;

/**
 * Client for the Confluent Schema Registry REST API (also served by Apicurio's ccompat API,
 * Karapace and Redpanda). Thread-safe.
 *
 * <p>Failure semantics: only a definite answer about the id ({@code 404} with error code 40403, or
 * a schema that is not Avro) is an {@link InvalidReadingException}. Everything else is the
 * registry's or our configuration's problem and is unchecked: transient failures are retried within
 * the {@link RetryBudget} and then raise {@link SchemaRegistryUnavailableException}; other
 * unexpected answers (401/403, a 404 without 40403, which usually means a wrong base URL) and a TLS
 * handshake that fails raise {@link SchemaRegistryException} at once, since retrying cannot fix
 * them and dead-lettering would discard good data. Avro schemas are read without references;
 * Protobuf and JSON schemas come as text with their references ({@link SchemaTextLookup}), which
 * their decoders fetch by subject and version.
 */
public final class SchemaRegistryClient implements SchemaLookup, SchemaTextLookup {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int SCHEMA_NOT_FOUND = 40403;
  private static final int SUBJECT_NOT_FOUND = 40401;

  private final RegistryTransport transport;
  // Unbounded, like Confluent's client: ids and registrations are immutable and few per topic.
  // Failures are not cached, so a schema registered later is found on the next record.
  private final ConcurrentMap<Integer, Schema> schemasById = new ConcurrentHashMap<>();
  private final ConcurrentMap<Registration, Integer> idsByRegistration = new ConcurrentHashMap<>();
  private final ConcurrentMap<TextRegistration, Integer> idsByText = new ConcurrentHashMap<>();
  private final ConcurrentMap<Integer, SchemaText> textsById = new ConcurrentHashMap<>();
  private final ConcurrentMap<Version, SchemaText> textsByVersion = new ConcurrentHashMap<>();

  /**
   * @param baseUrls one URL or a comma-separated list; on connection failure or a transient status
   *     the next one is tried within the same attempt
   * @param requestTimeout connect and response timeout of a single HTTP request
   * @param retry how long transient failures are retried before giving up
   * @param basicAuthUserInfo {@code user:password}, as Confluent's {@code basic.auth.user.info};
   *     null for no authentication
   */
  public SchemaRegistryClient(
      final String baseUrls,
      final Duration requestTimeout,
      final RetryBudget retry,
      final String basicAuthUserInfo) {
    this(
        baseUrls,
        requestTimeout,
        retry,
        basicAuthUserInfo == null ? RegistryAuth.none() : RegistryAuth.basic(basicAuthUserInfo),
        Optional.empty());
  }

  /**
   * As {@link #SchemaRegistryClient(String, Duration, RetryBudget, String)}, with any {@link
   * RegistryAuth}, and TLS from files: the registry's CA trusted instead of the JVM's trust store,
   * a client certificate shown to a registry that asks for one.
   */
  public SchemaRegistryClient(
      final String baseUrls,
      final Duration requestTimeout,
      final RetryBudget retry,
      final RegistryAuth auth,
      final Optional<ClientTls> tls) {
    this.transport =
        new RegistryTransport(
            Objects.requireNonNull(baseUrls, "baseUrls"),
            Objects.requireNonNull(requestTimeout, "requestTimeout"),
            Objects.requireNonNull(retry, "retry"),
            Objects.requireNonNull(auth, "auth"),
            Objects.requireNonNull(tls, "tls"));
  }

  /** No authentication, 10 s request timeout, {@link RetryBudget#defaults()}. */
  public SchemaRegistryClient(final String baseUrls) {
    this(baseUrls, Duration.ofSeconds(10), RetryBudget.defaults(), null);
  }

  /** {@code GET /schemas/ids/{id}}, answered from the cache after the first success. */
  @Override
  public Schema schemaById(final int id) throws InvalidReadingException {
    final Schema cached = schemasById.get(id);
    if (cached != null) {
      return cached;
    }
    // Not computeIfAbsent: the HTTP call, with its retries, must not hold a map bin lock.
    final Schema schema = parseAvro(id, fetchById(id));
    final Schema raced = schemasById.putIfAbsent(id, schema);
    return raced == null ? schema : raced;
  }

  /**
   * {@code GET /schemas/ids/{id}}, of any schema type, with its references; answered from the cache
   * after the first success.
   */
  @Override
  public SchemaText schemaTextById(final int id) throws InvalidReadingException {
    final SchemaText cached = textsById.get(id);
    if (cached != null) {
      return cached;
    }
    final SchemaText text = schemaText("schema id " + id, fetchById(id));
    final SchemaText raced = textsById.putIfAbsent(id, text);
    return raced == null ? text : raced;
  }

  /**
   * {@code GET /subjects/{subject}/versions/{version}}: a referenced schema. A subject's version
   * never changes once registered, so it is cached too.
   */
  @Override
  public SchemaText schemaTextByVersion(final String subject, final int version)
      throws InvalidReadingException {
    final Version key = new Version(subject, version);
    final SchemaText cached = textsByVersion.get(key);
    if (cached != null) {
      return cached;
    }
    final String path = subjectPath(subject) + "/versions/" + version;
    final HttpResponse<String> response = transport.send("GET", path, null);
    if (response.statusCode() == 404 && errorCode(response) / 100 == SUBJECT_NOT_FOUND / 100) {
      // 40401 no such subject, 40402 no such version
      throw new InvalidReadingException(
          Reason.INCOMPATIBLE_SCHEMA,
          "the referenced schema "
              + subject
              + " version "
              + version
              + " is not registered at "
              + transport.describeUrls());
    }
    final SchemaText text =
        schemaText(subject + " version " + version, requireOk(response, "GET " + path, transport));
    final SchemaText raced = textsByVersion.putIfAbsent(key, text);
    return raced == null ? text : raced;
  }

  /**
   * {@code POST /subjects/{subject}/versions} of a schema of any type, with its references (which
   * must be registered already); idempotent, as {@link #register(String, Schema)}.
   *
   * @throws SchemaRegistryException if the registry rejects the schema
   */
  public int register(final String subject, final SchemaText schema) {
    final TextRegistration key = new TextRegistration(subject, schema);
    final Integer cached = idsByText.get(key);
    if (cached != null) {
      return cached;
    }
    final Map<String, Object> request = new LinkedHashMap<>();
    if (!SchemaText.AVRO.equals(schema.type())) {
      request.put("schemaType", schema.type()); // absent means Avro, as Confluent's client sends it
    }
    request.put("schema", schema.text());
    if (!schema.references().isEmpty()) {
      request.put(
          "references",
          schema.references().stream()
              .map(r -> Map.of("name", r.name(), "subject", r.subject(), "version", r.version()))
              .toList());
    }
    final String path = subjectPath(subject) + "/versions";
    final JsonNode answer =
        requireOk(transport.send("POST", path, toJson(request)), "POST " + path, transport);
    final JsonNode id = answer.get("id");
    if (id == null || !id.canConvertToInt()) {
      throw new SchemaRegistryException(
          "no schema id in the answer to POST " + path + ": " + answer);
    }
    idsByText.putIfAbsent(key, id.intValue());
    textsById.putIfAbsent(id.intValue(), schema);
    return id.intValue();
  }

  private JsonNode fetchById(final int id) throws InvalidReadingException {
    final String path = "/schemas/ids/" + id;
    final HttpResponse<String> response = transport.send("GET", path, null);
    if (response.statusCode() == 404 && errorCode(response) == SCHEMA_NOT_FOUND) {
      throw new InvalidReadingException(
          Reason.UNKNOWN_SCHEMA_ID,
          "schema id " + id + " is not registered at " + transport.describeUrls());
    }
    return requireOk(response, "GET " + path, transport);
  }

  private static SchemaText schemaText(final String what, final JsonNode answer) {
    final JsonNode text = answer.get("schema");
    if (text == null || !text.isTextual()) {
      throw new SchemaRegistryException("no 'schema' string for " + what + ": " + answer);
    }
    final List<SchemaText.Reference> references = new ArrayList<>();
    for (final JsonNode reference : answer.path("references")) {
      references.add(
          new SchemaText.Reference(
              reference.path("name").asText(),
              reference.path("subject").asText(),
              reference.path("version").asInt(-1)));
    }
    return new SchemaText(
        answer.path("schemaType").asText(SchemaText.AVRO), text.asText(), references);
  }

  private static String subjectPath(final String subject) {
    return "/subjects/" + URLEncoder.encode(subject, StandardCharsets.UTF_8).replace("+", "%20");
  }

  /**
   * {@code POST /subjects/{subject}/versions}; registering an already registered schema returns its
   * existing id, so this is idempotent. Cached per (subject, schema).
   *
   * @throws SchemaRegistryException if the registry rejects the schema (e.g. 409 incompatible)
   */
  public int register(final String subject, final Schema schema) {
    final Registration key = new Registration(subject, schema);
    final Integer cached = idsByRegistration.get(key);
    if (cached != null) {
      return cached;
    }
    final String path =
        "/subjects/"
            + URLEncoder.encode(subject, StandardCharsets.UTF_8).replace("+", "%20")
            + "/versions";
    final JsonNode answer =
        requireOk(
            transport.send("POST", path, toJson(Map.of("schema", schema.toString()))),
            "POST " + path,
            transport);
    final JsonNode id = answer.get("id");
    if (id == null || !id.canConvertToInt()) {
      throw new SchemaRegistryException(
          "no schema id in the answer to POST " + path + ": " + answer);
    }
    idsByRegistration.putIfAbsent(key, id.intValue());
    // Lets a process that produces and consumes skip the lookup of its own schema.
    schemasById.putIfAbsent(id.intValue(), schema);
    return id.intValue();
  }

  /**
   * {@code GET /subjects/{subject}/versions/latest}: the schema last registered under a subject,
   * with its id; empty when the subject has none yet.
   */
  public Optional<RegisteredSchema> latestSchema(final String subject)
      throws InvalidReadingException {
    final String path =
        "/subjects/"
            + URLEncoder.encode(subject, StandardCharsets.UTF_8).replace("+", "%20")
            + "/versions/latest";
    final HttpResponse<String> response = transport.send("GET", path, null);
    if (response.statusCode() == 404) {
      return Optional.empty();
    }
    final JsonNode answer = requireOk(response, "GET " + path, transport);
    final int id = answer.path("id").asInt(-1);
    return Optional.of(
        new RegisteredSchema(id, answer.path("version").asInt(-1), parseAvro(id, answer)));
  }

  /** A schema as the registry holds it under a subject. */
  public record RegisteredSchema(int id, int version, Schema schema) {}

  /**
   * {@code GET /subjects/{subject}/versions/latest} of a schema of any type: its id, version and
   * text with references; empty when the subject has none yet.
   */
  public Optional<RegisteredText> latestSchemaText(final String subject) {
    final String path = subjectPath(subject) + "/versions/latest";
    final HttpResponse<String> response = transport.send("GET", path, null);
    if (response.statusCode() == 404) {
      return Optional.empty();
    }
    final JsonNode answer = requireOk(response, "GET " + path, transport);
    final int id = answer.path("id").asInt(-1);
    return Optional.of(
        new RegisteredText(
            id, answer.path("version").asInt(-1), schemaText(subject + " latest", answer)));
  }

  /** A schema of any type as the registry holds it under a subject. */
  public record RegisteredText(int id, int version, SchemaText schema) {}

  private static Schema parseAvro(final int id, final JsonNode answer)
      throws InvalidReadingException {
    final String type = answer.path("schemaType").asText("AVRO");
    if (!"AVRO".equals(type)) {
      throw new InvalidReadingException(
          Reason.INCOMPATIBLE_SCHEMA, "schema id " + id + " is a " + type + " schema, not Avro");
    }
    final JsonNode text = answer.get("schema");
    if (text == null || !text.isTextual()) {
      throw new SchemaRegistryException("no 'schema' string for schema id " + id + ": " + answer);
    }
    try {
      return new Schema.Parser().parse(text.asText());
    } catch (RuntimeException e) {
      // Avro 1.12 reports bad schemas variously: SchemaParseException, AvroTypeException, and a
      // NullPointerException for an undefined type name (e.g. one that needs schema references).
      throw new InvalidReadingException(
          Reason.INCOMPATIBLE_SCHEMA, "schema id " + id + " is not a parseable Avro schema", e);
    }
  }

  private static JsonNode requireOk(
      final HttpResponse<String> response,
      final String request,
      final RegistryTransport transport) {
    final int status = response.statusCode();
    if (status == 401 || status == 403) {
      // The registry's body may say more, but a proxy's may echo the request: leave it out.
      throw new SchemaRegistryException(
          "schema registry "
              + transport.describeUrls()
              + ": "
              + (status == 401 ? "authentication failed" : "not authorised")
              + ": HTTP "
              + status
              + " to "
              + request
              + " with "
              + transport.describeAuth());
    }
    if (status / 100 != 2) {
      // Not the body: a proxy's page or another server's error, which may name its classes, and
      // this line ends up in /ready, which answers anyone.
      throw new SchemaRegistryException(
          "schema registry "
              + transport.describeUrls()
              + " answered HTTP "
              + response.statusCode()
              + " to "
              + request
              + (status == 404 ? " (is a schema registry at that address?)" : ""));
    }
    try {
      return JSON.readTree(response.body());
    } catch (JsonProcessingException e) {
      throw new SchemaRegistryException("unparseable JSON in the answer to " + request, e);
    }
  }

  private static int errorCode(final HttpResponse<String> response) {
    try {
      return JSON.readTree(response.body()).path("error_code").asInt(-1);
    } catch (JsonProcessingException e) {
      return -1; // e.g. an HTML 404 page from a proxy: not the registry speaking
    }
  }

  private static String toJson(final Object value) {
    try {
      return JSON.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot serialise a map of strings", e);
    }
  }

  private record Version(String subject, int version) {}

  private record TextRegistration(String subject, SchemaText schema) {}

  private record Registration(String subject, Schema schema) {
    Registration {
      Objects.requireNonNull(subject, "subject");
      Objects.requireNonNull(schema, "schema");
    }
  }
}
