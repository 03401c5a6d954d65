package io.bucketer.resilience;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.bucketer.avro.Reading;
import io.bucketer.buckets.Granularity;
import io.bucketer.config.MongoSettings;
import io.bucketer.embedded.ProcessorProcess;
import io.bucketer.query.StoredDocuments;
import io.bucketer.simulate.ReadingGenerator;
import io.bucketer.testing.BucketStoreAssertions;
import io.bucketer.testing.CuttableTcpProxy;
import io.bucketer.testing.GeneratedReadings;
import io.bucketer.testing.IsolatedRun;
import io.bucketer.testing.LocalInfrastructure;
import io.bucketer.testing.PacedProducer;
import io.bucketer.topics.DeadLetterTopic;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * MongoDB goes away under load while the processor runs in a JVM of its own, as in production: the
 * connection is cut by a proxy for several seconds. Seen from outside, the sink must stop
 * committing (so nothing it could not write is marked done), the processor must stay alive, and
 * once MongoDB is back every reading must be in exactly one bucket of each granularity.
 */
@Tag("integration")
// A hung run fails here, after five minutes, instead of holding CI until its limit.
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class MongoOutageProcessIT {

  private static final Granularity MINUTE = Granularity.parse("1m");
  private static final Granularity HOUR = Granularity.parse("1h");
  private static final int READINGS = 16_000;
  private static final Duration OUTAGE = Duration.ofSeconds(5);

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
  void shouldLoseNothingWhenMongoDbIsCutOffFromAProcessorInItsOwnJvm() throws Exception {
    final List<Reading> readings =
        GeneratedReadings.of(
            new ReadingGenerator.Options(
                16,
                Instant.parse("2025-06-01T09:00:00Z"),
                Duration.ofSeconds(2),
                Duration.ofMillis(300),
                0.05,
                16,
                READINGS,
                23));
    final URI mongo = URI.create(infrastructure.mongoUri());
    try (CuttableTcpProxy proxy = CuttableTcpProxy.start(mongo.getHost(), mongo.getPort())) {
      final Map<String, String> settings = new HashMap<>();
      // Short client timeouts: an unreachable server fails a write in about a second.
      settings.put(
          MongoSettings.URI,
          "mongodb://127.0.0.1:"
              + proxy.port()
              + "/?serverSelectionTimeoutMS=1000&connectTimeoutMS=1000&socketTimeoutMS=2000");
      settings.put(MongoSettings.SINK_WRITE_TIMEOUT, "3s");
      settings.put(MongoSettings.SINK_RETRY_BACKOFF_MAX, "1s");
      try (IsolatedRun run =
          new IsolatedRun(infrastructure, dir, 2, ResilienceSettings.processor(settings))) {
        final StoredDocuments store = run.store();
        final ProcessorProcess processor = run.startProcessor("a");
        run.awaitConsumingBy(processor);
        final String sinkGroup = run.applicationId() + "-sink";
        try (PacedProducer gateways =
            PacedProducer.start(infrastructure, run.inputTopic(), readings, 1_000, Map.of())) {
          await("buckets being written")
              .atMost(IsolatedRun.DEADLINE)
              .failFast(run::assertNoProcessorDiedOnItsOwn)
              .until(() -> store.documents(MINUTE) > 0);

          proxy.cut();
          // A batch already on its way may still land; after that nothing moves.
          await().atMost(IsolatedRun.DEADLINE).until(() -> proxy.connectionsRefused() > 0);
          final Map<TopicPartition, OffsetAndMetadata> committed = sinkOffsets(run, sinkGroup);
          final long documents = store.documents(MINUTE);
          await("nothing committed or written while MongoDB is cut off")
              .during(OUTAGE)
              .atMost(OUTAGE.plusSeconds(5))
              .failFast(run::assertNoProcessorDiedOnItsOwn)
              .until(
                  () ->
                      sinkOffsets(run, sinkGroup).equals(committed)
                          && store.documents(MINUTE) == documents);
          proxy.restore();

          assertThat(gateways.awaitDone(IsolatedRun.DEADLINE)).isEqualTo(READINGS);
        }
        run.awaitInputConsumed(); // then the idle timeout closes the last windows
        run.awaitReadingsInBuckets(READINGS, MINUTE, HOUR);

        assertThat(
                DeadLetterTopic.countByReason(
                    infrastructure.bootstrapServers(), run.deadLetterTopic()))
            .isEmpty();
        BucketStoreAssertions.assertStoreEqualsComputation(store, readings, MINUTE);
        BucketStoreAssertions.assertStoreEqualsComputation(store, readings, HOUR);
        assertThat(processor.stop()).isEqualTo(ProcessorProcess.ENDED_BY_SIGTERM);
      }
    }
  }

  private static Map<TopicPartition, OffsetAndMetadata> sinkOffsets(
      final IsolatedRun run, final String group) throws Exception {
    return run.admin().listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get();
  }
}
