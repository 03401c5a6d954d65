package io.bucketer.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.bucketer.avro.Reading;
import io.bucketer.buckets.ClosedBucket;
import io.bucketer.buckets.Handover;
import io.bucketer.ingest.ReadingDecoder;
import io.bucketer.metrics.BucketerMetrics;
import io.bucketer.topics.DeadLetterHeaders;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A rescale's two layouts ({@link Handover}) reading the same input, as the replaced deployment and
 * the new one do: each reading is bucketed by exactly one of them, each window written by one,
 * every rejected record dead-lettered once, and a reading the new layout cannot hold is too late.
 */
class HandoverTopologyTest {

  private static final Instant T = Instant.parse("2025-06-01T11:00:00Z");
  // The handover plus the tests' grace (10 s) and lateness horizon (1 h).
  private static final Instant LATE_UNTIL = T.plus(Duration.ofSeconds(3_610));
  private static final Instant WALL_CLOCK = Instant.parse("2025-06-01T13:00:00Z");

  @TempDir Path oldState;
  @TempDir Path newState;

  private final BucketerMetrics oldMetrics = new BucketerMetrics(new SimpleMeterRegistry());
  private final BucketerMetrics newMetrics = new BucketerMetrics(new SimpleMeterRegistry());

  /**
   * One record of the input: a reading (or bytes that are none), the record's own time, and whether
   * the fleet went quiet for a minute of wall clock before it came.
   */
  private record Sent(byte[] value, Instant recordTime, boolean afterAQuietMinute) {
    Sent(final byte[] value, final Instant recordTime) {
      this(value, recordTime, false);
    }
  }

  @Test
  void shouldBucketEveryReadingInExactlyOneLayoutAndWriteEachWindowFromOne() {
    final List<Sent> input = new ArrayList<>();
    int readings = 0;
    // 10:58:00 - 11:01:50, one reading every 10 s, each written a second after its time
    for (Instant at = T.minusSeconds(120);
        at.isBefore(T.plusSeconds(120));
        at = at.plusSeconds(10)) {
      input.add(new Sent(frame(at, 1.0), at.plusSeconds(1)));
      readings++;
    }
    input.add(new Sent(garbage(), T.minusSeconds(1))); // rejected: the old layout's dead letter
    // late, once 10:59 closed: the old layout's
    input.add(new Sent(frame(T.minusSeconds(55), 5.0), T.plusSeconds(125), true));
    readings++;
    input.add(new Sent(garbage(), T.plusSeconds(130))); // rejected: the new layout's
    input.add(new Sent(frame(T.minusSeconds(53), 7.0), LATE_UNTIL)); // too late, in the new
    input.add(new Sent(frame(T.plusSeconds(200), 1.0), LATE_UNTIL)); // the new layout's
    readings++;

    final Layout old = run(Handover.Side.BEFORE, oldState, oldMetrics, input);
    final Layout replacing = run(Handover.Side.FROM, newState, newMetrics, input);

    assertThat(old.windows()).isNotEmpty().allMatch(window -> window.start() < T.toEpochMilli());
    assertThat(replacing.windows())
        .isNotEmpty()
        .allMatch(window -> window.start() >= T.toEpochMilli());
    final Set<Window> both = new HashSet<>(old.windows());
    both.retainAll(replacing.windows());
    assertThat(both).as("windows written by both layouts").isEmpty();

    // Every reading counted once, in the minutes of one layout or the other (the quiet wall clock
    // closes them all), the late one merged into the old layout's 10:59, its second revision.
    final long minuteCounts = old.readingsInMinutes() + replacing.readingsInMinutes();
    assertThat(minuteCounts).isEqualTo(readings);
    assertThat(old.minute(T.minusSeconds(60)).stats().count()).isEqualTo(7);
    assertThat(old.minute(T.minusSeconds(60)).revision()).isEqualTo(1);

    assertThat(old.deadLetterReasons()).containsExactly("not-wire-format");
    assertThat(replacing.deadLetterReasons()).containsExactly("not-wire-format", "too-late");
    assertThat(replacing.tooLateMessages().get(0)).contains("2025-06-01T11:00:00Z");
    assertThat(readings(oldMetrics, "handed-over") + readings(newMetrics, "handed-over"))
        .as("each layout leaves the other's readings")
        .isEqualTo(input.size() - 2 /* the garbage */);
  }

  private record Window(String sensor, String granularity, long start) {}

  private record Layout(
      Map<Window, ClosedBucket> latest,
      List<String> deadLetterReasons,
      List<String> tooLateMessages) {

    Set<Window> windows() {
      return latest.keySet();
    }

    long readingsInMinutes() {
      return latest.values().stream()
          .filter(bucket -> bucket.granularity().label().equals("1m"))
          .mapToLong(bucket -> bucket.stats().count())
          .sum();
    }

    ClosedBucket minute(final Instant start) {
      return latest.get(new Window("sensor-1", "1m", start.toEpochMilli()));
    }
  }

  private static Layout run(
      final Handover.Side side,
      final Path stateDir,
      final BucketerMetrics metrics,
      final List<Sent> input) {
    final BucketTopology.Settings settings =
        BucketTopologyTest.SETTINGS.withHandover(
            new Handover(side, T.toEpochMilli(), LATE_UNTIL.toEpochMilli()));
    try (TopologyTestDriver driver =
        TopologyTopics.driver(
            stateDir,
            () -> new ReadingDecoder(id -> Reading.getClassSchema()),
            metrics,
            WALL_CLOCK,
            settings)) {
      final TopologyTopics topics = TopologyTopics.of(driver);
      for (final Sent sent : input) {
        if (sent.afterAQuietMinute()) {
          driver.advanceWallClockTime(Duration.ofMinutes(1));
        }
        topics.input().pipeInput(new TestRecord<>(null, sent.value(), sent.recordTime()));
      }
      // The old layout's last windows close when its series goes quiet (the readings after the
      // handover are not its own), and so does the new layout's last minute.
      driver.advanceWallClockTime(Duration.ofMinutes(2));
      final Map<Window, ClosedBucket> latest = new HashMap<>();
      for (final ClosedBucket bucket : topics.buckets().readValuesToList()) {
        latest.merge(
            new Window(
                bucket.series().sensorId(), bucket.granularity().label(), bucket.windowStart()),
            bucket,
            (before, after) -> after.revision() >= before.revision() ? after : before);
      }
      final List<String> reasons = new ArrayList<>();
      final List<String> tooLate = new ArrayList<>();
      for (final TestRecord<byte[], byte[]> dead : topics.deadLetters().readRecordsToList()) {
        final String reason = header(dead, DeadLetterHeaders.REASON);
        reasons.add(reason);
        if (reason.equals("too-late")) {
          tooLate.add(header(dead, DeadLetterHeaders.MESSAGE));
        }
      }
      return new Layout(latest, reasons, tooLate);
    }
  }

  private static double readings(final BucketerMetrics metrics, final String outcome) {
    return metrics
        .registry()
        .find(BucketerMetrics.READINGS)
        .tag("outcome", outcome)
        .counter()
        .count();
  }

  private static byte[] frame(final Instant at, final double value) {
    return BucketTopologyTest.frame(
        Reading.newBuilder()
            .setSensorId("sensor-1")
            .setMetric("temperature")
            .setTimestamp(at)
            .setValue(value)
            .build());
  }

  private static byte[] garbage() {
    return "not a reading".getBytes(StandardCharsets.UTF_8);
  }

  private static String header(final TestRecord<?, ?> record, final String name) {
    final Header header = record.headers().lastHeader(name);
    return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
  }
}
