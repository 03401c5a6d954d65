package io.bucketer.simulate;

import io.bucketer.avro.Reading;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Turns a generated reading into the records a gateway would send for it: usually one; more when a
 * format needs something first (a Sparkplug edge node's births before its first data).
 */
@FunctionalInterface
public interface MessageEncoder {

  /** The records to send for {@code reading}, in order; the last one carries the reading. */
  List<GatewayRecord> records(Reading reading);

  /** The value of the record that carries {@code reading}, the last of its records. */
  default byte[] encode(final Reading reading) {
    final List<GatewayRecord> records = records(reading);
    return records.get(records.size() - 1).value();
  }

  /**
   * Gateways that send one record per reading, {@code value}'s bytes, keyed by sensor id as a
   * gateway typically would (the processor does not rely on the key unless told to).
   */
  static MessageEncoder keyedBySensor(final Function<Reading, byte[]> value) {
    return reading ->
        List.of(
            new GatewayRecord(
                reading.getSensorId().getBytes(StandardCharsets.UTF_8),
                value.apply(reading),
                Map.of()));
  }
}
