package io.bucketer.simulate;

import static org.assertj.core.api.Assertions.assertThat;

import io.bucketer.avro.Reading;
import io.bucketer.config.BucketerConfig;
import io.bucketer.ingest.sparkplug.SparkplugBirth;
import io.bucketer.ingest.sparkplug.SparkplugMessages.Message;
import io.bucketer.ingest.sparkplug.SparkplugPayload;
import io.bucketer.ingest.sparkplug.SparkplugPayloads;
import io.bucketer.ingest.sparkplug.SparkplugReadings;
import io.bucketer.ingest.sparkplug.SparkplugSequence;
import io.bucketer.ingest.sparkplug.SparkplugTopic;
import io.bucketer.ingest.sparkplug.SparkplugTopicSource;
import io.bucketer.testing.GeneratedReadings;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The fleet's messages read back as bucketer reads them (births kept by node and device, DATA
 * through them), without Kafka: every simulated reading comes back, as {@link
 * SparkplugFleet#asRead} says, and each edge node's sequence numbers run without a gap, across the
 * wrap from 255 to 0.
 */
class SparkplugFleetTest {

  @Test
  void shouldCarryEveryReadingInMessagesThatReadBackToIt() throws Exception {
    final List<Reading> readings =
        GeneratedReadings.of(
            new ReadingGenerator.Options(
                12,
                Instant.parse("2025-06-01T10:00:00Z"),
                Duration.ofSeconds(1),
                Duration.ZERO,
                0.0,
                12,
                1_200,
                7));
    final SparkplugFleet fleet = new SparkplugFleet(3);
    final SparkplugPayloads payloads = new SparkplugPayloads();
    final SparkplugReadings reader = new SparkplugReadings(false);
    final SparkplugSequence sequence = new SparkplugSequence();
    final Map<String, SparkplugBirth> births = new HashMap<>();
    final List<Reading> read = new ArrayList<>();
    int gaps = 0;
    int messages = 0;

    for (final Reading reading : readings) {
      for (final Message message : fleet.messagesOf(reading)) {
        messages++;
        final SparkplugTopic topic = SparkplugTopic.parse(message.topic());
        final SparkplugPayload payload = payloads.read(message.payload());
        gaps += sequence.isGap(topic.edgeNodeId(), topic.type(), payload) ? 1 : 0;
        if (topic.type().isBirth()) {
          births.put(topic.sensorId(), SparkplugBirth.of(topic, payload));
        } else {
          read.addAll(
              reader
                  .of(topic, payload, births.getOrDefault(topic.sensorId(), SparkplugBirth.NONE))
                  .readings());
        }
      }
    }

    assertThat(read).containsExactlyElementsOf(readings.stream().map(fleet::asRead).toList());
    assertThat(births).hasSize(3 + 12);
    assertThat(messages).as("over 256 a node: the sequence wraps").isGreaterThan(3 * 256);
    assertThat(gaps).isZero();
  }

  @Test
  void shouldKeyEachRecordByEdgeNodeWithItsTopicInAHeaderAndEndWithTheRecordThatCarriesIt()
      throws Exception {
    final SparkplugFleet fleet = new SparkplugFleet(2);
    final Reading reading =
        new Reading("sensor-0001", Instant.parse("2025-06-01T10:00:00Z"), 21.5, "temperature", 60);

    final List<GatewayRecord> records = fleet.records(reading);
    final String edge = fleet.asRead(reading).getSensorId().split("/")[1];

    assertThat(records)
        .extracting(record -> new String(record.key(), StandardCharsets.UTF_8))
        .containsOnly("bucketer/" + edge);
    assertThat(records)
        .extracting(
            record ->
                new String(
                    record.headers().get(SparkplugFleet.TOPIC_HEADER), StandardCharsets.UTF_8))
        .containsExactly(
            "spBv1.0/bucketer/NBIRTH/" + edge,
            "spBv1.0/bucketer/DBIRTH/" + edge + "/sensor-0001",
            "spBv1.0/bucketer/DDATA/" + edge + "/sensor-0001");
    assertThat(fleet.records(reading)).as("born already: the data alone").hasSize(1);
    assertThat(
            new BucketerConfig(settingsWith(SparkplugFleet.inputSettings()))
                .input()
                .sparkplug()
                .topicSource())
        .isEqualTo(new SparkplugTopicSource.Header(SparkplugFleet.TOPIC_HEADER));
  }

  private static Map<String, Object> settingsWith(final Map<String, String> input) {
    final Map<String, Object> settings = new HashMap<>(input);
    settings.put("bootstrap.servers", "broker:9092");
    settings.put("mongodb.uri", "mongodb://mongo:27017");
    return settings;
  }
}
