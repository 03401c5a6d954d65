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
 * One decoded reading per record on a repartition topic by series: what bucketer wrote to its own
 * repartition topic before it sent each series' readings in batches ({@link ReadingBatchSerde},
 * which still reads these formats), and what the benchmark's Kafka Streams jobs that repartition
 * every reading write. A leading format byte says how the rest is laid out:
 *
 * <ul>
 *   <li>3 (written now): the reading without its series, which the record's key ({@link
 *       SeriesKeySerde}) already carries: the timestamp (8 bytes, epoch milliseconds), the value (8
 *       bytes, IEEE 754), a byte of flags (2: a UTC offset follows) and the offset (4 bytes) when
 *       present. Big-endian. Written and read without any schema machinery, because every reading
 *       crosses such a topic: Avro's generic writer and reader were a sixth of the stream thread's
 *       samples, and the sensor id and metric, written twice, two string encodings and decodings
 *       and most of the bytes. A reading read from it has no sensor id or metric: its series is the
 *       record's key.
 *   <li>2 (written by earlier versions, still read): as 3, with a flag for the metric (1), the
 *       sensor id after the flags (a 4-byte length and UTF-8) and the metric after it when flagged.
 *   <li>1 (written by earlier versions, still read): Avro binary of the compiled {@code Reading}
 *       schema.
 * </ul>
 */
public final class ReadingSerde implements Serde<Reading> {

  private static final byte AVRO_FORMAT = 1;
  private static final byte FIXED_FORMAT = 2;
  private static final byte SERIES_IN_KEY_FORMAT = 3;
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
    final Integer utcOffset = reading.getUtcOffsetMinutes();
    final ByteBuffer buffer = ByteBuffer.allocate(1 + readingBytes(utcOffset));
    buffer.put(SERIES_IN_KEY_FORMAT);
    putReading(buffer, reading.getTimestamp().toEpochMilli(), reading.getValue(), utcOffset);
    return buffer.array();
  }

  /** The bytes one reading takes in format 3's layout, which format 4 repeats per reading. */
  static int readingBytes(final Integer utcOffsetMinutes) {
    return 8 + 8 + 1 + (utcOffsetMinutes == null ? 0 : 4);
  }

  /** Writes one reading in format 3's layout, after the format byte. */
  static void putReading(
      final ByteBuffer buffer,
      final long timestamp,
      final double value,
      final Integer utcOffsetMinutes) {
    buffer.putLong(timestamp).putDouble(value).put(utcOffsetMinutes == null ? 0 : HAS_UTC_OFFSET);
    if (utcOffsetMinutes != null) {
      buffer.putInt(utcOffsetMinutes);
    }
  }

  /** The bytes reading {@code index} of {@code readings} takes in format 3's layout. */
  static int readingBytes(final ReadingBatch readings, final int index) {
    return 8 + 8 + 1 + (readings.hasUtcOffset(index) ? 4 : 0);
  }

  /**
   * Writes reading {@code index} of {@code readings} in format 3's layout: as {@link #putReading},
   * without boxing its offset.
   */
  static void putReading(final ByteBuffer buffer, final ReadingBatch readings, final int index) {
    final boolean hasOffset = readings.hasUtcOffset(index);
    buffer
        .putLong(readings.timestamp(index))
        .putDouble(readings.value(index))
        .put(hasOffset ? HAS_UTC_OFFSET : 0);
    if (hasOffset) {
      buffer.putInt(readings.utcOffsetMinutesAt(index));
    }
  }

  /** Reads one reading of format 3's layout into {@code into}. */
  static void readReading(final ByteBuffer buffer, final ReadingBatch into) {
    final long timestamp = buffer.getLong();
    final double value = buffer.getDouble();
    final byte flags = buffer.get();
    if ((flags & HAS_UTC_OFFSET) != 0) {
      into.addWithUtcOffset(timestamp, value, buffer.getInt());
    } else {
      into.add(timestamp, value, null);
    }
  }

  /** Advances {@code buffer} past one reading of format 3's layout, decoding nothing. */
  static void skipReading(final ByteBuffer buffer) {
    final int flagsAt = buffer.position() + 8 + 8;
    final boolean hasOffset = (buffer.get(flagsAt) & HAS_UTC_OFFSET) != 0;
    buffer.position(flagsAt + 1 + (hasOffset ? 4 : 0));
  }

  private Reading decode(final byte[] bytes) {
    if (bytes.length > 0 && bytes[0] == SERIES_IN_KEY_FORMAT) {
      return decodeWithoutSeries(ByteBuffer.wrap(bytes, 1, bytes.length - 1));
    }
    if (bytes.length > 0 && bytes[0] == FIXED_FORMAT) {
      return decodeFixed(ByteBuffer.wrap(bytes, 1, bytes.length - 1));
    }
    if (bytes.length > 0 && bytes[0] == AVRO_FORMAT) {
      return decodeAvro(bytes);
    }
    throw new IllegalStateException("unknown reading format on the repartition topic");
  }

  /**
   * Format 3's layout, as {@link #readReading} reads it, but straight into a {@code Reading}: the
   * bench's floor row and its windowed row decode every reading here, and a batch of one in between
   * would be work they do not do in their own right.
   */
  private static Reading decodeWithoutSeries(final ByteBuffer buffer) {
    final long timestamp = buffer.getLong();
    final double value = buffer.getDouble();
    final byte flags = buffer.get();
    final Integer utcOffset = (flags & HAS_UTC_OFFSET) != 0 ? buffer.getInt() : null;
    return new Reading(null, Instant.ofEpochMilli(timestamp), value, null, utcOffset);
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
