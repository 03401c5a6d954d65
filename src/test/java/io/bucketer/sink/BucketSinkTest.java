package io.bucketer.sink;

import static io.bucketer.buckets.TestBuckets.HOUR;
import static io.bucketer.buckets.TestBuckets.MINUTE;
import static io.bucketer.buckets.TestBuckets.START;
import static io.bucketer.buckets.TestBuckets.bucket;
import static io.bucketer.buckets.TestBuckets.minute;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.mongodb.client.model.IndexOptions;
import com.mongodb.client.model.Indexes;
import com.mongodb.reactivestreams.client.MongoClient;
import com.mongodb.reactivestreams.client.MongoClients;
import com.mongodb.reactivestreams.client.MongoDatabase;
import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.backend.memory.MemoryBackend;
import io.bucketer.buckets.ClosedBucket;
import io.bucketer.topics.BucketKey;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.bson.BsonDocument;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/** The sink's loop against Kafka's MockConsumer and the in-JVM MongoDB stand-in (no broker). */
class BucketSinkTest {

  private static final String TOPIC = "buckets";
  private static final TopicPartition PARTITION = new TopicPartition(TOPIC, 0);
  private static final Duration DEADLINE = Duration.ofSeconds(20);

  private final List<Map<TopicPartition, OffsetAndMetadata>> commits = new CopyOnWriteArrayList<>();
  private final MockConsumer<String, ClosedBucket> consumer =
      new MockConsumer<>("earliest") {
        @Override
        public synchronized void commitSync(final Map<TopicPartition, OffsetAndMetadata> offsets) {
          commits.add(Map.copyOf(offsets));
          super.commitSync(offsets);
        }
      };
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private MongoServer server;
  private InetSocketAddress address;
  private MongoClient client;
  private MongoDatabase database;
  private MongoBucketWriter writer;
  private BucketSink sink;

  @BeforeEach
  void start() {
    server = new MongoServer(new MemoryBackend());
    address = server.bind();
    client =
        MongoClients.create(
            "mongodb://"
                + address.getHostString()
                + ":"
                + address.getPort()
                + "/?serverSelectionTimeoutMS=500&connectTimeoutMS=500");
    database = client.getDatabase("bucketer");
    writer = new MongoBucketWriter(database, "buckets_", List.of(MINUTE, HOUR), 100, 2);
    final SinkConfig config =
        new SinkConfig(
            TOPIC,
            "sink",
            Map.of(),
            Duration.ofMillis(20),
            Duration.ofSeconds(2),
            Duration.ofMillis(20),
            Duration.ofMillis(100));
    sink = new BucketSink(config, consumer, writer, registry);
  }

  @AfterEach
  void stop() throws Exception {
    sink.close();
    writer.close();
    client.close();
    shutDownServer();
  }

  /**
   * Shuts the stand-in down once: a second shutdownNow can hang waiting for a client channel that
   * was accepted while the first one stopped the event loops.
   */
  private void shutDownServer() {
    if (server != null) {
      server.shutdownNow();
      server = null;
    }
  }

  /** Assigns partition 0 and appends the buckets to it, on the polling thread. */
  private void deliver(final ClosedBucket... buckets) {
    consumer.schedulePollTask(
        () -> {
          consumer.rebalance(List.of(PARTITION));
          consumer.updateBeginningOffsets(Map.of(PARTITION, 0L));
          for (int i = 0; i < buckets.length; i++) {
            final ClosedBucket bucket = buckets[i];
            final String key = bucket == null ? "tombstone" : BucketKey.of(bucket);
            consumer.addRecord(new ConsumerRecord<>(TOPIC, 0, i, key, bucket));
          }
        });
  }

  private Long committedOffset() {
    final OffsetAndMetadata committed = consumer.committed(Set.of(PARTITION)).get(PARTITION);
    return committed == null ? null : committed.offset();
  }

  private long documentCount(final String collection) {
    return Mono.from(database.getCollection(collection).countDocuments()).block(DEADLINE);
  }

  @Test
  void writesEachBatchThenCommitsItAndCountsIt() {
    deliver(
        minute("sensor-1", START),
        null,
        minute("sensor-2", START),
        bucket("sensor-1", null, HOUR, HOUR.windowStart(START), null, 1.0));
    final CompletableFuture<Void> loop = CompletableFuture.runAsync(sink);

    await().atMost(DEADLINE).until(() -> Long.valueOf(4).equals(committedOffset()));
    assertThat(documentCount("buckets_1m")).isEqualTo(2);
    assertThat(documentCount("buckets_1h")).isEqualTo(1);
    assertThat(sink.bucketsWritten()).isEqualTo(3);
    assertThat(sink.bucketsWritten(MINUTE)).isEqualTo(2);
    assertThat(registry.get(BucketSink.BUCKETS_WRITTEN).tag("granularity", "1h").counter().count())
        .isEqualTo(1.0);
    assertThat(registry.get(BucketSink.WRITE_LATENCY).tag("outcome", "success").timer().count())
        .isEqualTo(1);

    sink.close();
    await().atMost(DEADLINE).until(loop::isDone);
    assertThat(loop).isCompleted();
    assertThat(consumer.closed()).isTrue();
  }

  @Test
  void retriesWhileMongoIsDownWithPartitionsPausedAndCommitsOnlyAfterwards() {
    shutDownServer();
    deliver(minute("sensor-1", START), minute("sensor-2", START));
    final CompletableFuture<Void> loop = CompletableFuture.runAsync(sink);

    await()
        .atMost(DEADLINE)
        .until(
            () ->
                registry.find(BucketSink.WRITE_LATENCY).tag("outcome", "retryable").timer() != null
                    && consumer.paused().contains(PARTITION));
    assertThat(commits).isEmpty();

    server = new MongoServer(new MemoryBackend());
    server.bind(address.getHostString(), address.getPort());

    await().atMost(DEADLINE).until(() -> Long.valueOf(2).equals(committedOffset()));
    assertThat(documentCount("buckets_1m")).isEqualTo(2);
    assertThat(consumer.paused()).isEmpty();
    assertThat(loop).isNotDone();
  }

  @Test
  void aRejectedBucketStopsTheSinkWithoutCommitting() {
    Mono.from(
            database
                .getCollection("buckets_1m", BsonDocument.class)
                .createIndex(Indexes.ascending("sensor_id"), new IndexOptions().unique(true)))
        .block(DEADLINE);
    deliver(minute("sensor-1", START), minute("sensor-1", START + 60_000));

    assertThatThrownBy(sink::run)
        .isInstanceOf(BucketSinkException.class)
        .hasMessageContaining("sensor-1");
    assertThat(commits).isEmpty();
    assertThat(consumer.closed()).isTrue();
    assertThat(Flux.from(database.getCollection("buckets_1m").find()).count().block(DEADLINE))
        .isEqualTo(1);
  }

  @Test
  void theSinkSettingsOverridePassThroughProperties() {
    final Map<String, Object> properties =
        BucketSink.consumerProperties(
            SinkConfig.defaults(
                TOPIC,
                "group-a",
                Map.of(
                    "bootstrap.servers", "localhost:9092",
                    "enable.auto.commit", "true",
                    "isolation.level", "read_uncommitted",
                    "group.id", "other")));

    assertThat(properties)
        .containsEntry("bootstrap.servers", "localhost:9092")
        .containsEntry("enable.auto.commit", false)
        .containsEntry("isolation.level", "read_committed")
        .containsEntry("group.id", "group-a")
        .containsEntry("auto.offset.reset", "earliest");
  }
}
