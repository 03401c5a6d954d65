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
   * @return the record's readings, in the order of the mapping's value fields: at least one, except
   *     for a SenML pack whose values are all strings, booleans or data, which are valid and give
   *     none
   * @throws InvalidReadingException the record can never become readings; dead-letter it, whole
   * @throws SchemaRegistryException the writer schema could not be fetched; retry later
   */
  List<Reading> readings(InputRecord record) throws InvalidReadingException;

  /** The readings of a record's value alone, for formats that need nothing else of it. */
  default List<Reading> readings(final byte[] value) throws InvalidReadingException {
    return readings(InputRecord.ofValue(value));
  }
}
