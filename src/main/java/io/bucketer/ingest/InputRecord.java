package io.bucketer.ingest;

/**
 * What a decoder may read of one input record. Most formats need its value alone; some take more
 * from around it: the sensor id from the key or a header (input.sensor.id.from), SenML's relative
 * times from the record's timestamp, Sparkplug's topic from the key or a header.
 *
 * <p>Plain Java on purpose, so that decoding stays free of Kafka's classes: the topology adapts a
 * Kafka record's headers with {@link Headers}, which looks a header up only when asked.
 *
 * @param key the record's key; null when it has none
 * @param value the record's value; null for a tombstone
 * @param headers the record's headers, by name
 * @param timestamp the record's timestamp in epoch milliseconds; negative when unknown
 */
public record InputRecord(byte[] key, byte[] value, Headers headers, long timestamp) {

  /** A record of a value alone: no key, no headers, no timestamp. */
  public static InputRecord ofValue(final byte[] value) {
    return new InputRecord(null, value, Headers.NONE, -1L);
  }

  /** The headers of a record, looked up by name. */
  @FunctionalInterface
  public interface Headers {

    /** No headers at all. */
    Headers NONE = name -> null;

    /**
     * @return the value of the last header of that name (Kafka allows a name more than once, and
     *     the last one wins, as in Kafka's own {@code lastHeader}); null when there is none
     */
    byte[] lastValue(String name);
  }
}
