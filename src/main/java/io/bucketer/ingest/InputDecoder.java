package io.bucketer.ingest;

import io.bucketer.avro.Reading;
import java.util.List;

/**
 * Turns one input record into the readings it holds: one for a record of bucketer's own {@code
 * Reading} schema, one per value field present for a gateway that sends several values per message
 * ({@link ReadingMapping}).
 */
public interface InputDecoder {

  /**
   * @return the record's readings, at least one, in the order of the mapping's value fields
   * @throws InvalidReadingException the record can never become readings; dead-letter it, whole
   * @throws SchemaRegistryException the writer schema could not be fetched; retry later
   */
  List<Reading> readings(InputRecord record) throws InvalidReadingException;

  /** The readings of a record's value alone, for formats that need nothing else of it. */
  default List<Reading> readings(final byte[] value) throws InvalidReadingException {
    return readings(InputRecord.ofValue(value));
  }
}
