package io.bucketer.topology;

import io.bucketer.avro.Reading;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Decoded readings on the internal repartition topic, which only this application writes and reads.
 * A leading format byte says how the rest is laid out:
 *
 * <ul>
 *   <li>2 (written now): a fixed layout, written and read without any schema machinery, because
 *       every reading crosses this topic once and Avro's generic writer and reader were a sixth of
 *       the stream thread's samples: the timestamp (8 bytes, epoch milliseconds), the value (8
 *       bytes, IEEE 754), a byte of flags (1: a metric follows, 2: a UTC offset follows), the
 *       sensor id (a 4-byte length and UTF-8), then the metric (likewise) and the offset (4 bytes)
 *       when present. Big-endian throughout.
 *   <li>1 (written by earlier versions, still read so that an upgrade can take over a repartition
 *       topic with records in it): Avro binary of the compiled {@code Reading} schema.
 * </ul>
 */
public final class ReadingSerde implements Serde<Reading> {

  private static final byte AVRO_FORMAT = 1;
  private static final byte FIXED_FORMAT = 2;
  private static final byte HAS_METRIC = 1;
  private static final byte HAS_UTC_OFFSET = 2;

  private final SpecificDatumReader<Reading> avroReader = new SpecificDatumReader<>(Reading.class);

  @Override
  public Serializer<Reading> serializer() {
    return (topic, reading) -> reading == null ? null : encode(reading);
  }

  @Override
  public Deserializer<Reading> deserializer() {
    return (topic, bytes) -> bytes == null ? null : decode(bytes);
  }

  static byte[] encode(final Reading reading) {
    final byte[] sensorId = reading.getSensorId().getBytes(StandardCharsets.UTF_8);
    final byte[] metric =
        reading.getMetric() == null ? null : reading.getMetric().getBytes(StandardCharsets.UTF_8);
    final Integer utcOffset = reading.getUtcOffsetMinutes();
    final int size =
        1
            + 8
            + 8
            + 1
            + 4
            + sensorId.length
            + (metric == null ? 0 : 4 + metric.length)
            + (utcOffset == null ? 0 : 4);
    final ByteBuffer buffer = ByteBuffer.allocate(size);
    buffer
        .put(FIXED_FORMAT)
        .putLong(reading.getTimestamp().toEpochMilli())
        .putDouble(reading.getValue())
        .put((byte) ((metric == null ? 0 : HAS_METRIC) | (utcOffset == null ? 0 : HAS_UTC_OFFSET)))
        .putInt(sensorId.length)
        .put(sensorId);
    if (metric != null) {
      buffer.putInt(metric.length).put(metric);
    }
    if (utcOffset != null) {
      buffer.putInt(utcOffset);
    }
    return buffer.array();
  }

  private Reading decode(final byte[] bytes) {
    if (bytes.length > 0 && bytes[0] == FIXED_FORMAT) {
      return decodeFixed(ByteBuffer.wrap(bytes, 1, bytes.length - 1));
    }
    if (bytes.length > 0 && bytes[0] == AVRO_FORMAT) {
      return decodeAvro(bytes);
    }
    throw new IllegalStateException("unknown reading format on the repartition topic");
  }

  private static Reading decodeFixed(final ByteBuffer buffer) {
    final long timestamp = buffer.getLong();
    final double value = buffer.getDouble();
    final byte flags = buffer.get();
    final String sensorId = string(buffer);
    final String metric = (flags & HAS_METRIC) != 0 ? string(buffer) : null;
    final Integer utcOffset = (flags & HAS_UTC_OFFSET) != 0 ? buffer.getInt() : null;
    return new Reading(sensorId, Instant.ofEpochMilli(timestamp), value, metric, utcOffset);
  }

  private static String string(final ByteBuffer buffer) {
    final int length = buffer.getInt();
    final String text =
        new String(
            buffer.array(),
            buffer.arrayOffset() + buffer.position(),
            length,
            StandardCharsets.UTF_8);
    buffer.position(buffer.position() + length);
    return text;
  }

  private Reading decodeAvro(final byte[] bytes) {
    final BinaryDecoder decoder =
        DecoderFactory.get().binaryDecoder(bytes, 1, bytes.length - 1, null);
    try {
      return avroReader.read(null, decoder);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
