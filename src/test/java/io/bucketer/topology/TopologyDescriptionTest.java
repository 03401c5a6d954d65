package io.bucketer.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.bucketer.avro.Reading;
import io.bucketer.ingest.ReadingDecoder;
import io.bucketer.ingest.sparkplug.SparkplugSettings;
import io.bucketer.ingest.sparkplug.SparkplugTopicSource;
import io.bucketer.metrics.BucketerMetrics;
import io.bucketer.windows.DuplicateTimestamps;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.kafka.streams.TopologyDescription;
import org.junit.jupiter.api.Test;

/**
 * Renaming a node or store of a deployed topology strands its state and internal topics, so the
 * topology's description is compared with a reviewed file, one per input partitioning. After a
 * deliberate change, copy target/actual-&lt;name&gt;.txt, which the test writes, over
 * src/test/resources/expected-&lt;name&gt;.txt.
 */
class TopologyDescriptionTest {

  @Test
  void shouldMatchTheReviewedTopology() throws IOException {
    assertDescribes(BucketTopologyTest.SETTINGS, "topology");
  }

  @Test
  void shouldMatchTheReviewedTopologyOfInputKeyedBySensor() throws IOException {
    assertDescribes(partitioned(new InputPartitioning.BySensorKey(4)), "topology-by-sensor");
  }

  @Test
  void shouldMatchTheReviewedTopologyOfSparkplugInput() throws IOException {
    assertDescribes(sparkplug(), "topology-sparkplug");
  }

  private static BucketTopology.Settings sparkplug() {
    return BucketTopologyTest.SETTINGS.withSparkplug(
        new SparkplugSettings(new SparkplugTopicSource.Key(), false));
  }

  /** The tests' settings with another input partitioning. */
  static BucketTopology.Settings partitioned(final InputPartitioning partitioning) {
    final BucketTopology.Settings base = BucketTopologyTest.SETTINGS;
    return new BucketTopology.Settings(
        base.inputTopic(),
        base.bucketsTopic(),
        base.deadLetterTopic(),
        base.granularities(),
        base.grace(),
        base.idleTimeout(),
        partitioning,
        base.latenessHorizon(),
        base.layout(),
        base.readingChecks(),
        base.windowCacheBytes(),
        DuplicateTimestamps.KEEP_LAST);
  }

  /**
   * Task idling is off ({@code max.task.idle.ms=-1}) because it only orders records across the
   * input partitions of one task: true as long as every subtopology reads one topic.
   */
  @Test
  void shouldReadOneTopicInEverySubtopologySoThatTaskIdlingNeverApplies() {
    for (final BucketTopology.Settings settings :
        List.of(
            partitioned(new InputPartitioning.BySeries(6)),
            partitioned(new InputPartitioning.BySensorKey(4)),
            sparkplug())) {
      final TopologyDescription description =
          BucketTopology.build(
                  settings,
                  () -> new ReadingDecoder(id -> Reading.getClassSchema()),
                  new BucketerMetrics(new SimpleMeterRegistry()))
              .describe();
      for (final TopologyDescription.Subtopology subtopology : description.subtopologies()) {
        final List<String> topics =
            subtopology.nodes().stream()
                .filter(TopologyDescription.Source.class::isInstance)
                .flatMap(node -> ((TopologyDescription.Source) node).topicSet().stream())
                .toList();
        assertThat(topics).as("source topics of subtopology %d", subtopology.id()).hasSize(1);
      }
    }
  }

  private static void assertDescribes(final BucketTopology.Settings settings, final String name)
      throws IOException {
    final String actual =
        BucketTopology.build(
                settings,
                () -> new ReadingDecoder(id -> Reading.getClassSchema()),
                new BucketerMetrics(new SimpleMeterRegistry()))
            .describe()
            .toString();
    // Written for review: after a deliberate change, copy it over the expected file.
    Files.writeString(Path.of("target", "actual-" + name + ".txt"), actual);
    try (InputStream expected =
        TopologyDescriptionTest.class.getResourceAsStream("/expected-" + name + ".txt")) {
      assertThat(expected).as("src/test/resources/expected-" + name + ".txt").isNotNull();
      assertThat(actual.strip())
          .isEqualTo(new String(expected.readAllBytes(), StandardCharsets.UTF_8).strip());
    }
  }
}
