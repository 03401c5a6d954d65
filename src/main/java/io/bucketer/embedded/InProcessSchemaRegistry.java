package io.bucketer.embedded;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
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
 * GET /subjects/{subject}/versions/latest}, with Confluent's error bodies ({@code
 * {"error_code":40403,"message":"Schema not found"}}).
 *
 * <p>Out of scope: compatibility checks (every new schema is accepted as a new version), schema
 * types other than Avro, references, deletion, modes, contexts, persistence. Two schemas are "the
 * same" when Avro prints them identically, so whitespace differences do not create new ids.
 *
 * <p>Test hooks: {@link #requestCount()}, {@link #failNextRequests(int, int)} and optional
 * authentication ({@link #startWithBasicAuth(String)}, {@link #startRequiring(String)}).
 */
public final class InProcessSchemaRegistry implements AutoCloseable {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String CONTENT_TYPE = "application/vnd.schemaregistry.v1+json";
  private static final Pattern SUBJECT_VERSIONS = Pattern.compile("/subjects/([^/]+)/versions/?");
  private static final Pattern LATEST_VERSION =
      Pattern.compile("/subjects/([^/]+)/versions/latest/?");
  private static final Pattern SCHEMA_BY_ID = Pattern.compile("/schemas/ids/(-?\\d+)/?");

  private final HttpServer server;
  private final String requiredAuthorization;
  private final AtomicInteger requests = new AtomicInteger();
  private final AtomicInteger failuresLeft = new AtomicInteger();
  private volatile int failureStatus;
  // Guarded by this. The HTTP dispatcher is single-threaded, but the accessors are not.
  private final List<String> schemasById = new ArrayList<>(); // id = index + 1
  private final Map<String, Integer> idsBySchema = new HashMap<>();
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
    final Matcher latest = LATEST_VERSION.matcher(path);
    if (latest.matches() && "GET".equals(method)) {
      return latest(decode(latest.group(1)));
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
    return new Reply(200, Map.of("schema", schemasById.get(id - 1)));
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

  private synchronized Reply latest(final String subject) {
    final List<Integer> ids = idsBySubject.get(subject);
    if (ids == null) {
      return Reply.error(404, 40401, "Subject '" + subject + "' not found.");
    }
    final int id = ids.get(ids.size() - 1);
    return new Reply(
        200,
        Map.of(
            "subject",
            subject,
            "version",
            ids.size(),
            "id",
            id,
            "schema",
            schemasById.get(id - 1)));
  }

  private Reply register(final String subject, final byte[] requestBody) {
    final String canonical;
    try {
      final JsonNode request = JSON.readTree(requestBody);
      final String type = request.path("schemaType").asText("AVRO");
      if (!"AVRO".equals(type)) {
        return Reply.error(422, 42201, "Only AVRO schemas are supported here, not " + type);
      }
      canonical = new Schema.Parser().parse(request.path("schema").asText()).toString();
    } catch (IOException | RuntimeException e) {
      // Avro's parser also throws AvroTypeException and, for undefined names, NullPointerException.
      return Reply.error(422, 42201, "Invalid schema: " + e.getMessage());
    }
    return new Reply(200, Map.of("id", idFor(subject, canonical)));
  }

  private synchronized int idFor(final String subject, final String canonical) {
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
