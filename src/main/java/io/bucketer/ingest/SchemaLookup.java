package io.bucketer.ingest;

import org.apache.avro.Schema;

/** Resolves the writer schema named by a Confluent frame's schema id. */
@FunctionalInterface
public interface SchemaLookup {

  /**
   * Returns the Avro schema registered under {@code id}.
   *
   * @throws InvalidReadingException with {@code UNKNOWN_SCHEMA_ID} when the id does not exist, or
   *     {@code INCOMPATIBLE_SCHEMA} when it names something that is not a usable Avro schema
   * @throws SchemaRegistryException (unchecked) when the answer could not be obtained; this is
   *     never a property of the record
   */
  Schema schemaById(int id) throws InvalidReadingException;
}
