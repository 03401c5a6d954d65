package io.bucketer.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.bucketer.avro.Reading;
import io.bucketer.buckets.BucketLayout;
import io.bucketer.buckets.BucketStats;
import io.bucketer.buckets.ClosedBucket;
import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.Measurement;
import io.bucketer.buckets.WindowSummary;
import io.bucketer.ingest.ReadingDecoder;
import io.bucketer.metrics.BucketerMetrics;
import io.bucketer.simulate.ReadingGenerator;
import io.bucketer.testing.ExpectedBuckets;
import io.bucketer.topics.BucketerTopics;
import io.bucketer.windows.DuplicateTimestamps;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Collectors;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Any list of granularities works: nested ones are rolled up, one that nothing finer divides (7m)
 * is fed by readings, and every bucket of every size equals an independent computation.
 */
class AnyGranularitiesTest {

  @TempDir Path stateDir;

  @ParameterizedTest
  @ValueSource(strings = {"1s,1m", "7m,1h", "30s,5m,1h,1d", "1m,1h"})
  void shouldBucketEveryGranularityAsTheIndependentComputationSays(final String list) {
    final List<Granularity> granularities = Granularity.parseList(list);
    final List<Reading> readings = new ArrayList<>();
    new ReadingGenerator(
            new ReadingGenerator.Options(
                4,
                Instant.parse("2025-06-01T22:50:00Z"),
                Duration.ofMillis(700),
                Duration.ofMillis(100),
                0.1,
                4,
                20_000,
                3))
        .forEachRemaining(readings::add);

    final List<ClosedBucket> closed = run(granularities, readings);

    for (final Granularity granularity : granularities) {
      final Map<String, ExpectedBuckets.Expected> expected =
          ExpectedBuckets.compute(readings, granularity.sizeMillis());
      final Map<String, List<ClosedBucket>> actual =
          closed.stream()
              .filter(b -> b.granularity().equals(granularity))
              .collect(
                  Collectors.groupingBy(
                      b ->
                          ExpectedBuckets.key(
                              b.series().sensorId(), b.series().metric(), b.windowStart())));
      assertThat(actual.keySet()).as(granularity.label()).isEqualTo(expected.keySet());
      expected.forEach(
          (key, bucket) -> {
            final List<ClosedBucket> parts = actual.get(key);
            assertThat(parts).extracting(ClosedBucket::seq).doesNotHaveDuplicates();
            final ClosedBucket first = parts.get(0);
            assertThat(first.window().count()).isEqualTo(bucket.count());
            assertThat(first.window().sum()).isCloseTo(bucket.sum(), within(1e-6));
            assertThat(first.window().min()).isEqualTo(bucket.min());
            assertThat(first.window().max()).isEqualTo(bucket.max());
            final List<ClosedBucket> inOrder =
                parts.stream().sorted(Comparator.comparingInt(ClosedBucket::seq)).toList();
            if (first.summaries().isEmpty()) {
              assertThat(
                      inOrder.stream()
                          .flatMap(b -> b.measurements().stream())
                          .map(Measurement::timestamp)
                          .toList())
                  .isEqualTo(bucket.timestamps());
            } else {
              assertSummariesOfFinerWindows(readings, bucket, inOrder);
            }
          });
    }
  }

  /** The summaries are those of the finer windows with readings, as computed independently. */
  private static void assertSummariesOfFinerWindows(
      final List<Reading> readings,
      final ExpectedBuckets.Expected bucket,
      final List<ClosedBucket> parts) {
    final List<WindowSummary> summaries =
        parts.stream().flatMap(b -> b.summaries().stream()).toList();
    final Granularity finer = summaries.get(0).granularity();
    final List<ExpectedBuckets.Expected> expected =
        ExpectedBuckets.within(readings, finer.sizeMillis(), bucket);
    assertThat(summaries)
        .extracting(WindowSummary::start)
        .containsExactlyElementsOf(
            expected.stream().map(ExpectedBuckets.Expected::windowStart).toList());
    for (int i = 0; i < summaries.size(); i++) {
      final BucketStats stats = summaries.get(i).stats();
      assertThat(stats.count()).isEqualTo(expected.get(i).count());
      assertThat(stats.sum()).isCloseTo(expected.get(i).sum(), within(1e-6));
      assertThat(stats.first().timestamp()).isEqualTo(expected.get(i).firstTimestamp());
      assertThat(stats.last().value()).isEqualTo(expected.get(i).lastValue());
    }
  }

  private List<ClosedBucket> run(final List<Granularity> granularities, final List<Reading> in) {
    final BucketTopology.Settings settings =
        new BucketTopology.Settings(
            "iot.readings",
            "iot.buckets",
            "iot.readings.dlq",
            granularities,
            Duration.ofSeconds(5),
            Duration.ofSeconds(30),
            new InputPartitioning.BySeries(2),
            Duration.ofHours(24),
            BucketLayout.finestKeepsMeasurements(1000),
            BucketTopologyTest.CHECKS,
            BucketTopologyTest.WINDOW_CACHE_BYTES,
            DuplicateTimestamps.KEEP_LAST);
    final Properties properties = new Properties();
    properties.put(StreamsConfig.APPLICATION_ID_CONFIG, "any-granularities");
    properties.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
    properties.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
    try (TopologyTestDriver driver =
        new TopologyTestDriver(
            BucketTopology.build(
                settings,
                () -> new ReadingDecoder(id -> Reading.getClassSchema()),
                new BucketerMetrics(new SimpleMeterRegistry())),
            properties)) {
      final TestInputTopic<byte[], byte[]> input =
          TopologyTopics.input(driver, BucketerTopics.input(settings.inputTopic()));
      final TestOutputTopic<String, ClosedBucket> output =
          TopologyTopics.output(driver, BucketerTopics.closedBuckets(settings.bucketsTopic()));
      in.forEach(reading -> input.pipeInput(null, BucketTopologyTest.frame(reading)));
      // The readings are from 2025: once the series are idle, the wall clock closes the rest.
      driver.advanceWallClockTime(Duration.ofSeconds(31));
      return output.readValuesToList();
    }
  }
}
