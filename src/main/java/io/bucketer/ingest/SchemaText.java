package io.bucketer.ingest;

import java.util.List;
import java.util.Objects;

/**
 * A schema as the registry holds it: its type, its text, and the schemas its text imports or {@code
 * $ref}s, each registered under a subject of its own ({@code GET /schemas/ids/{id}}).
 *
 * @param type {@link #AVRO}, {@link #PROTOBUF} or {@link #JSON}, as the registry's {@code
 *     schemaType} (absent there for Avro)
 * @param text the schema itself: Avro JSON, {@code .proto} source, or a JSON Schema document
 * @param references what the text imports, by the name it uses for them
 */
public record SchemaText(String type, String text, List<Reference> references) {

  public static final String AVRO = "AVRO";
  public static final String PROTOBUF = "PROTOBUF";
  public static final String JSON = "JSON";

  public SchemaText {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(text, "text");
    references = List.copyOf(references);
  }

  /** A schema that references no other. */
  public static SchemaText of(final String type, final String text) {
    return new SchemaText(type, text, List.of());
  }

  /**
   * One imported schema.
   *
   * @param name the name the importing text uses: a {@code .proto} file name ({@code import
   *     "units.proto";}) or a JSON Schema {@code $ref} URL
   * @param subject the subject it is registered under
   * @param version its version there
   */
  public record Reference(String name, String subject, int version) {
    public Reference {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(subject, "subject");
    }
  }
}
