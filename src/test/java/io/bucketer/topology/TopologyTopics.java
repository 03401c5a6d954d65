package io.bucketer.topology;

import io.bucketer.buckets.ClosedBucket;
import io.bucketer.ingest.InputDecoder;
import io.bucketer.metrics.BucketerMetrics;
import io.bucketer.topics.BucketerTopics;
import io.bucketer.topics.TypedTopic;
import io.bucketer.windows.PublishedWindows;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Properties;
import java.util.function.Supplier;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.test.TestRecord;

/**
 * The topology of {@link BucketTopologyTest#SETTINGS} under {@code TopologyTestDriver}, and its
 * three topics with the serdes the processor uses ({@link BucketerTopics}): one setup for every
 * test that feeds it records.
 */
record TopologyTopics(
    TestInputTopic<byte[], byte[]> input,
    TestOutputTopic<String, ClosedBucket> buckets,
    TestOutputTopic<byte[], byte[]> deadLetters) {

  /** A driver of the topology built with {@code decoders}, its wall clock at {@code now}. */
  static TopologyTestDriver driver(
      final Path stateDir,
      final Supplier<? extends InputDecoder> decoders,
      final BucketerMetrics metrics,
      final Instant now) {
    return driver(stateDir, decoders, metrics, now, BucketTopologyTest.SETTINGS);
  }

  /**
   * A driver of the topology of {@code settings}, whose topics are those of the tests' settings.
   */
  static TopologyTestDriver driver(
      final Path stateDir,
      final Supplier<? extends InputDecoder> decoders,
      final BucketerMetrics metrics,
      final Instant now,
      final BucketTopology.Settings settings) {
    return driver(stateDir, decoders, metrics, now, settings, new PublishedWindows.Directory());
  }

  /** As above, the aggregator's windows in memory published in {@code publishedWindows}. */
  static TopologyTestDriver driver(
      final Path stateDir,
      final Supplier<? extends InputDecoder> decoders,
      final BucketerMetrics metrics,
      final Instant now,
      final BucketTopology.Settings settings,
      final PublishedWindows.Directory publishedWindows) {
    final Properties properties = new Properties();
    properties.put(StreamsConfig.APPLICATION_ID_CONFIG, "bucketer-test");
    properties.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
    properties.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
    return new TopologyTestDriver(
        BucketTopology.build(settings, decoders, metrics, publishedWindows), properties, now);
  }

  /** The input, buckets and dead-letter topics of {@code driver}. */
  static TopologyTopics of(final TopologyTestDriver driver) {
    final BucketTopology.Settings settings = BucketTopologyTest.SETTINGS;
    return new TopologyTopics(
        input(driver, BucketerTopics.input(settings.inputTopic())),
        output(driver, BucketerTopics.closedBuckets(settings.bucketsTopic())),
        output(driver, BucketerTopics.deadLetters(settings.deadLetterTopic())));
  }

  /** {@code topic} as an input of {@code driver}, written with the topic's own serializers. */
  static <K, V> TestInputTopic<K, V> input(
      final TopologyTestDriver driver, final TypedTopic<K, V> topic) {
    return driver.createInputTopic(topic.name(), topic.keySerializer(), topic.valueSerializer());
  }

  /** {@code topic} as an output of {@code driver}, read with the topic's own deserializers. */
  static <K, V> TestOutputTopic<K, V> output(
      final TopologyTestDriver driver, final TypedTopic<K, V> topic) {
    return driver.createOutputTopic(
        topic.name(), topic.keyDeserializer(), topic.valueDeserializer());
  }

  /** The value of {@code record}'s last header named {@code name}, as text; null without one. */
  static String header(final TestRecord<?, ?> record, final String name) {
    final Header header = record.headers().lastHeader(name);
    return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
  }
}
