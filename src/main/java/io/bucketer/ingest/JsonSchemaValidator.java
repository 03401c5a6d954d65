package io.bucketer.ingest;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import io.bucketer.ingest.InvalidReadingException.Reason;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * Checks JSON bodies against the JSON schema registered under their frame's id
 * (input.json.schema.validate), with networknt's json-schema-validator. Each id's schema is fetched
 * with its references and compiled once, and cached, a refusal included (a schema that is not JSON,
 * or does not compile, rejects every record of its id as {@code incompatible-schema}).
 *
 * <p>A schema's {@code $schema} says its draft; without one it is read as draft-07, as Confluent's
 * serializer writes them. A {@code $ref} resolves only to the references registered with it (by
 * their names): nothing is fetched from the URLs a schema names, which would let whoever registers
 * a schema make the processor reach any address.
 *
 * <p>Safe for concurrent use.
 */
public final class JsonSchemaValidator {

  private static final ObjectMapper JSON = new ObjectMapper();

  private final SchemaTextLookup registry;
  private final ConcurrentMap<Integer, Compiled> schemas = new ConcurrentHashMap<>();

  public JsonSchemaValidator(final SchemaTextLookup registry) {
    this.registry = Objects.requireNonNull(registry, "registry");
  }

  /**
   * @throws InvalidReadingException {@code schema-violation} naming the first violation's path and
   *     rule; {@code incompatible-schema} or {@code unknown-schema-id} for the schema itself
   */
  void validate(final int schemaId, final JsonNode body) throws InvalidReadingException {
    final Schema schema = schemaFor(schemaId);
    final List<Error> violations;
    try {
      violations = schema.validate(body);
    } catch (RuntimeException e) {
      // A schema that compiled but cannot be applied: the schema's fault, not the body's.
      throw new InvalidReadingException(
          Reason.INCOMPATIBLE_SCHEMA,
          "the JSON schema of schema id " + schemaId + " cannot be applied: " + e.getMessage(),
          e);
    }
    if (!violations.isEmpty()) {
      final Error first = violations.get(0);
      // A JSON pointer: "/meta/deviceId"; empty for the body as a whole.
      final String at = first.getInstanceLocation().toString();
      throw new InvalidReadingException(
          Reason.SCHEMA_VIOLATION,
          "the body breaks the JSON schema of schema id "
              + schemaId
              + " at "
              + (at.isEmpty() ? "the top" : at)
              + ", rule "
              + first.getKeyword()
              + ": "
              + first.getMessage()
              + (violations.size() > 1 ? " (and " + (violations.size() - 1) + " more)" : ""));
    }
  }

  /**
   * Why the records of a registered schema could not become readings, or empty: for {@code bucketer
   * check}. The schema must compile (its {@code $ref}s registered), and a schema that closes its
   * object ({@code additionalProperties: false}) must declare the top-level fields the mapping
   * needs: the sensor id (when in the payload), the time, and one of the value fields. An open
   * schema allows any field, so it cannot be said wrong.
   *
   * @throws InvalidReadingException {@code unknown-schema-id} when the registry has no such id
   */
  public Optional<String> mismatch(final int schemaId, final ReadingMapping mapping)
      throws InvalidReadingException {
    final Compiled compiled = compile(schemaId);
    if (compiled.schema() == null) {
      return Optional.of(compiled.why());
    }
    final JsonNode root = parse("schema id " + schemaId, registry.schemaTextById(schemaId).text());
    if (!root.path("additionalProperties").isBoolean()
        || root.path("additionalProperties").booleanValue()) {
      return Optional.empty();
    }
    final JsonNode properties = root.path("properties");
    final List<String> missing = new ArrayList<>();
    if (mapping.sensorIdSource().inPayload() && !properties.has(topLevel(mapping.sensorId()))) {
      missing.add(topLevel(mapping.sensorId()));
    }
    if (!properties.has(topLevel(mapping.time()))) {
      missing.add(topLevel(mapping.time()));
    }
    if (!mapping.allNumericValues()
        && mapping.values().stream().noneMatch(value -> properties.has(topLevel(value)))) {
      missing.add(
          "any of "
              + String.join(
                  ", ", mapping.values().stream().map(JsonSchemaValidator::topLevel).toList()));
    }
    return missing.isEmpty()
        ? Optional.empty()
        : Optional.of(
            "schema id "
                + schemaId
                + " allows no other properties than its own, and has no "
                + String.join(" and no ", missing)
                + ": every record of it would be dead-lettered");
  }

  /** The property of the record's object a field path starts at. */
  private static String topLevel(final FieldPath path) {
    return path.segments().get(0);
  }

  private Schema schemaFor(final int schemaId) throws InvalidReadingException {
    Compiled compiled = schemas.get(schemaId);
    if (compiled == null) {
      compiled = compile(schemaId);
      final Compiled raced = schemas.putIfAbsent(schemaId, compiled);
      compiled = raced == null ? compiled : raced;
    }
    if (compiled.schema() == null) {
      throw new InvalidReadingException(compiled.rejection(), compiled.why());
    }
    return compiled.schema();
  }

  private Compiled compile(final int schemaId) throws InvalidReadingException {
    final String what = "schema id " + schemaId;
    final SchemaText root;
    try {
      root = registry.schemaTextById(schemaId);
      final Map<String, String> references = new LinkedHashMap<>();
      collect(what, root, references);
      final JsonNode document = parse(what, root.text());
      final SchemaRegistry compiler =
          SchemaRegistry.withDefaultDialect(
              SpecificationVersion.DRAFT_7,
              builder ->
                  builder
                      .schemas(references)
                      .schemaLoader(loader -> loader.fetchRemoteResources(false)));
      final Schema schema = compiler.getSchema(document);
      // $refs resolve lazily; resolved here, a dangling one rejects the schema once, not each body.
      schema.initializeValidators();
      return new Compiled(schema, null, null);
    } catch (InvalidReadingException e) {
      if (e.reason() == Reason.UNKNOWN_SCHEMA_ID) {
        throw e; // not remembered: the id may be registered yet
      }
      return new Compiled(null, e.reason(), e.detail());
    } catch (SchemaRegistryException e) {
      throw e; // the registry did not answer: retried, never held against the schema
    } catch (RuntimeException e) {
      // networknt reports a schema it cannot compile variously (SchemaException, ...).
      return new Compiled(
          null,
          Reason.INCOMPATIBLE_SCHEMA,
          what + " is not a usable JSON schema: " + e.getMessage());
    }
  }

  private void collect(final String what, final SchemaText schema, final Map<String, String> found)
      throws InvalidReadingException {
    if (!SchemaText.JSON.equals(schema.type())) {
      throw new InvalidReadingException(
          Reason.INCOMPATIBLE_SCHEMA,
          what + " is or references a " + schema.type() + " schema, not JSON");
    }
    for (final SchemaText.Reference reference : schema.references()) {
      if (!found.containsKey(reference.name())) {
        final SchemaText referenced =
            registry.schemaTextByVersion(reference.subject(), reference.version());
        found.put(reference.name(), referenced.text());
        collect(what, referenced, found);
      }
    }
  }

  private static JsonNode parse(final String what, final String text)
      throws InvalidReadingException {
    try {
      return JSON.readTree(text);
    } catch (JsonProcessingException e) {
      throw new InvalidReadingException(
          Reason.INCOMPATIBLE_SCHEMA, what + " is not JSON: " + e.getOriginalMessage());
    }
  }

  /** A compiled schema, or why there is none. */
  private record Compiled(Schema schema, Reason rejection, String why) {}
}
