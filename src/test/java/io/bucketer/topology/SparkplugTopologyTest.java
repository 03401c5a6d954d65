package io.bucketer.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import io.bucketer.buckets.ClosedBucket;
import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.Measurement;
import io.bucketer.ingest.InputDecoder;
import io.bucketer.ingest.sparkplug.SparkplugBirth;
import io.bucketer.ingest.sparkplug.SparkplugDataType;
import io.bucketer.ingest.sparkplug.SparkplugMessages;
import io.bucketer.ingest.sparkplug.SparkplugMessages.EdgeNode;
import io.bucketer.ingest.sparkplug.SparkplugMessages.Message;
import io.bucketer.ingest.sparkplug.SparkplugSettings;
import io.bucketer.ingest.sparkplug.SparkplugTopicSource;
import io.bucketer.metrics.BucketerMetrics;
import io.bucketer.topics.BucketerTopics;
import io.bucketer.topics.DeadLetterHeaders;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Sparkplug B input through the whole topology in memory: births and data of one edge node and its
 * devices, as an MQTT bridge writes them with the topic as the key (or in a header), to closed
 * buckets and dead letters.
 */
class SparkplugTopologyTest {

  private static final String APPLICATION_ID = "bucketer-sparkplug-test";
  private static final Granularity MINUTE = Granularity.parse("1m");
  private static final long TEN = Instant.parse("2025-06-01T10:00:00Z").toEpochMilli();

  /** A temperature and an rpm: the edge nodes' metrics, in birth order. */
  static final List<SparkplugMessages.Metric> METRICS =
      List.of(
          new SparkplugMessages.Metric("temperature", SparkplugDataType.DOUBLE),
          new SparkplugMessages.Metric("rpm", SparkplugDataType.UINT32));

  private static final InputDecoder NO_DECODER =
      record -> {
        throw new AssertionError("Sparkplug B input asks no decoder");
      };

  @TempDir Path stateDir;

  private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
  private final BucketerMetrics metrics = new BucketerMetrics(meters);
  private final EdgeNode press = new EdgeNode("plant", "press", METRICS);

  private TopologyTestDriver driver;
  private TestInputTopic<byte[], byte[]> input;
  private TestOutputTopic<String, ClosedBucket> buckets;
  private TestOutputTopic<byte[], byte[]> deadLetters;

  @AfterEach
  void closeDriver() {
    if (driver != null) {
      driver.close();
    }
  }

  @Test
  void shouldReadAnEdgeNodesDataThroughItsBirthIntoBucketsNamedByTheMetrics() {
    start(stateDir, new SparkplugTopicSource.Key());

    send(press.nbirth(TEN, 20.0, 0));
    send(press.ndata(TEN + 5_000, 21.5, 1500));
    send(press.ndata(TEN + 30_000, 22.5, 1510));
    send(press.ndata(TEN + 70_000, 23.0, 1520)); // close [10:00, 10:01)

    assertThat(minutes())
        .extracting(
            b -> b.series().sensorId(), b -> b.series().metric(), ClosedBucket::measurements)
        .containsExactlyInAnyOrder(
            tuple(
                "plant/press",
                "temperature",
                List.of(new Measurement(TEN + 5_000, 21.5), new Measurement(TEN + 30_000, 22.5))),
            tuple(
                "plant/press",
                "rpm",
                List.of(
                    new Measurement(TEN + 5_000, 1500.0), new Measurement(TEN + 30_000, 1510.0))));
    assertThat(deadLetters.isEmpty()).isTrue();
    assertThat(count(BucketerMetrics.SPARKPLUG_MESSAGES, "type", "NDATA")).isEqualTo(3);
    assertThat(count(BucketerMetrics.SPARKPLUG_MESSAGES, "type", "NBIRTH")).isEqualTo(1);
  }

  @Test
  void shouldReadADevicesDataThroughTheDevicesOwnBirthAsTheDevicesSensor() {
    start(stateDir, new SparkplugTopicSource.Key());

    send(press.nbirth(TEN, 20.0, 0));
    send(press.dbirth("motor", TEN, 40.0, 900));
    send(press.ddata("motor", TEN + 5_000, 41.0, 950));
    send(press.ddata("motor", TEN + 70_000, 42.0, 960)); // close [10:00, 10:01)

    assertThat(minutes())
        .extracting(b -> b.series().sensorId(), b -> b.series().metric(), b -> b.stats().sum())
        .containsExactlyInAnyOrder(
            tuple("plant/press/motor", "temperature", 41.0),
            tuple("plant/press/motor", "rpm", 950.0));
  }

  @Test
  void shouldDeadLetterDataBeforeItsBirthAsUnknownAliasAndTakeItWhenReplayedAfterTheBirth() {
    start(stateDir, new SparkplugTopicSource.Key());
    final Message birth = press.nbirth(TEN, 20.0, 0);
    final Message early = press.ndata(TEN + 5_000, 21.5, 1500);

    send(early);

    final TestRecord<byte[], byte[]> dead = deadLetters.readRecord();
    assertThat(header(dead, DeadLetterHeaders.REASON)).isEqualTo("unknown-alias");
    assertThat(header(dead, DeadLetterHeaders.SOURCE_TOPIC))
        .as("the input record's place, not the repartition's")
        .isEqualTo(BucketTopologyTest.SETTINGS.inputTopic());
    assertThat(dead.key()).isEqualTo(early.topic().getBytes(StandardCharsets.UTF_8));
    assertThat(dead.value()).isEqualTo(early.payload());

    send(birth);
    input.pipeInput(dead.key(), dead.value(), TEN + 5_000); // the replay
    send(press.ndata(TEN + 70_000, 23.0, 1520)); // close [10:00, 10:01)

    assertThat(minutes()).extracting(b -> b.stats().sum()).containsExactlyInAnyOrder(21.5, 1500.0);
    assertThat(deadLetters.isEmpty()).isTrue();
  }

  @Test
  void shouldReadDataAfterARebirthWithTheNewAliasesAndForgetTheDevicesBirths() {
    start(stateDir, new SparkplugTopicSource.Key());
    send(press.nbirth(TEN, 20.0, 0));
    send(press.dbirth("motor", TEN, 40.0, 900));
    // The node restarts and binds the aliases the other way round.
    final EdgeNode reborn = new EdgeNode("plant", "press", List.of(METRICS.get(1), METRICS.get(0)));

    send(reborn.nbirth(TEN + 1_000, 0, 20.0));
    send(reborn.ndata(TEN + 5_000, 1500, 21.5));
    send(press.ddata("motor", TEN + 6_000, 41.0, 950)); // the device has not been born again
    send(reborn.ndata(TEN + 70_000, 1520, 23.0)); // close [10:00, 10:01)

    assertThat(minutes())
        .extracting(b -> b.series().metric(), b -> b.stats().sum())
        .containsExactlyInAnyOrder(tuple("temperature", 21.5), tuple("rpm", 1500.0));
    final TestRecord<byte[], byte[]> dead = deadLetters.readRecord();
    assertThat(header(dead, DeadLetterHeaders.REASON)).isEqualTo("unknown-alias");
    assertThat(new String(dead.key(), StandardCharsets.UTF_8))
        .isEqualTo("spBv1.0/plant/DDATA/press/motor");
  }

  /**
   * A bridge that keys by topic puts the node's NBIRTH and its device's DBIRTH on different
   * partitions, so the DBIRTH can come first: sent with the NBIRTH or after it, it belongs to the
   * node's new session and is kept.
   */
  @Test
  void shouldKeepADevicesBirthOfTheNewSessionThatArrivedBeforeItsNodesBirth() {
    start(stateDir, new SparkplugTopicSource.Key());
    final Message nodeBirth = press.nbirth(TEN, 20.0, 0);
    final Message deviceBirth = press.dbirth("motor", TEN, 40.0, 900);

    send(deviceBirth);
    send(nodeBirth);
    send(press.ddata("motor", TEN + 5_000, 41.0, 950));
    send(press.ddata("motor", TEN + 70_000, 42.0, 960)); // close [10:00, 10:01)

    assertThat(deadLetters.isEmpty()).isTrue();
    assertThat(minutes()).extracting(b -> b.stats().sum()).containsExactlyInAnyOrder(41.0, 950.0);
  }

  /**
   * What a restart on an empty disk or a new owner of the task finds is what the changelog holds:
   * the births are read back from it into an empty store of another state directory, as a restore
   * would, and data is read through them. (TopologyTestDriver wipes its state directory when it
   * closes, so reopening one on the same directory would prove nothing.)
   */
  @Test
  void shouldRebuildTheBirthsFromTheStoresChangelog(@TempDir final Path otherStateDir) {
    start(stateDir, new SparkplugTopicSource.Key());
    send(press.nbirth(TEN, 20.0, 0));
    send(press.dbirth("motor", TEN, 40.0, 900));
    final List<TestRecord<String, byte[]>> changelog =
        driver
            .createOutputTopic(
                APPLICATION_ID + "-" + TopologyNames.SPARKPLUG_BIRTH_STORE + "-changelog",
                new StringDeserializer(),
                (topic, bytes) -> bytes)
            .readRecordsToList();
    assertThat(changelog)
        .extracting(TestRecord::key)
        .containsExactly("plant/press", "plant/press/motor");
    driver.close();

    start(otherStateDir, new SparkplugTopicSource.Key());
    final KeyValueStore<String, SparkplugBirth> store =
        driver.getKeyValueStore(TopologyNames.SPARKPLUG_BIRTH_STORE);
    assertThat(store.approximateNumEntries()).isZero();
    final SparkplugBirthSerde serde = new SparkplugBirthSerde();
    // As a restore applies a changelog: a record without a value deletes its key.
    changelog.forEach(
        entry -> {
          if (entry.value() == null) {
            store.delete(entry.key());
          } else {
            store.put(entry.key(), serde.deserializer().deserialize("", entry.value()));
          }
        });
    send(press.ndata(TEN + 5_000, 21.5, 1500));
    send(press.ddata("motor", TEN + 5_000, 41.0, 950));
    send(press.ndata(TEN + 70_000, 23.0, 1520));
    send(press.ddata("motor", TEN + 70_000, 42.0, 960));

    assertThat(minutes())
        .extracting(b -> b.series().sensorId(), b -> b.series().metric(), b -> b.stats().sum())
        .containsExactlyInAnyOrder(
            tuple("plant/press", "temperature", 21.5),
            tuple("plant/press", "rpm", 1500.0),
            tuple("plant/press/motor", "temperature", 41.0),
            tuple("plant/press/motor", "rpm", 950.0));
    assertThat(deadLetters.isEmpty()).isTrue();
  }

  /**
   * A bridge that keys by topic gives an edge node's births and data different keys, so Kafka's
   * partitioner spreads them over partitions: they meet because the topology keys them again by
   * edge node before the repartition that brings them to the task holding the births.
   */
  @Test
  void shouldKeyBirthsAndDataByTheirEdgeNodeWhateverTheirInputKeys() {
    start(stateDir, new SparkplugTopicSource.Key());

    send(press.nbirth(TEN, 20.0, 0));
    send(press.dbirth("motor", TEN, 40.0, 900));
    send(press.ndata(TEN + 5_000, 21.5, 1500));
    send(press.ddata("motor", TEN + 5_000, 41.0, 950));

    final TestOutputTopic<String, byte[]> byEdgeNode =
        driver.createOutputTopic(
            APPLICATION_ID + "-" + TopologyNames.SPARKPLUG_BY_EDGE_NODE + "-repartition",
            new StringDeserializer(),
            (topic, bytes) -> bytes);
    assertThat(byEdgeNode.readKeyValuesToList().stream().map(entry -> entry.key))
        .containsExactly("plant/press", "plant/press", "plant/press", "plant/press");
  }

  @Test
  void shouldReadTheTopicFromAHeaderWhenToldAndDeadLetterARecordWithoutIt() {
    start(stateDir, new SparkplugTopicSource.Header("mqtt_topic"));

    for (final Message message :
        List.of(
            press.nbirth(TEN, 20.0, 0),
            press.ndata(TEN + 5_000, 21.5, 1500),
            press.ndata(TEN + 70_000, 23.0, 1520))) {
      final RecordHeaders headers = new RecordHeaders();
      headers.add("mqtt_topic", message.topic().getBytes(StandardCharsets.UTF_8));
      input.pipeInput(
          new TestRecord<>(
              "any key".getBytes(StandardCharsets.UTF_8), message.payload(), headers, TEN));
    }
    send(press.ndata(TEN + 80_000, 23.0, 1520)); // its topic in the key, not in the header

    assertThat(minutes()).extracting(b -> b.stats().sum()).containsExactlyInAnyOrder(21.5, 1500.0);
    assertThat(header(deadLetters.readRecord(), DeadLetterHeaders.REASON))
        .isEqualTo("sparkplug-no-topic");
  }

  @Test
  void shouldDeadLetterWhatIsNoSparkplugMessageNamingTheRule() {
    start(stateDir, new SparkplugTopicSource.Key());

    send(new Message("spBv1.0/plant/NDATA", press.nbirth(TEN, 20.0, 0).payload()));
    send(new Message("spBv1.0/plant/NRECORD/press", press.nbirth(TEN, 20.0, 0).payload()));
    send(new Message("spBv1.0/plant/NDATA/press", new byte[] {(byte) 0xff, 0x01}));
    send(
        new Message(
            "spBv1.0/plant/NBIRTH/press",
            SparkplugMessages.payload().metric(m -> m.alias(1).doubleValue(1)).toByteArray()));

    final List<TestRecord<byte[], byte[]>> dead = deadLetters.readRecordsToList();
    assertThat(dead)
        .extracting(letter -> header(letter, DeadLetterHeaders.REASON))
        .containsExactly(
            "sparkplug-bad-topic",
            "sparkplug-unknown-message-type",
            "sparkplug-malformed-payload",
            "sparkplug-bad-birth");
    // Stamped when set aside (the driver's wall clock), the input's time in a header.
    assertThat(dead)
        .allSatisfy(
            letter -> {
              assertThat(letter.timestamp()).isNotEqualTo(TEN);
              assertThat(header(letter, DeadLetterHeaders.SOURCE_TIMESTAMP))
                  .isEqualTo(Long.toString(TEN));
            });
  }

  @Test
  void shouldForgetANodesBirthWhenItsNextBirthCannotBeRead() {
    start(stateDir, new SparkplugTopicSource.Key());
    send(press.nbirth(TEN, 20.0, 0));

    send(new Message("spBv1.0/plant/NBIRTH/press", new byte[] {(byte) 0xff, 0x01}));
    send(press.ndata(TEN + 5_000, 21.5, 1500));

    assertThat(deadLetters.readRecordsToList())
        .extracting(dead -> header(dead, DeadLetterHeaders.REASON))
        .containsExactly("sparkplug-malformed-payload", "unknown-alias");
  }

  @Test
  void shouldCountDeathsAndHostMessagesAndLetThemGoNoFurther() {
    start(stateDir, new SparkplugTopicSource.Key());

    send(press.ndeath());
    send(new Message("spBv1.0/plant/NCMD/press", SparkplugMessages.payload().toByteArray()));
    send(new Message("spBv1.0/STATE/scada", "{\"online\":true}".getBytes(StandardCharsets.UTF_8)));

    assertThat(deadLetters.isEmpty()).isTrue();
    assertThat(count(BucketerMetrics.SPARKPLUG_MESSAGES, "type", "NDEATH")).isEqualTo(1);
    assertThat(count(BucketerMetrics.SPARKPLUG_MESSAGES, "type", "NCMD")).isEqualTo(1);
    assertThat(count(BucketerMetrics.SPARKPLUG_MESSAGES, "type", "STATE")).isEqualTo(1);
  }

  @Test
  void shouldCountAGapInTheEdgeNodesSequenceNumbers() {
    start(stateDir, new SparkplugTopicSource.Key());
    send(press.nbirth(TEN, 20.0, 0)); // seq 0
    send(press.ndata(TEN + 1_000, 21.0, 1500)); // seq 1
    press.ndata(TEN + 2_000, 21.0, 1500); // seq 2, lost upstream
    send(press.ndata(TEN + 3_000, 21.0, 1500)); // seq 3

    assertThat(count(BucketerMetrics.SPARKPLUG_SEQ_GAPS, "edge_node", "plant/press")).isEqualTo(1);
  }

  @Test
  void shouldSkipBooleansAndCountThemUnlessTakenAsNumbers() {
    final EdgeNode valve =
        new EdgeNode(
            "plant",
            "valve",
            List.of(new SparkplugMessages.Metric("open", SparkplugDataType.BOOLEAN)));
    start(stateDir, new SparkplugTopicSource.Key());

    send(valve.nbirth(TEN, 0));
    send(valve.ndata(TEN + 5_000, 1));

    assertThat(deadLetters.isEmpty()).isTrue();
    assertThat(count(BucketerMetrics.SPARKPLUG_METRICS_SKIPPED, "reason", "boolean")).isEqualTo(1);
  }

  private void start(final Path dir, final SparkplugTopicSource topicSource) {
    final Properties properties = new Properties();
    properties.put(StreamsConfig.APPLICATION_ID_CONFIG, APPLICATION_ID);
    properties.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
    properties.put(StreamsConfig.STATE_DIR_CONFIG, dir.toString());
    final BucketTopology.Settings settings =
        BucketTopologyTest.SETTINGS.withSparkplug(new SparkplugSettings(topicSource, false));
    driver =
        new TopologyTestDriver(
            BucketTopology.build(settings, () -> NO_DECODER, metrics), properties, Instant.now());
    input = TopologyTopics.input(driver, BucketerTopics.input(settings.inputTopic()));
    buckets = TopologyTopics.output(driver, BucketerTopics.closedBuckets(settings.bucketsTopic()));
    deadLetters =
        TopologyTopics.output(driver, BucketerTopics.deadLetters(settings.deadLetterTopic()));
  }

  private void send(final Message message) {
    input.pipeInput(message.topic().getBytes(StandardCharsets.UTF_8), message.payload(), TEN);
  }

  private List<ClosedBucket> minutes() {
    return buckets.readValuesToList().stream()
        .filter(bucket -> bucket.granularity().equals(MINUTE))
        .toList();
  }

  private double count(final String name, final String tag, final String value) {
    final Counter counter = meters.find(name).tag(tag, value).counter();
    return counter == null ? 0 : counter.count();
  }

  private static String header(final TestRecord<byte[], byte[]> record, final String name) {
    final Header header = record.headers().lastHeader(name);
    return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
  }
}
