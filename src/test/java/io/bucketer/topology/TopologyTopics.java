package io.bucketer.topology;

import io.bucketer.buckets.ClosedBucket;
import io.bucketer.ingest.InputDecoder;
import io.bucketer.metrics.BucketerMetrics;
import io.bucketer.topics.ClosedBucketSerde;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Properties;
import java.util.function.Supplier;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;

/**
 * The topology of {@link BucketTopologyTest#SETTINGS} under {@code TopologyTestDriver}, and its
 * three topics with the serdes the processor uses: one setup for every test that feeds it records.
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
    final Properties properties = new Properties();
    properties.put(StreamsConfig.APPLICATION_ID_CONFIG, "bucketer-test");
    properties.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
    properties.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
    return new TopologyTestDriver(
        BucketTopology.build(BucketTopologyTest.SETTINGS, decoders, metrics), properties, now);
  }

  /** The input, buckets and dead-letter topics of {@code driver}. */
  static TopologyTopics of(final TopologyTestDriver driver) {
    final BucketTopology.Settings settings = BucketTopologyTest.SETTINGS;
    return new TopologyTopics(
        driver.createInputTopic(
            settings.inputTopic(), new ByteArraySerializer(), new ByteArraySerializer()),
        driver.createOutputTopic(
            settings.bucketsTopic(),
            new StringDeserializer(),
            new ClosedBucketSerde().deserializer()),
        driver.createOutputTopic(
            settings.deadLetterTopic(), new ByteArrayDeserializer(), new ByteArrayDeserializer()));
  }
}
