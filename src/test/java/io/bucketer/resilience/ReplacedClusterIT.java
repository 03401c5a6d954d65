package io.bucketer.resilience;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.bucketer.app.BucketerApp;
import io.bucketer.avro.Reading;
import io.bucketer.buckets.Granularity;
import io.bucketer.config.InputSettings;
import io.bucketer.config.KafkaSettings;
import io.bucketer.config.MongoSettings;
import io.bucketer.metrics.BucketerMetrics;
import io.bucketer.simulate.ReadingGenerator;
import io.bucketer.state.LocalStateGuard;
import io.bucketer.state.StateOwner;
import io.bucketer.state.StateOwnership;
import io.bucketer.testing.BucketStoreAssertions;
import io.bucketer.testing.ExpectedBuckets;
import io.bucketer.testing.GeneratedReadings;
import io.bucketer.testing.InProcessRun;
import io.bucketer.testing.LocalInfrastructure;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Kafka cluster is replaced under a processor that keeps its state directory, as a pod keeps
 * its volume: the same application id and topic names on a new cluster, which is fed the same
 * readings again. State the old cluster left must be wiped before Kafka Streams starts; kept, it
 * would count every reading a second time (issue 11). Restarted on the same cluster, the processor
 * must keep its state.
 */
@Tag("integration")
// A hung run fails here, after five minutes, instead of holding CI until its limit.
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class ReplacedClusterIT {

  private static final Granularity MINUTE = Granularity.parse("1m");
  private static final Granularity HOUR = Granularity.parse("1h");

  @TempDir Path stateDir;

  @Test
  void shouldCountEachReadingOnceOnANewClusterWithTheOldClustersStateDirectory() throws Exception {
    // 5 sensors every 5 s of event time for about 33 minutes: 34 minute windows and one hour
    // window per sensor, 5 % of readings out of order.
    final List<Reading> readings =
        GeneratedReadings.of(
            new ReadingGenerator.Options(
                5,
                Instant.parse("2025-06-01T09:00:00Z"),
                Duration.ofSeconds(5),
                Duration.ofMillis(500),
                0.05,
                20,
                2_000,
                11));
    // One application on both clusters: the same id, topic names and database name.
    final String id = "replaced-" + UUID.randomUUID().toString().substring(0, 8);
    final Map<String, String> settings = ResilienceSettings.processor(sameApplication(id));
    final LocalStateGuard marker =
        new LocalStateGuard(stateDir, id, id + ".readings", Map.of("bootstrap.servers", ""));

    try (LocalInfrastructure first = LocalInfrastructure.start(ResilienceSettings.broker());
        InProcessRun run = new InProcessRun(first.endpoints(), stateDir, 3, settings)) {
      final MeterRegistry meters = new SimpleMeterRegistry();
      try (BucketerApp app = run.start(meters)) {
        run.send(readings);
        run.awaitReadingsInBuckets(readings.size(), MINUTE, HOUR);
        awaitMarkerOf(marker, clusterId(first));
      }
      assertThat(wipes(meters)).as("state wiped on the first start").isZero();
      BucketStoreAssertions.assertStoreEqualsComputation(run.store(), readings, MINUTE, HOUR);

      final MeterRegistry restart = new SimpleMeterRegistry();
      try (BucketerApp app = run.start(restart)) {
        assertThat(wipes(restart)).as("state wiped on a restart on the same cluster").isZero();
      }
    }

    try (LocalInfrastructure second = LocalInfrastructure.start(ResilienceSettings.broker());
        InProcessRun run = new InProcessRun(second.endpoints(), stateDir, 3, settings)) {
      final MeterRegistry meters = new SimpleMeterRegistry();
      try (BucketerApp app = run.start(meters)) {
        assertThat(wipes(meters, StateOwnership.OTHER_CLUSTER))
            .as("state of the first cluster wiped")
            .isEqualTo(1);
        run.send(readings);
        // Every window written and at least every reading in them: readings counted twice then
        // show as a larger total, not as a wait that times out.
        await("every window and every reading in the buckets of 1m and 1h")
            .atMost(InProcessRun.DEADLINE)
            .pollInterval(Duration.ofMillis(250))
            .until(
                () ->
                    Stream.of(MINUTE, HOUR)
                        .allMatch(
                            g ->
                                run.store().documents(g) >= windows(readings, g)
                                    && run.store().readingsInBuckets(g) >= readings.size()));
        for (final Granularity granularity : List.of(MINUTE, HOUR)) {
          assertThat(run.store().readingsInBuckets(granularity))
              .as("readings in the %s buckets of the new cluster", granularity.label())
              .isEqualTo(readings.size());
        }
        BucketStoreAssertions.assertStoreEqualsComputation(run.store(), readings, MINUTE, HOUR);
        awaitMarkerOf(marker, clusterId(second));
      }
    }
  }

  /** The windows the readings fall into: one bucket document each, at this many readings. */
  private static int windows(final List<Reading> readings, final Granularity granularity) {
    return ExpectedBuckets.compute(readings, granularity.sizeMillis()).size();
  }

  private static Map<String, String> sameApplication(final String id) {
    final Map<String, String> settings = new HashMap<>();
    settings.put(KafkaSettings.APPLICATION_ID, id);
    settings.put(InputSettings.TOPIC, id + ".readings");
    settings.put(KafkaSettings.BUCKETS_TOPIC, id + ".buckets");
    settings.put(KafkaSettings.DEAD_LETTER_TOPIC, id + ".dlq");
    // Each infrastructure has a MongoDB of its own: the second run's database starts empty.
    settings.put(MongoSettings.DATABASE, id);
    return settings;
  }

  /** Waits until the marker names {@code clusterId} and the application's changelog topics. */
  private static void awaitMarkerOf(final LocalStateGuard marker, final String clusterId) {
    await("the state's owner recorded as cluster " + clusterId)
        .atMost(InProcessRun.DEADLINE)
        .until(
            () -> {
              final Optional<StateOwner> owner = marker.readOwner();
              return owner.isPresent()
                  && owner.get().clusterId().equals(clusterId)
                  && owner.get().topicIds().keySet().stream()
                      .anyMatch(topic -> topic.endsWith("-changelog"));
            });
  }

  private static String clusterId(final LocalInfrastructure infrastructure) throws Exception {
    try (Admin admin =
        Admin.create(
            Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, infrastructure.bootstrapServers()))) {
      return admin.describeCluster().clusterId().get(30, TimeUnit.SECONDS);
    }
  }

  private static double wipes(final MeterRegistry meters) {
    return meters.find(BucketerMetrics.STATE_WIPES).counters().stream()
        .mapToDouble(Counter::count)
        .sum();
  }

  private static double wipes(final MeterRegistry meters, final String cause) {
    final Counter counter = meters.find(BucketerMetrics.STATE_WIPES).tag("cause", cause).counter();
    return counter == null ? 0 : counter.count();
  }
}
