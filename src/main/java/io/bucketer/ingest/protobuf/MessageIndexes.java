package io.bucketer.ingest.protobuf;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FileDescriptor;
import io.bucketer.ingest.InvalidReadingException;
import io.bucketer.ingest.InvalidReadingException.Reason;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The message-index array of Confluent's Protobuf wire format, between the 5-byte header and the
 * Protobuf binary: which message of the schema's file the body is. A count, then that many indexes,
 * all zigzag varints: {@code [1]} is the file's second top-level message, {@code [0, 2]} the third
 * message nested in its first. The common {@code [0]} is written as the single byte 0, a count of
 * zero.
 *
 * <p>The indexes count the messages the {@code .proto} text declares, as Confluent's serializer
 * numbers them from the parsed text: the entry types that protobuf-java's descriptors add for
 * {@code map} fields are not among them (protoc places them among the declared ones, wire after
 * them).
 */
public final class MessageIndexes {

  /** {@code [0]}, the file's first message; shared, never to be written to. */
  static final int[] FIRST = {0};

  private MessageIndexes() {}

  /**
   * Reads the array at the stream's position, leaving it at the Protobuf body.
   *
   * @param bodyLength the bytes after the header, which bound the count
   * @throws InvalidReadingException {@code malformed-protobuf} for a bad varint, or a negative or
   *     impossible count or index
   */
  static int[] read(final CodedInputStream in, final int bodyLength, final int schemaId)
      throws InvalidReadingException {
    try {
      final int count = in.readSInt32();
      if (count == 0) {
        return FIRST;
      }
      if (count < 0 || count > bodyLength) {
        throw malformed(schemaId, "a count of " + count);
      }
      final int[] indexes = new int[count];
      for (int i = 0; i < count; i++) {
        indexes[i] = in.readSInt32();
        if (indexes[i] < 0) {
          throw malformed(schemaId, "a negative index " + indexes[i]);
        }
      }
      return indexes;
    } catch (IOException e) {
      throw malformed(schemaId, "no complete varint");
    }
  }

  /** Writes {@code indexes} as Confluent's serializer does: {@code [0]} as the one byte 0. */
  public static void write(final CodedOutputStream out, final int[] indexes) throws IOException {
    if (Arrays.equals(indexes, FIRST)) {
      out.writeSInt32NoTag(0);
      return;
    }
    out.writeSInt32NoTag(indexes.length);
    for (final int index : indexes) {
      out.writeSInt32NoTag(index);
    }
  }

  /** The indexes of {@code message} in its file: its own, after its enclosing messages'. */
  public static int[] of(final Descriptor message) {
    final List<Integer> path = new ArrayList<>();
    for (Descriptor at = message; at != null; at = at.getContainingType()) {
      final List<Descriptor> siblings =
          at.getContainingType() == null
              ? at.getFile().getMessageTypes()
              : declared(at.getContainingType().getNestedTypes());
      path.add(0, siblings.indexOf(at));
    }
    return path.stream().mapToInt(Integer::intValue).toArray();
  }

  /**
   * The message {@code indexes} name in {@code file}.
   *
   * @throws InvalidReadingException {@code unknown-message-index} when there is none
   */
  static Descriptor resolve(final FileDescriptor file, final int[] indexes, final int schemaId)
      throws InvalidReadingException {
    List<Descriptor> level = file.getMessageTypes();
    Descriptor message = null;
    for (final int index : indexes) {
      if (index >= level.size()) {
        throw new InvalidReadingException(
            Reason.UNKNOWN_MESSAGE_INDEX,
            "message indexes "
                + Arrays.toString(indexes)
                + " name no message of schema id "
                + schemaId
                + (message == null
                    ? " (its file has " + level.size() + " top-level messages)"
                    : " (" + message.getFullName() + " has " + level.size() + " nested messages)"));
      }
      message = level.get(index);
      level = declared(message.getNestedTypes());
    }
    return message;
  }

  private static List<Descriptor> declared(final List<Descriptor> nested) {
    return nested.stream().filter(type -> !type.getOptions().getMapEntry()).toList();
  }

  private static InvalidReadingException malformed(final int schemaId, final String what) {
    return new InvalidReadingException(
        Reason.MALFORMED_PROTOBUF,
        "the message indexes after the header of schema id " + schemaId + " hold " + what);
  }
}
