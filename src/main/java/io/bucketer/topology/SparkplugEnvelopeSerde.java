package io.bucketer.topology;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/**
 * The repartition topic's value of Sparkplug B input ({@link SparkplugEnvelope}). Written by hand,
 * as the topology's other internal formats are: three strings, two byte arrays that may be null,
 * and two numbers need no schema language, and a format byte leaves room for a change.
 *
 * <p>Layout: format 1; then the MQTT topic, the source topic (each a length int and UTF-8), the
 * source partition (int) and offset (long), the original key and value (each a length int, -1 for
 * null, and the bytes).
 */
final class SparkplugEnvelopeSerde implements Serde<SparkplugEnvelope> {

  private static final byte FORMAT = 1;

  @Override
  public Serializer<SparkplugEnvelope> serializer() {
    return (topic, envelope) -> {
      if (envelope == null) {
        return null;
      }
      final byte[] mqttTopic = envelope.mqttTopic().getBytes(StandardCharsets.UTF_8);
      final byte[] sourceTopic = envelope.sourceTopic().getBytes(StandardCharsets.UTF_8);
      final ByteBuffer out =
          ByteBuffer.allocate(
              1
                  + 4
                  + mqttTopic.length
                  + 4
                  + sourceTopic.length
                  + 4
                  + 8
                  + length(envelope.originalKey())
                  + length(envelope.originalValue()));
      out.put(FORMAT);
      putBytes(out, mqttTopic);
      putBytes(out, sourceTopic);
      out.putInt(envelope.sourcePartition());
      out.putLong(envelope.sourceOffset());
      putBytes(out, envelope.originalKey());
      putBytes(out, envelope.originalValue());
      return out.array();
    };
  }

  @Override
  public Deserializer<SparkplugEnvelope> deserializer() {
    return (topic, data) -> {
      if (data == null) {
        return null;
      }
      try {
        final ByteBuffer in = ByteBuffer.wrap(data);
        final byte format = in.get();
        if (format != FORMAT) {
          throw new SerializationException("no Sparkplug envelope format " + format);
        }
        final String mqttTopic = new String(getBytes(in), StandardCharsets.UTF_8);
        final String sourceTopic = new String(getBytes(in), StandardCharsets.UTF_8);
        final int partition = in.getInt();
        final long offset = in.getLong();
        return new SparkplugEnvelope(
            mqttTopic, getBytes(in), getBytes(in), sourceTopic, partition, offset);
      } catch (RuntimeException e) {
        if (e instanceof SerializationException) {
          throw e;
        }
        throw new SerializationException("a truncated Sparkplug envelope", e);
      }
    };
  }

  private static int length(final byte[] bytes) {
    return 4 + (bytes == null ? 0 : bytes.length);
  }

  private static void putBytes(final ByteBuffer out, final byte[] bytes) {
    if (bytes == null) {
      out.putInt(-1);
    } else {
      out.putInt(bytes.length);
      out.put(bytes);
    }
  }

  private static byte[] getBytes(final ByteBuffer in) {
    final int length = in.getInt();
    if (length < 0) {
      return null;
    }
    final byte[] bytes = new byte[length];
    in.get(bytes);
    return bytes;
  }
}
