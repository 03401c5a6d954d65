package io.bucketer.deadletters;

import io.bucketer.avro.Reading;
import io.bucketer.buckets.ClosedBucket;
import io.bucketer.ingest.ConfluentWireFormat;
import io.bucketer.ingest.InputDecoder;
import io.bucketer.ingest.InputFormat;
import io.bucketer.ingest.InputRecord;
import io.bucketer.ingest.InvalidReadingException;
import io.bucketer.ingest.SchemaLookup;
import io.bucketer.ingest.SchemaRegistryException;
import io.bucketer.topics.BucketKey;
import io.bucketer.topics.ClosedBucketSerde;
import io.bucketer.topics.DeadLetterHeaders;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.header.Header;

/**
 * A dead letter's value decoded as far as it goes, for {@code dead-letters show}: what it holds (an
 * Avro record's fields by its writer schema, JSON text, a bucket's key, else the bytes as text or
 * hex) and what the configured input decoder makes of it now (its readings, or the reason it still
 * fails: after a fix, the operator sees what a replay will do before doing it). Bounded: each shows
 * at most {@code limit} characters or bytes.
 */
public final class DeadLetterDecoding {

  private static final int READINGS_SHOWN = 3;

  private final InputFormat format;
  private final Optional<InputDecoder> decoder;
  private final Optional<SchemaLookup> avroSchemas;
  private final int limit;

  /**
   * @param decoder the input's decoder as {@code run} builds it; empty for Sparkplug B, which only
   *     the topology reads (it needs the births)
   * @param avroSchemas the registry, to read an Avro value by its writer schema; empty without one
   */
  public DeadLetterDecoding(
      final InputFormat format,
      final Optional<InputDecoder> decoder,
      final Optional<SchemaLookup> avroSchemas,
      final int limit) {
    this.format = format;
    this.decoder = decoder;
    this.avroSchemas = avroSchemas;
    this.limit = limit;
  }

  /**
   * @param content what the value holds
   * @param decodesNow what the input decoder makes of the record now
   */
  public record View(String content, String decodesNow) {}

  public View view(final DeadLetter letter) {
    return switch (letter.reason()) {
      case DeadLetterHeaders.TOO_LATE ->
          new View(
              "a reading as JSON: " + BytesPreview.of(letter.value(), limit),
              "not an input record: a decoded reading that came after its window's lateness horizon");
      case DeadLetterHeaders.SERIES_LIMIT ->
          new View(
              "a reading as JSON: " + BytesPreview.of(letter.value(), limit),
              "a reading of a new series its tenant's series limit refused; replayed, the processor"
                  + " reads this JSON whatever input.format says");
      case DeadLetterHeaders.MONGODB_REJECTED ->
          new View(bucket(letter.value()), "not an input record: a bucket of the buckets topic");
      default -> new View(content(letter.value()), decodesNow(letter));
    };
  }

  private String bucket(final byte[] value) {
    if (value == null) {
      return BytesPreview.of(value, limit);
    }
    try {
      final ClosedBucket bucket = ClosedBucketSerde.decode(value);
      return "bucket "
          + BucketKey.of(bucket)
          + " revision "
          + bucket.revision()
          + ", "
          + bucket.stats().count()
          + " readings";
    } catch (SerializationException e) {
      return BytesPreview.of(value, limit);
    }
  }

  private String content(final byte[] value) {
    if (!isFramed(value)) {
      return BytesPreview.of(value, limit);
    }
    final int schemaId = ByteBuffer.wrap(value, 1, Integer.BYTES).getInt();
    return switch (format) {
      case AVRO -> avro(value, schemaId);
      case PROTOBUF, JSON_SCHEMA ->
          "framed, schema id " + schemaId + ": " + BytesPreview.of(body(value), limit);
      default -> BytesPreview.of(value, limit);
    };
  }

  /** The fields of an Avro value by its own writer schema, whatever the mapping says. */
  private String avro(final byte[] value, final int schemaId) {
    final String framed = "Avro, writer schema id " + schemaId;
    if (avroSchemas.isEmpty()) {
      return framed + ": " + BytesPreview.of(value, limit);
    }
    final Schema writer;
    try {
      writer = avroSchemas.get().schemaById(schemaId);
    } catch (InvalidReadingException e) {
      return framed + " (" + e.reason().label() + "): " + BytesPreview.of(value, limit);
    } catch (SchemaRegistryException e) {
      // Not the registry's message: it may name the registry's address.
      return framed + " (the schema registry did not answer): " + BytesPreview.of(value, limit);
    }
    try {
      final BinaryDecoder in =
          DecoderFactory.get()
              .binaryDecoder(
                  value,
                  ConfluentWireFormat.HEADER_LENGTH,
                  value.length - ConfluentWireFormat.HEADER_LENGTH,
                  null);
      final GenericRecord record = new GenericDatumReader<GenericRecord>(writer).read(null, in);
      return framed + ": " + BytesPreview.text(record.toString(), limit, value.length);
    } catch (IOException | RuntimeException e) {
      // Avro reports a corrupt body variously (EOF, a bad union index, a negative length).
      return framed + " (the body does not decode with it): " + BytesPreview.of(value, limit);
    }
  }

  private String decodesNow(final DeadLetter letter) {
    if (decoder.isEmpty()) {
      return "not tried: input.format="
          + format.label()
          + " is read with its births, which only the processor holds";
    }
    final List<Reading> readings;
    try {
      readings =
          decoder
              .get()
              .readings(
                  new InputRecord(
                      letter.key(),
                      letter.value(),
                      name -> lastValue(letter, name),
                      letter.sourceTimestamp()));
    } catch (InvalidReadingException e) {
      return "no: " + e.getMessage();
    } catch (SchemaRegistryException e) {
      return "not known: the schema registry did not answer";
    }
    final String shown =
        readings.stream()
            .limit(READINGS_SHOWN)
            .map(DeadLetterDecoding::reading)
            .collect(Collectors.joining("; "));
    return readings.size()
        + (readings.size() == 1 ? " reading" : " readings")
        + (readings.isEmpty() ? "" : ": " + shown)
        + (readings.size() > READINGS_SHOWN ? "; …" : "");
  }

  private static byte[] lastValue(final DeadLetter letter, final String name) {
    final Header header = letter.headers().lastHeader(name);
    return header == null ? null : header.value();
  }

  private static String reading(final Reading reading) {
    return reading.getSensorId()
        + (reading.getMetric() == null ? "" : "/" + reading.getMetric())
        + " "
        + reading.getTimestamp()
        + " "
        + reading.getValue();
  }

  private static boolean isFramed(final byte[] value) {
    return value != null
        && value.length >= ConfluentWireFormat.HEADER_LENGTH
        && value[0] == ConfluentWireFormat.MAGIC_BYTE;
  }

  private static byte[] body(final byte[] framed) {
    final byte[] body = new byte[framed.length - ConfluentWireFormat.HEADER_LENGTH];
    System.arraycopy(framed, ConfluentWireFormat.HEADER_LENGTH, body, 0, body.length);
    return body;
  }
}
