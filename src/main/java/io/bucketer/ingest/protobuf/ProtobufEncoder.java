package io.bucketer.ingest.protobuf;

import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Message;
import io.bucketer.ingest.ConfluentWireFormat;
import io.bucketer.ingest.InvalidReadingException;
import io.bucketer.ingest.SchemaRegistryClient;
import io.bucketer.ingest.SchemaText;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Objects;

/**
 * Producer side (simulator, tests, benchmarks): frames Protobuf messages as Confluent's
 * KafkaProtobufSerializer does, the 5-byte header, the message's indexes in its file and its
 * binary, with the {@code .proto} schema registered under a subject ({@code <topic>-value} for
 * TopicNameStrategy). The schema's references must be registered already. Thread-safe.
 */
public final class ProtobufEncoder {

  private final int schemaId;
  private final Descriptor type;
  private final int[] indexes;

  /** An encoder of {@code type}, whose schema the registry knows as {@code schemaId}. */
  public ProtobufEncoder(final int schemaId, final Descriptor type) {
    this.schemaId = schemaId;
    this.type = type;
    this.indexes = MessageIndexes.of(type);
  }

  /**
   * Registers {@code schema} under {@code subject} and makes an encoder of its message {@code
   * messageType} (a full name: {@code io.bucketer.gateway.GatewayReading}).
   *
   * @throws IllegalArgumentException when the schema does not compile or has no such message
   * @throws io.bucketer.ingest.SchemaRegistryException when the registry refuses the schema
   */
  public static ProtobufEncoder register(
      final SchemaRegistryClient registry,
      final String subject,
      final SchemaText schema,
      final String messageType) {
    final Descriptor type;
    try {
      type =
          ProtoSchemaCompiler.compile("the schema of " + subject, schema, registry)
              .getMessageTypes()
              .stream()
              .filter(message -> message.getFullName().equals(messageType))
              .findFirst()
              .orElseThrow(
                  () ->
                      new IllegalArgumentException(
                          "the schema of " + subject + " has no top-level message " + messageType));
    } catch (InvalidReadingException e) {
      throw new IllegalArgumentException(e.getMessage(), e);
    }
    return new ProtobufEncoder(registry.register(subject, schema), type);
  }

  /** The message type: build the messages to encode with its fields. */
  public Descriptor type() {
    return type;
  }

  /** The id the registry gave the schema. */
  public int schemaId() {
    return schemaId;
  }

  /**
   * @throws IllegalArgumentException for a message of another type
   */
  public byte[] encode(final Message message) {
    if (!Objects.equals(message.getDescriptorForType().getFullName(), type.getFullName())) {
      throw new IllegalArgumentException(
          "a " + message.getDescriptorForType().getFullName() + " is no " + type.getFullName());
    }
    final ByteArrayOutputStream framed =
        new ByteArrayOutputStream(
            ConfluentWireFormat.HEADER_LENGTH + 4 + message.getSerializedSize());
    ConfluentWireFormat.writeHeader(framed, schemaId);
    try {
      final CodedOutputStream out = CodedOutputStream.newInstance(framed);
      MessageIndexes.write(out, indexes);
      message.writeTo(out);
      out.flush();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot happen writing to memory", e);
    }
    return framed.toByteArray();
  }
}
