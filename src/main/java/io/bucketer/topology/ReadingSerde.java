package io.bucketer.topology;

import io.bucketer.avro.Reading;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Decoded readings on the internal repartition topic: Avro binary of the reader schema, without the
 * registry framing. The topic is written and read by this application only, so its schema is the
 * compiled one; a leading format byte leaves room to change that.
 */
public final class ReadingSerde implements Serde<Reading> {

  private static final byte FORMAT_VERSION = 1;

  private final SpecificDatumWriter<Reading> writer = new SpecificDatumWriter<>(Reading.class);
  private final SpecificDatumReader<Reading> reader = new SpecificDatumReader<>(Reading.class);

  @Override
  public Serializer<Reading> serializer() {
    return (topic, reading) -> reading == null ? null : encode(reading);
  }

  @Override
  public Deserializer<Reading> deserializer() {
    return (topic, bytes) -> bytes == null ? null : decode(bytes);
  }

  private byte[] encode(final Reading reading) {
    final ByteArrayOutputStream out = new ByteArrayOutputStream(64);
    out.write(FORMAT_VERSION);
    final BinaryEncoder encoder = EncoderFactory.get().directBinaryEncoder(out, null);
    try {
      writer.write(reading, encoder);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }

  private Reading decode(final byte[] bytes) {
    if (bytes.length == 0 || bytes[0] != FORMAT_VERSION) {
      throw new IllegalStateException("unknown reading format on the repartition topic");
    }
    final BinaryDecoder decoder =
        DecoderFactory.get().binaryDecoder(bytes, 1, bytes.length - 1, null);
    try {
      return reader.read(null, decoder);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
