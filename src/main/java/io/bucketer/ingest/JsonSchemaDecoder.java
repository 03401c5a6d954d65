package io.bucketer.ingest;

import com.fasterxml.jackson.databind.JsonNode;
import io.bucketer.avro.Reading;
import io.bucketer.ingest.ConfluentWireFormat.Frame;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Decodes Confluent-framed JSON (input.format=json-schema): the 5-byte header of magic byte 0 and
 * schema id, then one UTF-8 JSON object, read exactly as input.format=json reads one ({@link
 * JsonReadingDecoder}: the same mapping, times, numbers and reasons). With a validator, the body
 * must also satisfy the JSON schema registered under the frame's id ({@code schema-violation});
 * without one, the id is not looked up at all: the registry is not asked.
 *
 * <p>Safe for concurrent use.
 */
public final class JsonSchemaDecoder implements InputDecoder {

  private final JsonReadingDecoder json;
  private final Optional<JsonSchemaValidator> validator;

  public JsonSchemaDecoder(
      final ReadingMapping mapping, final Optional<JsonSchemaValidator> validator) {
    this.json = new JsonReadingDecoder(mapping);
    this.validator = Objects.requireNonNull(validator, "validator");
  }

  @Override
  public List<Reading> readings(final InputRecord record) throws InvalidReadingException {
    final Frame frame = ConfluentWireFormat.parse(record.value());
    final JsonNode body =
        JsonReadingDecoder.parse(frame.data(), frame.bodyOffset(), frame.bodyLength());
    if (validator.isPresent()) {
      validator.get().validate(frame.schemaId(), body);
    }
    return json.readings(record, body);
  }
}
