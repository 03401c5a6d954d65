package io.bucketer.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.bucketer.avro.Reading;
import io.bucketer.ingest.ReadingDecoder;
import io.bucketer.metrics.BucketerMetrics;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * Renaming a node or store of a deployed topology strands its state and internal topics, so the
 * topology's description is compared with a reviewed file. After a deliberate change, copy
 * target/actual-topology.txt, which the test writes, over src/test/resources/expected-topology.txt.
 */
class TopologyDescriptionTest {

  @Test
  void shouldMatchTheReviewedTopology() throws IOException {
    final String actual =
        BucketTopology.build(
                BucketTopologyTest.SETTINGS,
                () -> new ReadingDecoder(id -> Reading.getClassSchema()),
                BucketerMetrics.unregistered())
            .describe()
            .toString();
    // Written for review: after a deliberate change, copy it over the expected file.
    Files.writeString(Path.of("target", "actual-topology.txt"), actual);
    try (InputStream expected = getClass().getResourceAsStream("/expected-topology.txt")) {
      assertThat(expected).as("src/test/resources/expected-topology.txt").isNotNull();
      assertThat(actual.strip())
          .isEqualTo(new String(expected.readAllBytes(), StandardCharsets.UTF_8).strip());
    }
  }
}
