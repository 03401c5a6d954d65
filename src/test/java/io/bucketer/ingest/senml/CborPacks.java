package io.bucketer.ingest.senml;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.cbor.CBORFactory;
import com.fasterxml.jackson.dataformat.cbor.CBORGenerator;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Base64;
import java.util.Iterator;
import java.util.Map;

/**
 * A JSON SenML pack rewritten as CBOR the way RFC 8428 section 6 says: the same records, labels
 * replaced by their integers (its Table 4, written out here rather than taken from the code under
 * test), vd as a byte string. Unknown labels stay text keys, as the RFC's extensions do.
 */
final class CborPacks {

  private static final Map<String, Integer> LABELS =
      Map.ofEntries(
          Map.entry("bver", -1),
          Map.entry("bn", -2),
          Map.entry("bt", -3),
          Map.entry("bu", -4),
          Map.entry("bv", -5),
          Map.entry("bs", -6),
          Map.entry("n", 0),
          Map.entry("u", 1),
          Map.entry("v", 2),
          Map.entry("vs", 3),
          Map.entry("vb", 4),
          Map.entry("s", 5),
          Map.entry("t", 6),
          Map.entry("ut", 7),
          Map.entry("vd", 8));

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final CBORFactory CBOR = new CBORFactory();

  private CborPacks() {}

  static byte[] of(final String jsonPack) {
    final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (CBORGenerator cbor = CBOR.createGenerator(bytes)) {
      final JsonNode pack = JSON.readTree(jsonPack);
      cbor.writeStartArray(pack, pack.size());
      for (final JsonNode record : pack) {
        cbor.writeStartObject(record, record.size());
        for (final Iterator<Map.Entry<String, JsonNode>> fields = record.fields();
            fields.hasNext(); ) {
          final Map.Entry<String, JsonNode> field = fields.next();
          final Integer label = LABELS.get(field.getKey());
          if (label == null) {
            cbor.writeFieldName(field.getKey());
          } else {
            cbor.writeFieldId(label);
          }
          final JsonNode value = field.getValue();
          if ("vd".equals(field.getKey())) {
            cbor.writeBinary(Base64.getUrlDecoder().decode(value.textValue()));
          } else if (value.isTextual()) {
            cbor.writeString(value.textValue());
          } else if (value.isBoolean()) {
            cbor.writeBoolean(value.booleanValue());
          } else if (value.isIntegralNumber()) {
            cbor.writeNumber(value.longValue());
          } else {
            cbor.writeNumber(value.doubleValue());
          }
        }
        cbor.writeEndObject();
      }
      cbor.writeEndArray();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return bytes.toByteArray();
  }
}
