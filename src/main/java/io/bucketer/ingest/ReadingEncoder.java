package io.bucketer.ingest;

import io.bucketer.avro.Reading;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Objects;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DatumWriter;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificDatumWriter;

/**
 * Producer side (simulator, tests): frames records like Confluent's KafkaAvroSerializer with
 * auto.register.schemas and TopicNameStrategy, i.e. the writer schema is registered under {@code
 * <topic>-value}. Registration happens on first use and is then served from the client's cache.
 * Thread-safe.
 */
public final class ReadingEncoder {

  private static final DatumWriter<Reading> READING_WRITER =
      new SpecificDatumWriter<>(Reading.getClassSchema(), SpecificData.getForClass(Reading.class));

  private final SchemaRegistryClient registry;
  private final String subject;

  public ReadingEncoder(final SchemaRegistryClient registry, final String topic) {
    this.registry = Objects.requireNonNull(registry, "registry");
    this.subject = Objects.requireNonNull(topic, "topic") + "-value";
  }

  /** The registry subject the writer schemas go to. */
  public String subject() {
    return subject;
  }

  /**
   * @throws SchemaRegistryException if the schema cannot be registered
   */
  public byte[] encode(final Reading reading) {
    return frame(Reading.getClassSchema(), READING_WRITER, reading);
  }

  /**
   * Encodes with an arbitrary writer schema (registered under the same subject), e.g. to produce
   * what an older or newer producer would. Logical-type fields must hold their raw Avro values (a
   * timestamp-millis field holds a {@code Long}).
   */
  public byte[] encode(final GenericRecord record, final Schema writerSchema) {
    return frame(writerSchema, new GenericDatumWriter<>(writerSchema, GenericData.get()), record);
  }

  private <T> byte[] frame(final Schema schema, final DatumWriter<T> writer, final T datum) {
    final int id = registry.register(subject, schema);
    // Header and body in one buffer, and an encoder without a buffer of its own: the simulator
    // frames tens of thousands of readings a second beside the processor it feeds.
    final ByteArrayOutputStream framed = new ByteArrayOutputStream(64);
    ConfluentWireFormat.writeHeader(framed, id);
    try {
      final BinaryEncoder out = EncoderFactory.get().directBinaryEncoder(framed, null);
      writer.write(datum, out);
      out.flush();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot happen writing to memory", e);
    }
    return framed.toByteArray();
  }
}
