package io.bucketer.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.bucketer.avro.Reading;
import io.bucketer.buckets.SeriesKey;
import io.bucketer.ingest.ReadingDecoder;
import io.bucketer.testing.FramedReadings;
import io.bucketer.topics.BucketerTopics;
import io.bucketer.topics.TypedTopic;
import io.bucketer.topology.SeriesKeySerde;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.kstream.TimeWindowedDeserializer;
import org.apache.kafka.streams.kstream.Windowed;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The windowed-aggregate contender's topology in memory. Kafka Streams looks for closed windows at
 * most once a second of wall clock (the driver would look at every record unless told otherwise),
 * so the tests move the driver's clock on by a second before each reading that should trigger a
 * look, and hold it still where the throttle is the point.
 */
class WindowedAggregateRunTest {

  private static final WindowedAggregateRun.Settings SETTINGS =
      new WindowedAggregateRun.Settings(
          "iot.readings", "windows", 2, Duration.ofSeconds(10), Duration.ofHours(2));
  private static final SeriesKey S1 = new SeriesKey("s1", "temperature");

  @TempDir Path stateDir;

  private final Arrivals arrivals = new Arrivals();
  private TopologyTestDriver driver;
  private TestInputTopic<byte[], byte[]> input;
  private TestOutputTopic<Windowed<SeriesKey>, WindowStats> windows;

  @BeforeEach
  void startDriver() {
    final Properties properties = new Properties();
    properties.put(StreamsConfig.APPLICATION_ID_CONFIG, "windowed-aggregate-test");
    properties.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
    properties.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
    properties.put(
        StreamsConfig.InternalConfig.EMIT_INTERVAL_MS_KSTREAMS_WINDOWED_AGGREGATION, 1000L);
    // No record cache: it would go on holding a window the store has dropped, hiding the loss.
    properties.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, 0L);
    driver =
        new TopologyTestDriver(
            WindowedAggregateRun.topology(
                SETTINGS, () -> new ReadingDecoder(id -> Reading.getClassSchema()), arrivals),
            properties,
            Instant.parse("2025-06-02T00:00:00Z"));
    final TypedTopic<byte[], byte[]> readings = BucketerTopics.input(SETTINGS.inputTopic());
    input =
        driver.createInputTopic(
            readings.name(), readings.keySerializer(), readings.valueSerializer());
    windows =
        driver.createOutputTopic(
            SETTINGS.outputTopic(),
            new TimeWindowedDeserializer<>(
                new SeriesKeySerde().deserializer(), WindowedAggregateRun.WINDOW.toMillis()),
            new WindowStatsSerde().deserializer());
  }

  @AfterEach
  void closeDriver() {
    driver.close();
  }

  @Test
  void shouldEmitAWindowsCountSumMinAndMaxOnceWhenStreamTimePassesItsEndPlusGrace() {
    sendASecondLater("10:00:05", 1.0);
    sendASecondLater("10:00:30", 3.0);
    sendASecondLater("10:00:59.999", 2.0);
    sendASecondLater("10:01:09.999", 5.0); // end + grace is 10:01:10: still open
    assertThat(windows.isEmpty()).isTrue();

    sendASecondLater("10:01:10", 4.0); // close [10:00, 10:01)

    assertThat(windowsEmitted())
        .containsExactly(KeyValue.pair(start(S1, "10:00:00"), new WindowStats(3, 6.0, 1.0, 3.0)));
    assertThat(arrivals.records()).isEqualTo(5);
  }

  @Test
  void shouldDropAReadingWhoseWindowHasClosedInsteadOfMergingIt() {
    sendASecondLater("10:00:05", 1.0);
    sendASecondLater("10:01:10", 4.0); // close [10:00, 10:01)
    sendASecondLater("10:00:40", 9.0); // too late: its window was emitted
    sendASecondLater("10:02:10", 6.0); // close [10:01, 10:02)

    assertThat(windowsEmitted())
        .containsExactly(
            KeyValue.pair(start(S1, "10:00:00"), new WindowStats(1, 1.0, 1.0, 1.0)),
            KeyValue.pair(start(S1, "10:01:00"), new WindowStats(1, 4.0, 4.0, 4.0)));
  }

  @Test
  void shouldEmitTheWindowsThatAnHourLongJumpOfStreamTimeClosesAtTheNextLook() {
    sendASecondLater("10:00:05", 1.0);
    send("11:01:00", 2.0); // within the same second: the jump closes [10:00, 10:01) unseen
    assertThat(windows.isEmpty()).isTrue();

    sendASecondLater("09:00:00", 0.0); // a late tick: dropped, but Kafka Streams looks again

    // With the default retention (size + grace) the window would have gone with the jump.
    assertThat(windowsEmitted())
        .containsExactly(KeyValue.pair(start(S1, "10:00:00"), new WindowStats(1, 1.0, 1.0, 1.0)));
  }

  @Test
  void shouldGiveAGraceOfAllTheInputsEventTimeAndTicksPastTheCloseOfItsLastWindow() {
    final WindowedAggregateRun.Settings settings =
        WindowedAggregateRun.Settings.droppingNone("in", "out", 2, at("10:00:00"), at("12:00:30"));

    // a reading at 10:00 arriving after one at 12:00:30 is not late: its window closes at 12:01
    assertThat(settings.grace()).isEqualTo(Duration.ofMinutes(120).plusSeconds(30));
    // the last window, [12:00, 12:01), closes when stream time reaches 12:01 plus that grace
    assertThat(settings.closingTime(at("10:00:00")))
        .isAfterOrEqualTo(at("12:01:00").plus(settings.grace()))
        .isEqualTo(at("14:02:00"));
    // the store keeps every window until the ticks have closed them all
    assertThat(settings.retention())
        .isGreaterThanOrEqualTo(Duration.between(at("10:00:00"), at("14:02:00")));
  }

  private List<KeyValue<Windowed<SeriesKey>, WindowStats>> windowsEmitted() {
    return windows.readKeyValuesToList();
  }

  private static Windowed<SeriesKey> start(final SeriesKey series, final String time) {
    final long start = at(time).toEpochMilli();
    return new Windowed<>(
        series,
        new org.apache.kafka.streams.kstream.internals.TimeWindow(
            start, start + WindowedAggregateRun.WINDOW.toMillis()));
  }

  private void sendASecondLater(final String time, final double value) {
    driver.advanceWallClockTime(Duration.ofSeconds(1));
    send(time, value);
  }

  private void send(final String time, final double value) {
    input.pipeInput(
        null,
        frame(
            Reading.newBuilder()
                .setSensorId(S1.sensorId())
                .setMetric(S1.metric())
                .setTimestamp(at(time))
                .setValue(value)
                .build()));
  }

  private static Instant at(final String time) {
    return Instant.parse("2025-06-01T" + time + "Z");
  }

  private static byte[] frame(final Reading reading) {
    return FramedReadings.frame(reading, 1);
  }
}
