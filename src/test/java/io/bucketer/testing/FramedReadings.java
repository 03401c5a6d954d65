package io.bucketer.testing;

import io.bucketer.avro.Reading;
import io.bucketer.ingest.ConfluentWireFormat;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificDatumWriter;

/** A reading as a gateway's serializer writes it, for tests that need no registry to register. */
public final class FramedReadings {

  private FramedReadings() {}

  /** A reading of {@code sensor}'s temperature, without a UTC offset. */
  public static Reading temperature(final String sensor, final Instant time, final double value) {
    return Reading.newBuilder()
        .setSensorId(sensor)
        .setMetric("temperature")
        .setTimestamp(time)
        .setValue(value)
        .build();
  }

  /** {@code reading} in Avro binary with its own schema, framed under {@code schemaId}. */
  public static byte[] frame(final Reading reading, final int schemaId) {
    final ByteArrayOutputStream body = new ByteArrayOutputStream();
    final BinaryEncoder encoder = EncoderFactory.get().directBinaryEncoder(body, null);
    try {
      new SpecificDatumWriter<>(Reading.class).write(reading, encoder);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return ConfluentWireFormat.frame(schemaId, body.toByteArray());
  }
}
