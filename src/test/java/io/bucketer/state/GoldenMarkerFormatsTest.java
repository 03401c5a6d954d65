package io.bucketer.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.JacksonException;
import io.bucketer.testing.GoldenFiles;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Golden files of the state-owner marker ({@link GoldenFiles}, {@link StateOwnerMarker}): format 1,
 * and the marker of builds before it had a format, which is read as format 1. Today's guard must
 * write the format 1 file byte for byte.
 *
 * <p>Missing golden files are written, once, by {@link #shouldWriteTheGoldenFilesThatAreMissing}
 * with {@code -Dbucketer.golden.write=true}; the normal build writes none.
 */
class GoldenMarkerFormatsTest {

  private static final StateOwner OWNER =
      new StateOwner(
          "q1Sh-9_ISia_zwGINzRvyQ",
          Map.of(
              "bucketer-readings-by-series-repartition", "AAAAAAAAAAAAAAAAAAAAAw",
              "iot.readings", "AAAAAAAAAAAAAAAAAAAAAQ"));

  private static Map<String, byte[]> current() throws Exception {
    return Map.of("state-owner-marker-v1.json", StateOwnerMarker.write(OWNER));
  }

  private static Map<String, byte[]> older() {
    final Map<String, byte[]> files = new LinkedHashMap<>();
    files.put(
        "state-owner-marker-unversioned.json",
        """
        {
          "cluster_id" : "q1Sh-9_ISia_zwGINzRvyQ",
          "topic_ids" : {
            "bucketer-readings-by-series-repartition" : "AAAAAAAAAAAAAAAAAAAAAw",
            "iot.readings" : "AAAAAAAAAAAAAAAAAAAAAQ"
          }
        }"""
            .getBytes(StandardCharsets.UTF_8));
    return files;
  }

  @Test
  void shouldWriteExactlyTheGoldenMarker() throws Exception {
    assertThat(new String(StateOwnerMarker.write(OWNER), StandardCharsets.UTF_8))
        .isEqualTo(
            new String(GoldenFiles.read("state-owner-marker-v1.json"), StandardCharsets.UTF_8))
        .startsWith("{\n  \"format\" : 1,\n");
  }

  @Test
  void shouldReadTheGoldenMarkersOfBothLayouts() throws Exception {
    assertThat(StateOwnerMarker.read(GoldenFiles.read("state-owner-marker-v1.json")))
        .isEqualTo(OWNER);
    assertThat(StateOwnerMarker.read(GoldenFiles.read("state-owner-marker-unversioned.json")))
        .isEqualTo(OWNER);
  }

  /** A newer build's marker, after a downgrade: unreadable, so the guard wipes and restores. */
  @Test
  void shouldRefuseAMarkerOfALaterFormat() {
    final byte[] later =
        "{\"format\": 2, \"cluster_id\": \"c\", \"topic_ids\": {}}"
            .getBytes(StandardCharsets.UTF_8);

    assertThatThrownBy(() -> StateOwnerMarker.read(later))
        .isInstanceOf(JacksonException.class)
        .hasMessageContaining("format 2");
  }

  @Test
  @EnabledIfSystemProperty(named = GoldenFiles.WRITE_PROPERTY, matches = "true")
  void shouldWriteTheGoldenFilesThatAreMissing() throws Exception {
    GoldenFiles.writeMissing(current());
    GoldenFiles.writeMissing(older());
  }
}
