package io.bucketer.simulate;

import java.util.Map;

/**
 * A record as a gateway or its bridge produces it: the key and headers matter to formats and
 * settings that read identity from around the payload (a Sparkplug topic, input.sensor.id.from).
 *
 * @param key the record's key; null for none
 * @param value the record's value
 * @param headers the record's headers, by name
 */
public record GatewayRecord(byte[] key, byte[] value, Map<String, byte[]> headers) {

  public GatewayRecord {
    headers = Map.copyOf(headers);
  }
}
