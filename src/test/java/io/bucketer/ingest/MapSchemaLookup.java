package io.bucketer.ingest;

import io.bucketer.ingest.InvalidReadingException.Reason;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.avro.Schema;

/** A registry-free {@link SchemaLookup} that counts its calls. */
final class MapSchemaLookup implements SchemaLookup {

  private final Map<Integer, Schema> schemas = new ConcurrentHashMap<>();
  private final AtomicInteger calls = new AtomicInteger();

  MapSchemaLookup with(final int id, final Schema schema) {
    schemas.put(id, schema);
    return this;
  }

  int calls() {
    return calls.get();
  }

  @Override
  public Schema schemaById(final int id) throws InvalidReadingException {
    calls.incrementAndGet();
    final Schema schema = schemas.get(id);
    if (schema == null) {
      throw new InvalidReadingException(Reason.UNKNOWN_SCHEMA_ID, "no schema " + id);
    }
    return schema;
  }
}
