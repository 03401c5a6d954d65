package io.bucketer.state;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.util.Map;

/**
 * The marker file's contents ({@link LocalStateGuard#MARKER_FILE}), indented JSON an operator can
 * read:
 *
 * <pre>
 * {
 *   "format" : 1,
 *   "cluster_id" : "q1Sh-9_ISia_zwGINzRvyQ",
 *   "topic_ids" : { "iot.readings" : "AAAAAAAAAAAAAAAAAAAAAQ", ... }
 * }
 * </pre>
 *
 * <p>{@code format} is the layout's version, {@value #FORMAT} now. Markers of builds before it lack
 * it and are format 1. A marker in a later format (a newer build was rolled back) cannot be read:
 * the guard then treats it as missing and wipes the state, the safe side, at the cost of a restore.
 */
final class StateOwnerMarker {

  static final int FORMAT = 1;

  private static final ObjectMapper JSON =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  /** The stored form; {@code format} null in a marker from a build before formats. */
  @JsonPropertyOrder({"format", "cluster_id", "topic_ids"})
  private record Stored(
      @JsonProperty("format") Integer format,
      @JsonProperty("cluster_id") String clusterId,
      @JsonProperty("topic_ids") Map<String, String> topicIds) {}

  private StateOwnerMarker() {}

  static byte[] write(final StateOwner owner) throws IOException {
    return JSON.writeValueAsBytes(new Stored(FORMAT, owner.clusterId(), owner.topicIds()));
  }

  /**
   * @throws com.fasterxml.jackson.core.JacksonException when the bytes are no marker of a format
   *     this build reads
   */
  static StateOwner read(final byte[] json) throws IOException {
    final Stored stored = JSON.readValue(json, Stored.class);
    if (stored.format() != null && stored.format() != FORMAT) {
      throw new JsonMappingException(
          null, "a marker in format " + stored.format() + ", which this build does not read");
    }
    if (stored.clusterId() == null || stored.topicIds() == null) {
      throw new JsonMappingException(null, "a marker without a cluster id or topic ids");
    }
    return new StateOwner(stored.clusterId(), stored.topicIds());
  }
}
