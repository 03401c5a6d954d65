package io.bucketer.ingest.formats;

import com.google.protobuf.Descriptors.Descriptor;
import io.bucketer.ingest.senml.SenmlOptions;
import java.util.Objects;
import java.util.Optional;

/**
 * What some input formats take besides the reading mapping.
 *
 * @param protobufMessage input.format=protobuf without a registry: the message type every record
 *     value is, from a descriptor set; empty: registry-framed Protobuf
 * @param validateJsonSchema input.format=json-schema: whether bodies are checked against their
 *     registered JSON schema
 * @param senml input.format=senml: its encoding, metric and how skipped values are counted
 */
public record FormatOptions(
    Optional<Descriptor> protobufMessage, boolean validateJsonSchema, SenmlOptions senml) {

  /** Registry-framed Protobuf, JSON Schema bodies not validated, SenML's defaults. */
  public static final FormatOptions NONE =
      new FormatOptions(Optional.empty(), false, SenmlOptions.DEFAULT);

  public FormatOptions {
    Objects.requireNonNull(protobufMessage, "protobufMessage");
    Objects.requireNonNull(senml, "senml");
  }

  /** These options with SenML's replaced. */
  public FormatOptions withSenml(final SenmlOptions options) {
    return new FormatOptions(protobufMessage, validateJsonSchema, options);
  }
}
