package io.bucketer.ingest;

/**
 * Resolves registered schemas of any type as their text, with their references: what the Protobuf
 * and JSON Schema decoders parse with their own parsers ({@link SchemaLookup} gives Avro only).
 */
public interface SchemaTextLookup {

  /**
   * {@code GET /schemas/ids/{id}}.
   *
   * @throws InvalidReadingException {@code unknown-schema-id} when the id does not exist
   * @throws SchemaRegistryException (unchecked) when the answer could not be obtained
   */
  SchemaText schemaTextById(int id) throws InvalidReadingException;

  /**
   * {@code GET /subjects/{subject}/versions/{version}}: a schema that another one references.
   *
   * @throws InvalidReadingException {@code incompatible-schema} when the registry has no such
   *     version: the referencing schema can then never be read
   * @throws SchemaRegistryException (unchecked) when the answer could not be obtained
   */
  SchemaText schemaTextByVersion(String subject, int version) throws InvalidReadingException;
}
