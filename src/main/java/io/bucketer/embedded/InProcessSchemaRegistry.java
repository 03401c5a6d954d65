package io.bucketer.embedded;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.bucketer.ingest.InvalidReadingException;
import io.bucketer.ingest.SchemaText;
import io.bucketer.ingest.SchemaTextLookup;
import io.bucketer.ingest.protobuf.ProtoSchemaCompiler;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.avro.Schema;

/**
 * A minimal, in-memory stand-in for the Confluent Schema Registry REST API, <b>for the demo and
 * tests only</b>: no registry server can be installed on the machines this project is built on.
 * Production uses a real registry (Confluent, Apicurio ccompat, Karapace, Redpanda).
 *
 * <p>Serves, on 127.0.0.1 and a free port: {@code POST /subjects/{subject}/versions} (ids are
 * global and start at 1; the same schema gets the same id in every subject), {@code GET
 * /schemas/ids/{id}}, {@code GET /subjects}, {@code GET /subjects/{subject}/versions} and {@code
 * GET /subjects/{subject}/versions/{version}} ({@code latest} or a number), with Confluent's error
 * bodies ({@code {"error_code":40403,"message":"Schema not found"}}). Schemas of the types AVRO,
 * PROTOBUF and JSON, the latter two with references to other subjects' versions, which must be
 * registered first; each is refused (422) unless it parses.
 *
 * <p>Out of scope: compatibility checks (every new schema is accepted as a new version), deletion,
 * modes, contexts, persistence. Two Avro schemas are "the same" when Avro prints them identically,
 * so whitespace differences do not create new ids; Protobuf and JSON schemas when their text and
 * references are.
 *
 * <p>Test hooks: {@link #requestCount()}, {@link #failNextRequests(int, int)} and optional
 * authentication ({@link #startWithBasicAuth(String)}, {@link #startRequiring(String)}).
 */
public final class InProcessSchemaRegistry implements AutoCloseable {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String CONTENT_TYPE = "application/vnd.schemaregistry.v1+json";
  private static final Pattern SUBJECT_VERSIONS = Pattern.compile("/subjects/([^/]+)/versions/?");
  private static final Pattern ONE_VERSION =
      Pattern.compile("/subjects/([^/]+)/versions/(latest|-?\\d+)/?");
  private static final Pattern SCHEMA_BY_ID = Pattern.compile("/schemas/ids/(-?\\d+)/?");

  private final HttpServer server;
  private final String requiredAuthorization;
  private final AtomicInteger requests = new AtomicInteger();
  private final AtomicInteger failuresLeft = new AtomicInteger();
  private volatile int failureStatus;
  // Guarded by this. The HTTP dispatcher is single-threaded, but the accessors are not.
  private final List<SchemaText> schemasById = new ArrayList<>(); // id = index + 1
  private final Map<SchemaText, Integer> idsBySchema = new HashMap<>();
  private final Map<String, List<Integer>> idsBySubject = new TreeMap<>(); // version = index + 1

  private InProcessSchemaRegistry(final String requiredAuthorization) throws IOException {
    this.requiredAuthorization = requiredAuthorization;
    this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/", this::handle);
    server.start();
  }

  /** Starts an open registry on a free loopback port. */
  public static InProcessSchemaRegistry start() {
    return create(null);
  }

  /**
   * Starts a registry that answers 401 unless given HTTP basic credentials {@code user:password}.
   */
  public static InProcessSchemaRegistry startWithBasicAuth(final String userInfo) {
    return create(
        "Basic " + Base64.getEncoder().encodeToString(userInfo.getBytes(StandardCharsets.UTF_8)));
  }

  /**
   * Starts a registry that answers 401 unless a request carries the header {@code Authorization:
   * <authorization>}, such as {@code Bearer <token>}.
   */
  public static InProcessSchemaRegistry startRequiring(final String authorization) {
    return create(authorization);
  }

  private static InProcessSchemaRegistry create(final String requiredAuthorization) {
    try {
      return new InProcessSchemaRegistry(requiredAuthorization);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start the in-process schema registry", e);
    }
  }

  /** Base URL, e.g. {@code http://127.0.0.1:41234}. */
  public String url() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  /** HTTP requests received so far, including rejected ones. */
  public int requestCount() {
    return requests.get();
  }

  /**
   * Answers the next {@code count} requests with {@code status}, to simulate an ailing registry.
   */
  public void failNextRequests(final int count, final int status) {
    failureStatus = status;
    failuresLeft.set(count);
  }

  @Override
  public void close() {
    server.stop(0);
  }

  private void handle(final HttpExchange exchange) throws IOException {
    try (exchange) {
      requests.incrementAndGet();
      Reply reply;
      try {
        reply = route(exchange);
      } catch (RuntimeException e) {
        // Answer as the real registry would, rather than dropping the connection.
        reply = Reply.error(500, 50001, "Error in the in-process registry: " + e);
      }
      final byte[] body = JSON.writeValueAsBytes(reply.body());
      exchange.getResponseHeaders().set("Content-Type", CONTENT_TYPE);
      exchange.sendResponseHeaders(reply.status(), body.length);
      exchange.getResponseBody().write(body);
    }
  }

  private Reply route(final HttpExchange exchange) throws IOException {
    if (failuresLeft.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
      return Reply.error(failureStatus, failureStatus * 100, "Injected failure");
    }
    if (requiredAuthorization != null
        && !requiredAuthorization.equals(exchange.getRequestHeaders().getFirst("Authorization"))) {
      return Reply.error(401, 401, "Unauthorized");
    }
    final String method = exchange.getRequestMethod();
    final String path = exchange.getRequestURI().getRawPath();
    final Matcher byId = SCHEMA_BY_ID.matcher(path);
    final Matcher versions = SUBJECT_VERSIONS.matcher(path);
    final Matcher version = ONE_VERSION.matcher(path);
    if (version.matches() && "GET".equals(method)) {
      return version(decode(version.group(1)), version.group(2));
    }
    if (byId.matches() && "GET".equals(method)) {
      return schemaById(Integer.parseInt(byId.group(1)));
    }
    if (versions.matches() && "POST".equals(method)) {
      return register(decode(versions.group(1)), exchange.getRequestBody().readAllBytes());
    }
    if (versions.matches() && "GET".equals(method)) {
      return versions(decode(versions.group(1)));
    }
    if (path.matches("/subjects/?") && "GET".equals(method)) {
      return subjects();
    }
    return Reply.error(404, 404, "HTTP 404 Not Found");
  }

  private synchronized Reply schemaById(final int id) {
    if (id < 1 || id > schemasById.size()) {
      return Reply.error(404, 40403, "Schema not found");
    }
    return new Reply(200, describe(schemasById.get(id - 1), new LinkedHashMap<>()));
  }

  /** As Confluent's registry answers: no schemaType for Avro, no references when there are none. */
  private static Map<String, Object> describe(
      final SchemaText schema, final Map<String, Object> answer) {
    answer.put("schema", schema.text());
    if (!SchemaText.AVRO.equals(schema.type())) {
      answer.put("schemaType", schema.type());
    }
    if (!schema.references().isEmpty()) {
      answer.put(
          "references",
          schema.references().stream()
              .map(
                  r -> {
                    final Map<String, Object> reference = new LinkedHashMap<>();
                    reference.put("name", r.name());
                    reference.put("subject", r.subject());
                    reference.put("version", r.version());
                    return reference;
                  })
              .toList());
    }
    return answer;
  }

  private synchronized Reply subjects() {
    return new Reply(200, List.copyOf(idsBySubject.keySet()));
  }

  private synchronized Reply versions(final String subject) {
    final List<Integer> ids = idsBySubject.get(subject);
    if (ids == null) {
      return Reply.error(404, 40401, "Subject '" + subject + "' not found.");
    }
    final List<Integer> numbers = new ArrayList<>();
    for (int version = 1; version <= ids.size(); version++) {
      numbers.add(version);
    }
    return new Reply(200, numbers);
  }

  private synchronized Reply version(final String subject, final String which) {
    final List<Integer> ids = idsBySubject.get(subject);
    if (ids == null) {
      return Reply.error(404, 40401, "Subject '" + subject + "' not found.");
    }
    final int version = "latest".equals(which) ? ids.size() : Integer.parseInt(which);
    if (version < 1 || version > ids.size()) {
      return Reply.error(404, 40402, "Version " + which + " not found.");
    }
    final int id = ids.get(version - 1);
    final Map<String, Object> answer = new LinkedHashMap<>();
    answer.put("subject", subject);
    answer.put("version", version);
    answer.put("id", id);
    return new Reply(200, describe(schemasById.get(id - 1), answer));
  }

  /** The schema registered as {@code version} of {@code subject}; null when there is none. */
  private synchronized SchemaText registered(final String subject, final int version) {
    final List<Integer> ids = idsBySubject.get(subject);
    return ids == null || version < 1 || version > ids.size()
        ? null
        : schemasById.get(ids.get(version - 1) - 1);
  }

  private Reply register(final String subject, final byte[] requestBody) {
    final SchemaText canonical;
    try {
      final JsonNode request = JSON.readTree(requestBody);
      final String type = request.path("schemaType").asText(SchemaText.AVRO);
      final String text = request.path("schema").asText();
      final List<SchemaText.Reference> references = new ArrayList<>();
      for (final JsonNode reference : request.path("references")) {
        references.add(
            new SchemaText.Reference(
                reference.path("name").asText(),
                reference.path("subject").asText(),
                reference.path("version").asInt(-1)));
      }
      for (final SchemaText.Reference reference : references) {
        if (registered(reference.subject(), reference.version()) == null) {
          return Reply.error(
              422,
              42201,
              "Invalid schema: reference "
                  + reference.name()
                  + " to "
                  + reference.subject()
                  + " version "
                  + reference.version()
                  + " is not registered");
        }
      }
      canonical = canonical(new SchemaText(type, text, references));
    } catch (IOException | RuntimeException e) {
      // Avro's parser also throws AvroTypeException and, for undefined names, NullPointerException.
      return Reply.error(422, 42201, "Invalid schema: " + e.getMessage());
    } catch (InvalidReadingException e) {
      return Reply.error(422, 42201, "Invalid schema: " + e.detail());
    }
    return new Reply(200, Map.of("id", idFor(subject, canonical)));
  }

  /**
   * The schema as it is kept and compared: Avro as Avro prints it, so that whitespace makes no new
   * id; Protobuf and JSON as given, once they parse (Protobuf with its references, by bucketer's
   * own compiler, so that what the demo registers is what the processor can read).
   */
  private SchemaText canonical(final SchemaText schema)
      throws IOException, InvalidReadingException {
    switch (schema.type()) {
      case SchemaText.AVRO -> {
        return SchemaText.of(SchemaText.AVRO, new Schema.Parser().parse(schema.text()).toString());
      }
      case SchemaText.PROTOBUF ->
          ProtoSchemaCompiler.compile("the schema", schema, new OwnSchemas());
      case SchemaText.JSON -> JSON.readTree(schema.text());
      default -> throw new IllegalArgumentException("unknown schema type " + schema.type());
    }
    return schema;
  }

  /** This registry's own schemas, for the references of one being registered. */
  private final class OwnSchemas implements SchemaTextLookup {
    @Override
    public SchemaText schemaTextById(final int id) {
      throw new UnsupportedOperationException("references are by subject and version");
    }

    @Override
    public SchemaText schemaTextByVersion(final String subject, final int version)
        throws InvalidReadingException {
      final SchemaText schema = registered(subject, version);
      if (schema == null) {
        throw new InvalidReadingException(
            InvalidReadingException.Reason.INCOMPATIBLE_SCHEMA,
            subject + " version " + version + " is not registered");
      }
      return schema;
    }
  }

  private synchronized int idFor(final String subject, final SchemaText canonical) {
    final int id =
        idsBySchema.computeIfAbsent(
            canonical,
            s -> {
              schemasById.add(s);
              return schemasById.size();
            });
    final List<Integer> subjectIds = idsBySubject.computeIfAbsent(subject, s -> new ArrayList<>());
    if (!subjectIds.contains(id)) {
      subjectIds.add(id);
    }
    return id;
  }

  private static String decode(final String pathSegment) {
    // URLDecoder is for forms; in a path a '+' is literal.
    return URLDecoder.decode(pathSegment.replace("+", "%2B"), StandardCharsets.UTF_8);
  }

  private record Reply(int status, Object body) {
    static Reply error(final int status, final int errorCode, final String message) {
      return new Reply(status, Map.of("error_code", errorCode, "message", message));
    }
  }
}
