package io.bucketer.ingest;

import io.bucketer.ingest.InvalidReadingException.Reason;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;

/**
 * Confluent Schema Registry framing, byte-compatible with Confluent's KafkaAvroSerializer: byte 0
 * is the magic byte 0, bytes 1-4 the schema id as a big-endian int, the rest the Avro binary body.
 */
public final class ConfluentWireFormat {

  public static final byte MAGIC_BYTE = 0;
  public static final int HEADER_LENGTH = 5;

  private ConfluentWireFormat() {}

  /**
   * A parsed frame. {@code data} is the caller's array, not a copy (frames are parsed once per
   * record on the hot path); the body is {@code data[bodyOffset..data.length)}. Record equality on
   * the array is by identity.
   */
  public record Frame(int schemaId, byte[] data, int bodyOffset) {

    public int bodyLength() {
      return data.length - bodyOffset;
    }

    /** Read-only view of the Avro body, sharing {@code data}. */
    public ByteBuffer body() {
      return ByteBuffer.wrap(data, bodyOffset, bodyLength()).slice().asReadOnlyBuffer();
    }
  }

  /** Writes the header for {@code schemaId}, for a body written to the same stream after it. */
  public static void writeHeader(final ByteArrayOutputStream out, final int schemaId) {
    out.write(MAGIC_BYTE);
    // big-endian, as the format requires
    out.write(schemaId >>> 24);
    out.write(schemaId >>> 16);
    out.write(schemaId >>> 8);
    out.write(schemaId);
  }

  /** Returns a new array: header for {@code schemaId} followed by {@code avroBody}. */
  public static byte[] frame(final int schemaId, final byte[] avroBody) {
    final ByteArrayOutputStream framed = new ByteArrayOutputStream(HEADER_LENGTH + avroBody.length);
    writeHeader(framed, schemaId);
    framed.writeBytes(avroBody);
    return framed.toByteArray();
  }

  /**
   * Splits a framed value into schema id and body. An empty body is accepted here: whether zero
   * bytes are valid Avro depends on the writer schema, which only the decoder knows.
   *
   * @throws InvalidReadingException {@code NOT_WIRE_FORMAT} if null, shorter than the header, or
   *     the magic byte is not 0 (for example JSON or plain Avro without the registry header)
   */
  public static Frame parse(final byte[] framed) throws InvalidReadingException {
    if (framed == null) {
      throw new InvalidReadingException(Reason.NOT_WIRE_FORMAT, "record value is null");
    }
    if (framed.length < HEADER_LENGTH) {
      throw new InvalidReadingException(
          Reason.NOT_WIRE_FORMAT,
          "record value has " + framed.length + " bytes, shorter than the 5-byte header");
    }
    if (framed[0] != MAGIC_BYTE) {
      throw new InvalidReadingException(
          Reason.NOT_WIRE_FORMAT,
          String.format("magic byte is 0x%02x, expected 0x00", framed[0] & 0xff));
    }
    return new Frame(ByteBuffer.wrap(framed, 1, 4).getInt(), framed, HEADER_LENGTH);
  }
}
