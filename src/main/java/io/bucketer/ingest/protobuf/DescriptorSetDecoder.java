package io.bucketer.ingest.protobuf;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.Descriptors.Descriptor;
import io.bucketer.avro.Reading;
import io.bucketer.ingest.InputDecoder;
import io.bucketer.ingest.InputRecord;
import io.bucketer.ingest.InvalidReadingException;
import io.bucketer.ingest.InvalidReadingException.Reason;
import io.bucketer.ingest.ReadingMapping;
import java.util.List;

/**
 * Decodes bare Protobuf binary, without a registry (input.format=protobuf with
 * input.protobuf.descriptor.file): every record value is one message of the configured type, read
 * with the descriptors {@code protoc} wrote ({@link DescriptorSetFile}). No framing: a producer
 * that has no registry has no schema id to write either, and a bridge that forwards a device's
 * payload as it is sends exactly these bytes.
 *
 * <p>Stateless after construction; safe for concurrent use.
 */
public final class DescriptorSetDecoder implements InputDecoder {

  private final MessagePlan plan;

  /**
   * @throws IllegalArgumentException when no message of {@code type} can satisfy {@code mapping}:
   *     checked when the settings are, before anything runs
   */
  public DescriptorSetDecoder(final Descriptor type, final ReadingMapping mapping) {
    try {
      this.plan = MessagePlan.compile("message " + type.getFullName(), type, mapping);
    } catch (InvalidReadingException e) {
      throw new IllegalArgumentException(e.getMessage(), e);
    }
  }

  @Override
  public List<Reading> readings(final InputRecord record) throws InvalidReadingException {
    final byte[] value = record.value();
    if (value == null) {
      throw new InvalidReadingException(Reason.MALFORMED_PROTOBUF, "record value is null");
    }
    return plan.readings(
        ProtobufDecoder.parse(plan.type(), CodedInputStream.newInstance(value), -1), record);
  }
}
