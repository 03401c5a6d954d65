package io.bucketer.ingest.protobuf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.DescriptorProtos.DescriptorProto;
import com.google.protobuf.DescriptorProtos.FieldDescriptorProto;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.DoubleValue;
import com.google.protobuf.Timestamp;
import io.bucketer.ingest.InvalidReadingException;
import io.bucketer.ingest.InvalidReadingException.Reason;
import io.bucketer.ingest.SchemaText;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The .proto text of a registry, with its references, becomes protobuf-java descriptors through
 * wire-schema's parser and linker and its internal SchemaEncoder. The first test is the guard on
 * that internal API: what it makes of gateway.proto must equal, field for field, what protoc made
 * of it (gateway.desc), so that a wire upgrade that changes the encoding fails here.
 */
class ProtoSchemaCompilerTest {

  @Test
  void shouldDescribeEveryMessageAsProtocDoes() {
    final Descriptor fromProtoc =
        DescriptorSetFile.message(TestSchemas.descriptorSet(), "test.gateway.GatewayReading");

    assertThat(fields(TestSchemas.FILE.toProto().getMessageTypeList()))
        .isEqualTo(fields(fromProtoc.getFile().toProto().getMessageTypeList()))
        .contains(
            "test.gateway.GatewayReading.humidity 4 TYPE_DOUBLE LABEL_OPTIONAL  optional",
            "test.gateway.GatewayReading.history 9 TYPE_DOUBLE LABEL_REPEATED  ",
            "test.gateway.GatewayReading.Meta.serial 1 TYPE_UINT64 LABEL_OPTIONAL  ",
            "test.gateway.Batch.totals 4 TYPE_MESSAGE LABEL_REPEATED .test.gateway.Batch.TotalsEntry ");
    assertThat(TestSchemas.FILE.getDependencies())
        .extracting(file -> file.getName())
        .containsExactly(
            "google/protobuf/timestamp.proto", "google/protobuf/wrappers.proto", "units.proto");
  }

  @Test
  void shouldUseProtobufJavasOwnWellKnownTypes() {
    assertThat(TestSchemas.GATEWAY_READING.findFieldByName("time").getMessageType())
        .isSameAs(Timestamp.getDescriptor());
    assertThat(TestSchemas.SAMPLE.findFieldByName("humidity").getMessageType())
        .isSameAs(DoubleValue.getDescriptor());
  }

  @Test
  void shouldFetchReferencesOfReferences() throws InvalidReadingException {
    final SchemaText base =
        SchemaText.of(
            SchemaText.PROTOBUF,
            "syntax = \"proto3\"; package b;" + " message Base { double v = 1; }");
    final SchemaText middle =
        new SchemaText(
            SchemaText.PROTOBUF,
            "syntax = \"proto3\"; package m; import \"b.proto\"; message Middle { b.Base base = 1; }",
            List.of(new SchemaText.Reference("b.proto", "b", 3)));
    final SchemaText top =
        new SchemaText(
            SchemaText.PROTOBUF,
            "syntax = \"proto3\"; package t; import \"m.proto\"; message Top { m.Middle m = 1; }",
            List.of(new SchemaText.Reference("m.proto", "m", 1)));
    final TestSchemas.Registry registry =
        new TestSchemas.Registry().withVersion("b", 3, base).withVersion("m", 1, middle);

    assertThat(
            ProtoSchemaCompiler.compile("schema id 9", top, registry)
                .findMessageTypeByName("Top")
                .findFieldByName("m")
                .getMessageType()
                .findFieldByName("base")
                .getMessageType()
                .getFullName())
        .isEqualTo("b.Base");
  }

  @Test
  void shouldRefuseTextThatDoesNotParseNamingTheFile() {
    assertThatThrownBy(
            () ->
                ProtoSchemaCompiler.compile(
                    "schema id 9",
                    "root.proto",
                    Map.of("root.proto", "syntax = \"proto3\"; message M { double v = 1 }")))
        .isInstanceOfSatisfying(
            InvalidReadingException.class,
            e -> assertThat(e.reason()).isEqualTo(Reason.INCOMPATIBLE_SCHEMA))
        .hasMessageContaining("schema id 9")
        .hasMessageContaining("root.proto");
  }

  @Test
  void shouldRefuseAnUndefinedTypeOrAMissingReference() {
    assertThatThrownBy(
            () ->
                ProtoSchemaCompiler.compile(
                    "schema id 9",
                    "root.proto",
                    Map.of("root.proto", "syntax = \"proto3\"; message M { Unknown u = 1; }")))
        .isInstanceOfSatisfying(
            InvalidReadingException.class,
            e -> assertThat(e.reason()).isEqualTo(Reason.INCOMPATIBLE_SCHEMA))
        .hasMessageContaining("Unknown");
    final SchemaText dangling =
        new SchemaText(
            SchemaText.PROTOBUF,
            "syntax = \"proto3\"; import \"gone.proto\"; message M { double v = 1; }",
            List.of(new SchemaText.Reference("gone.proto", "gone", 2)));
    assertThatThrownBy(
            () -> ProtoSchemaCompiler.compile("schema id 9", dangling, new TestSchemas.Registry()))
        .isInstanceOfSatisfying(
            InvalidReadingException.class,
            e -> assertThat(e.reason()).isEqualTo(Reason.INCOMPATIBLE_SCHEMA))
        .hasMessageContaining("gone version 2");
  }

  @Test
  void shouldRefuseASchemaOfAnotherType() {
    assertThatThrownBy(
            () ->
                ProtoSchemaCompiler.compile(
                    "schema id 9",
                    SchemaText.of(SchemaText.AVRO, "\"double\""),
                    new TestSchemas.Registry()))
        .isInstanceOfSatisfying(
            InvalidReadingException.class,
            e -> assertThat(e.reason()).isEqualTo(Reason.INCOMPATIBLE_SCHEMA))
        .hasMessageContaining("AVRO schema, not PROTOBUF");
  }

  /** Every field of every message, nested ones included: what decoding depends on. */
  private static List<String> fields(final List<DescriptorProto> messages) {
    // Sorted: protoc places a map's entry type where the map is declared, wire after the messages
    // declared; message indexes do not count them (MessageIndexesTest).
    return messages.stream()
        .flatMap(message -> fields("test.gateway", message).stream())
        .sorted()
        .toList();
  }

  private static List<String> fields(final String scope, final DescriptorProto message) {
    final String name = scope + "." + message.getName();
    final java.util.ArrayList<String> lines = new java.util.ArrayList<>();
    for (final FieldDescriptorProto field : message.getFieldList()) {
      lines.add(
          name
              + "."
              + field.getName()
              + " "
              + field.getNumber()
              + " "
              + field.getType()
              + " "
              + field.getLabel()
              + " "
              + field.getTypeName()
              + " "
              + (field.getProto3Optional() ? "optional" : ""));
    }
    message.getNestedTypeList().forEach(nested -> lines.addAll(fields(name, nested)));
    return lines;
  }
}
