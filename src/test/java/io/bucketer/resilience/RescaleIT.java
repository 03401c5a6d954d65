package io.bucketer.resilience;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.bucketer.avro.Reading;
import io.bucketer.buckets.Granularity;
import io.bucketer.config.RescaleSettings;
import io.bucketer.embedded.ProcessorProcess;
import io.bucketer.simulate.ReadingGenerator;
import io.bucketer.testing.BucketStoreAssertions;
import io.bucketer.testing.CliRun;
import io.bucketer.testing.GeneratedReadings;
import io.bucketer.testing.IsolatedRun;
import io.bucketer.testing.LocalInfrastructure;
import io.bucketer.testing.PacedProducer;
import io.bucketer.testing.Timeline;
import io.bucketer.topics.BucketHeaders;
import io.bucketer.topics.DeadLetterTopic;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.NewPartitions;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bucketer rescale} from 6 to 12 series partitions under a live fleet, as a user runs it:
 * the plan against the running processor, that processor restarted with its side of the handover,
 * the new layout started with the other side; late readings of windows before the handover sent
 * after it (the running processor merges them), and a few after the end of its late readings (the
 * new layout calls them too late). Every window exact in MongoDB, each written by one layout only,
 * the too-late readings in the dead-letter topic and nothing else, and {@code rescale status}
 * saying the replaced processor may stop.
 *
 * <p>Scaled down to run in minutes: 10 s and 1 min windows, 2 s of grace, a lateness horizon of 20
 * s, 5 s of future skew and a lead of 40 s, so the handover falls 45 to 105 s after the plan.
 */
@Tag("integration")
@Timeout(value = 8, unit = TimeUnit.MINUTES)
class RescaleIT {

  private static final Granularity TEN_SECONDS = Granularity.parse("10s");
  private static final Granularity MINUTE = Granularity.parse("1m");
  private static final int SENSORS = 60;
  private static final int SECONDS = 170;
  private static final int LATE = 20;
  private static final int TOO_LATE = 10;
  private static final Map<String, String> SETTINGS =
      Map.of(
          "series.partitions", "6",
          "granularities", "10s,1m",
          "grace", "2s",
          "lateness.horizon", "20s",
          "max.future.skew", "5s",
          "idle.timeout", "5s");

  private static LocalInfrastructure infrastructure;

  @TempDir(cleanup = CleanupMode.ON_SUCCESS)
  Path dir;

  @BeforeAll
  static void startInfrastructure() {
    infrastructure = LocalInfrastructure.start(ResilienceSettings.broker());
  }

  @AfterAll
  static void stopInfrastructure() {
    infrastructure.close();
  }

  @Test
  void shouldRescaleUnderLoadWithEveryWindowExactAndWrittenByOneLayout() throws Exception {
    rescaleUnderLoad(false);
  }

  /**
   * Keyed input grows through a rescale: the keyed processor hands over to a layout that
   * repartitions by series, and the input grows from 3 to 6 partitions once the keyed one has
   * stopped, the gateways' sensors moving to the new partitions at once. Nothing in the dead-letter
   * topic but the too-late readings: no {@code wrong-partition} to replay by hand.
   */
  @Test
  void shouldGrowAKeyedInputThroughARescaleWithNothingToReplay() throws Exception {
    rescaleUnderLoad(true);
  }

  private void rescaleUnderLoad(final boolean keyed) throws Exception {
    final Timeline timeline = new Timeline();
    final Map<String, String> settings = new LinkedHashMap<>(SETTINGS);
    if (keyed) {
      settings.put("input.partitioning", "by-sensor");
    }
    final int seconds = keyed ? SECONDS + 40 : SECONDS;
    try (IsolatedRun run = new IsolatedRun(infrastructure, dir, 3, settings)) {
      final ProcessorProcess old = run.startProcessor("a");
      run.awaitConsumingBy(old);
      final List<Reading> fleet =
          GeneratedReadings.of(
              new ReadingGenerator.Options(
                  SENSORS,
                  Instant.now().truncatedTo(ChronoUnit.SECONDS),
                  Duration.ofSeconds(1),
                  Duration.ZERO,
                  0,
                  0,
                  (long) SENSORS * seconds,
                  47));
      final List<Reading> sent = new ArrayList<>(fleet);
      final String newId = run.applicationId() + "-p12";
      final Map<String, String> newSettings;
      final Instant handover;
      final Instant lateUntil;
      try (PacedProducer gateways =
          PacedProducer.start(
              infrastructure,
              run.inputTopic(),
              fleet,
              SENSORS,
              // the gateways see new partitions within a second, the worst case for a keyed input
              Map.of(ProducerConfig.METADATA_MAX_AGE_CONFIG, "1000"))) {
        await("10 s of the fleet sent")
            .atMost(IsolatedRun.DEADLINE)
            .until(() -> gateways.acknowledged() >= SENSORS * 10L);

        final CliRun plan =
            CliRun.withSettings(
                runSettings(run),
                "rescale",
                "--partitions",
                "12",
                "--application-id",
                newId,
                "--lead",
                "40s");
        assertThat(plan.exitCode()).as(plan.err()).isZero();
        timeline.mark("planned");
        final Map<String, String> printed = printedSettings(plan.out());
        handover = Instant.parse(printed.get(RescaleSettings.BEFORE));
        lateUntil = Instant.parse(printed.get(RescaleSettings.LATE_UNTIL));
        assertThat(lateUntil).isEqualTo(handover.plusSeconds(22));
        newSettings = new LinkedHashMap<>();
        for (final String name :
            List.of(
                "application.id",
                "series.partitions",
                RescaleSettings.FROM,
                RescaleSettings.LATE_UNTIL,
                "sink.group.id",
                "input.partitioning")) {
          if (printed.containsKey(name)) {
            newSettings.put(name, printed.get(name));
          }
        }
        assertThat(newSettings.containsKey("input.partitioning")).isEqualTo(keyed);
        assertThat(newSettings).containsEntry("sink.group.id", run.applicationId() + "-sink");

        // 1. the running processor restarted with its side, before a reading past the handover
        // may be accepted
        assertThat(old.stop()).isEqualTo(ProcessorProcess.ENDED_BY_SIGTERM);
        final ProcessorProcess replaced =
            run.startProcessor(
                "a",
                Map.of(
                    RescaleSettings.BEFORE, handover.toString(),
                    RescaleSettings.LATE_UNTIL, lateUntil.toString()));
        run.awaitConsumingBy(replaced);
        timeline.mark("restarted");
        assertThat(Instant.now()).isBefore(handover.minusSeconds(5));
        // 2. the new layout
        final ProcessorProcess replacing = run.startProcessor("b", newSettings);
        timeline.mark("new layout started");

        // Late readings of the windows before the handover, after it: the replaced processor's.
        await("the handover passed")
            .atMost(Duration.ofMinutes(2))
            .failFast(run::assertNoProcessorDiedOnItsOwn)
            .until(() -> Instant.now().isAfter(handover.plusSeconds(8)));
        final List<Reading> late = offsetReadings(fleet, handover.minusSeconds(15), LATE);
        send(late, run.inputTopic());
        sent.addAll(late);
        timeline.mark("late readings sent");
        await("the replaced processor's late readings ended")
            .atMost(Duration.ofMinutes(2))
            .failFast(run::assertNoProcessorDiedOnItsOwn)
            .until(() -> Instant.now().isAfter(lateUntil.plusSeconds(1)));
        send(offsetReadings(fleet, handover.minusSeconds(3), TOO_LATE), run.inputTopic());
        timeline.mark("too-late readings sent");
        if (keyed) {
          // 3. the keyed processor has read everything written before the end of its late
          // readings: stopped, and only then the input grows
          await("the replaced processor read past the end of its late readings")
              .atMost(IsolatedRun.DEADLINE)
              .failFast(run::assertNoProcessorDiedOnItsOwn)
              .until(() -> consumedAll(run, run.applicationId()));
          assertThat(replaced.stop()).isEqualTo(ProcessorProcess.ENDED_BY_SIGTERM);
          run.admin()
              .createPartitions(Map.of(run.inputTopic(), NewPartitions.increaseTo(6)))
              .all()
              .get(30, TimeUnit.SECONDS);
          timeline.mark("replaced processor stopped, input grown to 6 partitions");
        }
        assertThat(gateways.awaitDone(Duration.ofSeconds(seconds))).isEqualTo(fleet.size());
        timeline.mark("all sent");
        await("both layouts read the whole input")
            .atMost(IsolatedRun.DEADLINE)
            .failFast(run::assertNoProcessorDiedOnItsOwn)
            .until(
                () -> (keyed || consumedAll(run, run.applicationId())) && consumedAll(run, newId));
        run.awaitReadingsInBuckets(sent.size(), TEN_SECONDS, MINUTE);
        timeline.mark("all in buckets");

        final CliRun status =
            CliRun.withSettings(
                merged(runSettings(run), newSettings),
                "rescale",
                "status",
                "--other",
                run.applicationId(),
                "--check-buckets");
        System.out.printf(
            "RescaleIT%s: %s%nplan:%n%sstatus:%n%s",
            keyed ? " (keyed input)" : "", timeline, plan.out(), status.out());
        assertThat(status.exitCode()).as(status.out() + status.err()).isZero();
        assertThat(status.out())
            .contains(run.applicationId() + " may stop now")
            .contains("written by both: 0; on the other's side of the handover: 0");
        replacing.stop();
        if (!keyed) {
          replaced.stop();
        }
      }

      BucketStoreAssertions.assertStoreEqualsComputation(run.store(), sent, TEN_SECONDS, MINUTE);
      assertThat(
              DeadLetterTopic.countByReason(
                  infrastructure.bootstrapServers(), run.deadLetterTopic()))
          .isEqualTo(Map.of("too-late", (long) TOO_LATE));
      final Map<String, Set<String>> writers = writersByWindow(run);
      assertThat(writers).isNotEmpty();
      assertThat(writers.values()).allSatisfy(by -> assertThat(by).hasSize(1));
      writers.forEach(
          (key, by) -> {
            final boolean before = windowStart(key) < handover.toEpochMilli();
            assertThat(by)
                .as("writer of %s", key)
                .containsExactly(before ? run.applicationId() : newId);
          });
    }
  }

  /** One reading each of the first {@code count} sensors, half a second after {@code at}. */
  private static List<Reading> offsetReadings(
      final List<Reading> fleet, final Instant at, final int count) {
    final List<Reading> readings = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      final Reading like = fleet.get(i);
      readings.add(
          Reading.newBuilder(like).setTimestamp(at.plusMillis(500)).setValue(100.0 + i).build());
    }
    return readings;
  }

  /** Sends {@code readings} at once, from a gateway of their own, beside the paced fleet. */
  private static void send(final List<Reading> readings, final String topic) throws Exception {
    try (PacedProducer gateway =
        PacedProducer.start(infrastructure, topic, readings, 0, Map.of())) {
      assertThat(gateway.awaitDone(Duration.ofSeconds(30))).isEqualTo(readings.size());
    }
  }

  private static Map<String, String> runSettings(final IsolatedRun run) {
    return run.settings();
  }

  private static Map<String, String> merged(
      final Map<String, String> base, final Map<String, String> over) {
    final Map<String, String> all = new LinkedHashMap<>(base);
    all.putAll(over);
    return all;
  }

  private static final Pattern SETTING =
      Pattern.compile("^\\s+([a-z.]+)=(\\S+)$", Pattern.MULTILINE);

  /** The settings the plan prints, the last of each name (both sides print rescale.late.until). */
  private static Map<String, String> printedSettings(final String out) {
    final Map<String, String> settings = new HashMap<>();
    final Matcher matcher = SETTING.matcher(out);
    while (matcher.find()) {
      settings.put(matcher.group(1), matcher.group(2));
    }
    return settings;
  }

  private static boolean consumedAll(final IsolatedRun run, final String group) throws Exception {
    final Map<TopicPartition, OffsetAndMetadata> committed =
        run.admin().listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get();
    final int partitions =
        run.admin()
            .describeTopics(List.of(run.inputTopic()))
            .allTopicNames()
            .get()
            .get(run.inputTopic())
            .partitions()
            .size();
    final Map<TopicPartition, OffsetSpec> ends = new HashMap<>();
    for (int p = 0; p < partitions; p++) {
      ends.put(new TopicPartition(run.inputTopic(), p), OffsetSpec.latest());
    }
    final var offsets = run.admin().listOffsets(ends).all().get();
    return ends.keySet().stream()
        .allMatch(
            p -> committed.get(p) != null && committed.get(p).offset() >= offsets.get(p).offset());
  }

  /** Every bucket key on the buckets topic, with the deployments that wrote it. */
  private static Map<String, Set<String>> writersByWindow(final IsolatedRun run) {
    final Map<String, Set<String>> writers = new HashMap<>();
    for (final ConsumerRecord<byte[], byte[]> record :
        DeadLetterTopic.committedRecords(infrastructure.bootstrapServers(), run.bucketsTopic())) {
      writers
          .computeIfAbsent(new String(record.key(), StandardCharsets.UTF_8), key -> new HashSet<>())
          .add(BucketHeaders.writtenBy(record.headers()).orElse("nobody"));
    }
    return writers;
  }

  private static long windowStart(final String bucketKey) {
    try {
      final JsonNode key = new ObjectMapper().readTree(bucketKey);
      return key.get(1).asLong();
    } catch (java.io.IOException e) {
      throw new AssertionError("not a bucket key: " + bucketKey, e);
    }
  }
}
