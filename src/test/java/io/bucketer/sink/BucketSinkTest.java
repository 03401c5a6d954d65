package io.bucketer.sink;

import static io.bucketer.buckets.TestBuckets.HOUR;
import static io.bucketer.buckets.TestBuckets.MINUTE;
import static io.bucketer.buckets.TestBuckets.START;
import static io.bucketer.buckets.TestBuckets.bucket;
import static io.bucketer.buckets.TestBuckets.minute;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import com.mongodb.client.model.IndexOptions;
import com.mongodb.client.model.Indexes;
import com.mongodb.reactivestreams.client.MongoClient;
import com.mongodb.reactivestreams.client.MongoClients;
import com.mongodb.reactivestreams.client.MongoDatabase;
import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.backend.memory.MemoryBackend;
import io.bucketer.buckets.ClosedBucket;
import io.bucketer.buckets.Retention;
import io.bucketer.metrics.BucketerMetrics;
import io.bucketer.metrics.SinkMeters;
import io.bucketer.testing.CapturedLog;
import io.bucketer.testing.Meters;
import io.bucketer.topics.BucketKey;
import io.bucketer.topics.BucketerTopics;
import io.bucketer.topics.DeadLetterHeaders;
import io.bucketer.topics.TypedTopic;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.InvalidTopicException;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.bson.BsonDocument;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

/** The sink's loop against Kafka's mock clients and the in-JVM MongoDB stand-in (no broker). */
class BucketSinkTest {

  private static final String TOPIC = "buckets";
  private static final String DEAD_LETTERS = "dead-letters";
  private static final TopicPartition PARTITION = new TopicPartition(TOPIC, 0);
  private static final TypedTopic<String, ClosedBucket> BUCKETS =
      BucketerTopics.closedBuckets(TOPIC);
  private static final TypedTopic<byte[], byte[]> DEAD_LETTER_TOPIC =
      BucketerTopics.deadLetters(DEAD_LETTERS);
  private static final Duration DEADLINE = Duration.ofSeconds(20);

  /** What the sink did to Kafka, in order: "commit" and "flush". */
  private final List<String> events = new CopyOnWriteArrayList<>();

  private final List<Map<TopicPartition, OffsetAndMetadata>> commits = new CopyOnWriteArrayList<>();
  private final MockConsumer<byte[], byte[]> consumer =
      new MockConsumer<>("earliest") {
        @Override
        public synchronized void commitSync(final Map<TopicPartition, OffsetAndMetadata> offsets) {
          events.add("commit");
          commits.add(Map.copyOf(offsets));
          super.commitSync(offsets);
        }
      };

  /** Runs on the sink's thread when it flushes the dead letters, before they are acknowledged. */
  private volatile Consumer<MockProducer<byte[], byte[]>> beforeFlush = producer -> {};

  private final MockProducer<byte[], byte[]> producer =
      new MockProducer<>(
          false, null, DEAD_LETTER_TOPIC.keySerializer(), DEAD_LETTER_TOPIC.valueSerializer()) {
        @Override
        public void flush() {
          events.add("flush");
          beforeFlush.accept(this);
          super.flush();
        }
      };
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final List<String> refusedRegistrations = new ArrayList<>();
  private MongoServer server;
  private InetSocketAddress address;
  private MongoClient client;
  private MongoDatabase database;
  private MongoBucketWriter writer;
  private BucketSink sink;

  @BeforeEach
  void start() {
    registry
        .config()
        .onMeterRegistrationFailed((id, why) -> refusedRegistrations.add(id.getName()));
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
    writer =
        new MongoBucketWriter(database, "buckets_", List.of(MINUTE, HOUR), Retention.NONE, 100, 2);
    final SinkConfig config =
        new SinkConfig(
            TOPIC,
            DEAD_LETTERS,
            "sink",
            Map.of(),
            Duration.ofMillis(20),
            Duration.ofSeconds(2),
            Duration.ofMillis(20),
            Duration.ofMillis(100));
    // As the processor makes them: one BucketerMetrics, shared by the topology and the sink.
    final BucketerMetrics metrics = new BucketerMetrics(registry);
    sink = new BucketSink(config, consumer, producer, writer, metrics);
  }

  @Test
  void shouldShareTheProcessorsMetersAndRegisterNoneTwice() {
    // A sink that made its own BucketerMetrics registered the open-buckets gauge twice, and
    // Micrometer logged a warning at every start.
    assertThat(refusedRegistrations).isEmpty();
    assertThat(registry.find(BucketerMetrics.OPEN_BUCKETS).gauges()).hasSize(1);
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

  /** Assigns partition 0 and appends the buckets to it (null: a tombstone), on the poll thread. */
  private void deliver(final ClosedBucket... buckets) {
    consumer.schedulePollTask(
        () -> {
          consumer.rebalance(List.of(PARTITION));
          consumer.updateBeginningOffsets(Map.of(PARTITION, 0L));
          for (int i = 0; i < buckets.length; i++) {
            consumer.addRecord(record(i, buckets[i]));
          }
        });
  }

  private static ConsumerRecord<byte[], byte[]> record(final long offset, final ClosedBucket b) {
    final String key = b == null ? "tombstone" : BucketKey.of(b);
    return new ConsumerRecord<>(
        TOPIC,
        0,
        offset,
        BUCKETS.keySerializer().serialize(TOPIC, key),
        BUCKETS.valueSerializer().serialize(TOPIC, b));
  }

  private Long committedOffset() {
    final OffsetAndMetadata committed = consumer.committed(Set.of(PARTITION)).get(PARTITION);
    return committed == null ? null : committed.offset();
  }

  private long documentCount(final String collection) {
    return Mono.from(database.getCollection(collection).countDocuments()).block(DEADLINE);
  }

  private double meter(final String name) {
    return registry.get(name).meter().measure().iterator().next().getValue();
  }

  /** A unique index the sink never creates: every minute bucket of a sensor after its first. */
  private void rejectASecondMinuteOfOneSensor() {
    Mono.from(
            database
                .getCollection("buckets_1m", BsonDocument.class)
                .createIndex(Indexes.ascending("sensor_id"), new IndexOptions().unique(true)))
        .block(DEADLINE);
  }

  private static String header(final Headers headers, final String key) {
    return new String(headers.lastHeader(key).value(), StandardCharsets.UTF_8);
  }

  @Test
  void shouldWriteEachBatchThenCommitItAndCountIt() {
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
    assertThat(meter(BucketSink.RETRIES)).isZero();
    assertThat(meter(BucketSink.PENDING)).isZero();
    assertThat(producer.history()).isEmpty();

    sink.close();
    await().atMost(DEADLINE).until(loop::isDone);
    assertThat(loop).isCompleted();
    assertThat(consumer.closed()).isTrue();
    assertThat(producer.closed()).isTrue();
  }

  /**
   * The hour's bulk write of a batch fails on a network error after the minutes' was acknowledged:
   * the retry sends the hour alone. A MongoDB too slow for a whole batch within the write timeout
   * thus still takes part of it at each attempt.
   */
  @Test
  void shouldWriteAgainOnlyWhatMongoDbDidNotAcknowledge() {
    shutDownServer();
    final FaultyInserts backend =
        new FaultyInserts("buckets_1h", FaultyInserts.Fault.CLOSE_CONNECTION, 1);
    server = new MongoServer(backend);
    server.bind(address.getHostString(), address.getPort());
    deliver(
        minute("sensor-1", START),
        minute("sensor-2", START),
        bucket("sensor-1", null, HOUR, HOUR.windowStart(START), null, 1.0));
    CompletableFuture.runAsync(sink);

    await().atMost(DEADLINE).until(() -> Long.valueOf(3).equals(committedOffset()));
    // Every attempt after the first sent the hour alone (the driver may fail one more at once,
    // while its pool of the closed connection is cleared: that one sends nothing).
    assertThat(backend.insertsInto("buckets_1m")).as("the minutes, sent once").containsExactly(2);
    assertThat(backend.insertsInto("buckets_1h"))
        .as("the hour, failed then written")
        .hasSizeGreaterThanOrEqualTo(2)
        .containsOnly(1);
    assertThat(documentCount("buckets_1m")).isEqualTo(2);
    assertThat(documentCount("buckets_1h")).isEqualTo(1);
    assertThat(sink.bucketsWritten()).as("each bucket counted once").isEqualTo(3);
  }

  /** Its backlog: records of its partitions past what it read, as of its last poll. */
  @Test
  void shouldReportTheRecordsOfItsPartitionsItHasNotReadYet() {
    deliver(minute("sensor-1", START), minute("sensor-2", START));
    consumer.schedulePollTask(() -> consumer.updateEndOffsets(Map.of(PARTITION, 7L)));
    final CompletableFuture<Void> loop = CompletableFuture.runAsync(sink);

    await().atMost(DEADLINE).until(() -> Long.valueOf(2).equals(committedOffset()));
    await().atMost(DEADLINE).until(() -> meter(SinkMeters.LAG) == 5.0);

    sink.close();
    await().atMost(DEADLINE).until(loop::isDone);
  }

  @Test
  void shouldWaitForMongoDbBeforeConsumingWhenItIsDownAtStart() {
    shutDownServer();
    final CompletableFuture<Void> loop = CompletableFuture.runAsync(sink);

    await().atMost(DEADLINE).until(() -> meter(BucketSink.RETRIES) >= 2);
    assertThat(consumer.subscription()).isEmpty();

    server = new MongoServer(new MemoryBackend());
    server.bind(address.getHostString(), address.getPort());
    await().atMost(DEADLINE).until(() -> !consumer.subscription().isEmpty());
    deliver(minute("sensor-1", START));
    await().atMost(DEADLINE).until(() -> Long.valueOf(1).equals(committedOffset()));
    assertThat(documentCount("buckets_1m")).isEqualTo(1);

    sink.close();
    await().atMost(DEADLINE).until(loop::isDone);
  }

  @Test
  void shouldRetryWhileMongoIsDownWithPartitionsPausedAndCommitOnlyAfterwards() {
    final CompletableFuture<Void> loop = CompletableFuture.runAsync(sink);
    // The sink consumes once it has created its indexes; then MongoDB goes away.
    await().atMost(DEADLINE).until(() -> !consumer.subscription().isEmpty());
    shutDownServer();
    deliver(minute("sensor-1", START), minute("sensor-2", START));

    await()
        .atMost(DEADLINE)
        .until(() -> meter(BucketSink.RETRIES) >= 2 && consumer.paused().contains(PARTITION));
    assertThat(commits).isEmpty();
    assertThat(meter(BucketSink.PENDING)).isEqualTo(2);
    assertThat(registry.get(BucketSink.WRITE_LATENCY).tag("outcome", "retryable").timer().count())
        .isGreaterThanOrEqualTo(2);

    server = new MongoServer(new MemoryBackend());
    server.bind(address.getHostString(), address.getPort());

    await().atMost(DEADLINE).until(() -> Long.valueOf(2).equals(committedOffset()));
    assertThat(documentCount("buckets_1m")).isEqualTo(2);
    assertThat(consumer.paused()).isEmpty();
    assertThat(meter(BucketSink.PENDING)).isZero();
    assertThat(loop).isNotDone();
  }

  @Test
  void shouldSayOnceWhatStaysUncommittedWhenStoppedWhileMongoIsDown() {
    final CompletableFuture<Void> loop = CompletableFuture.runAsync(sink);
    await().atMost(DEADLINE).until(() -> !consumer.subscription().isEmpty());
    shutDownServer();
    deliver(minute("sensor-1", START), minute("sensor-2", START));
    await().atMost(DEADLINE).until(() -> meter(BucketSink.RETRIES) >= 1);

    final String log;
    try (CapturedLog captured = CapturedLog.of(Level.INFO, "io.bucketer.sink")) {
      // No time at all: the loop is told to stop and says what it leaves, or this call does.
      sink.close(Duration.ZERO);
      await().atMost(DEADLINE).until(loop::isDone);
      log = captured.text();
    }
    assertThat(commits).isEmpty();
    assertThat(log.lines().filter(line -> line.contains("not yet acknowledged by MongoDB")))
        .singleElement()
        .asString()
        .contains("stopping with 2 bucket(s)")
        .contains("uncommitted on buckets-0 up to offset 1")
        .contains("the next start writes them again");
  }

  @Test
  void shouldSendARejectedBucketToTheDeadLetterTopicAsItWasReadAndWriteTheRest() {
    rejectASecondMinuteOfOneSensor();
    final ClosedBucket first = minute("sensor-1", START);
    final ClosedBucket second = minute("sensor-1", START + 60_000);
    final ClosedBucket other = minute("sensor-2", START);
    beforeFlush = MockProducer::completeNext;
    deliver(first, second, other);
    final CompletableFuture<Void> loop = CompletableFuture.runAsync(sink);

    await().atMost(DEADLINE).until(() -> Long.valueOf(3).equals(committedOffset()));
    assertThat(producer.history())
        .singleElement()
        .satisfies(
            letter -> {
              final long offset =
                  Long.parseLong(header(letter.headers(), "bucketer.dlq.source.offset"));
              final ConsumerRecord<byte[], byte[]> original =
                  record(offset, offset == 0 ? first : second);
              assertThat(offset).isIn(0L, 1L);
              assertThat(letter.topic()).isEqualTo(DEAD_LETTERS);
              assertThat(letter.key()).isEqualTo(original.key());
              assertThat(letter.value()).isEqualTo(original.value());
              assertThat(header(letter.headers(), DeadLetterHeaders.REASON))
                  .isEqualTo("mongodb-rejected");
              assertThat(header(letter.headers(), DeadLetterHeaders.MESSAGE))
                  .startsWith("MongoDB rejected the bucket document: error 11000");
              assertThat(header(letter.headers(), DeadLetterHeaders.SOURCE_TOPIC)).isEqualTo(TOPIC);
              assertThat(header(letter.headers(), DeadLetterHeaders.SOURCE_PARTITION))
                  .isEqualTo("0");
            });
    assertThat(documentCount("buckets_1m")).isEqualTo(2);
    assertThat(events).containsExactly("flush", "commit");
    assertThat(Meters.count(registry, BucketerMetrics.DEAD_LETTERS, "reason", "mongodb-rejected"))
        .isEqualTo(1.0);
    assertThat(meter(BucketSink.RETRIES)).isZero();
    assertThat(loop).isNotDone();

    // The sink goes on: a later batch is written and committed.
    consumer.schedulePollTask(() -> consumer.addRecord(record(3, minute("sensor-3", START))));
    await().atMost(DEADLINE).until(() -> Long.valueOf(4).equals(committedOffset()));
    assertThat(documentCount("buckets_1m")).isEqualTo(3);
  }

  @Test
  void shouldCommitOnlyAfterKafkaAcknowledgedTheDeadLetters() {
    rejectASecondMinuteOfOneSensor();
    final CountDownLatch acknowledge = new CountDownLatch(1);
    beforeFlush =
        mock -> {
          try {
            acknowledge.await();
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
          mock.completeNext();
        };
    deliver(minute("sensor-1", START), minute("sensor-1", START + 60_000));
    CompletableFuture.runAsync(sink);

    // MongoDB took the rest, the letter is sent, Kafka has not acknowledged it: no commit.
    await().atMost(DEADLINE).until(() -> events.contains("flush"));
    assertThat(documentCount("buckets_1m")).isEqualTo(1);
    assertThat(producer.history()).hasSize(1);
    assertThat(commits).isEmpty();

    acknowledge.countDown();
    await().atMost(DEADLINE).until(() -> Long.valueOf(2).equals(committedOffset()));
  }

  @Test
  void shouldStopWithoutCommittingWhenKafkaRefusesADeadLetter() {
    rejectASecondMinuteOfOneSensor();
    beforeFlush = mock -> mock.errorNext(new InvalidTopicException("no such topic"));
    deliver(minute("sensor-1", START), minute("sensor-1", START + 60_000));

    assertThatThrownBy(sink::run)
        .isInstanceOf(BucketSinkException.class)
        .hasMessageContaining(DEAD_LETTERS)
        .hasRootCauseInstanceOf(InvalidTopicException.class);
    assertThat(commits).isEmpty();
    assertThat(consumer.closed()).isTrue();
    assertThat(producer.closed()).isTrue();
  }

  @Test
  void shouldStopWithoutCommittingOnARecordThatIsNotABucket() {
    consumer.schedulePollTask(
        () -> {
          consumer.rebalance(List.of(PARTITION));
          consumer.updateBeginningOffsets(Map.of(PARTITION, 0L));
          consumer.addRecord(new ConsumerRecord<>(TOPIC, 0, 0, new byte[] {1}, new byte[] {9}));
        });

    assertThatThrownBy(sink::run)
        .isInstanceOf(BucketSinkException.class)
        .hasMessageContaining("buckets-0 offset 0");
    assertThat(commits).isEmpty();
    assertThat(documentCount("buckets_1m")).isZero();
  }

  /**
   * A bucket record's timestamp is its window's time, which may be older than the dead-letter
   * topic's retention: the letter is stamped by the producer when set aside, the original's time in
   * a header.
   */
  @Test
  void shouldStampADeadLetterWhenSetAsideAndKeepTheOriginalsTimestampInAHeader() {
    final ConsumerRecord<byte[], byte[]> original =
        new ConsumerRecord<>(
            TOPIC,
            2,
            7,
            1_700_000_000_000L,
            TimestampType.CREATE_TIME,
            1,
            1,
            new byte[] {1},
            new byte[] {2},
            new RecordHeaders(),
            Optional.empty());
    final RejectedBucketDeadLetters letters =
        new RejectedBucketDeadLetters(producer, DEAD_LETTERS, new BucketerMetrics(registry));

    letters.send(original, "why");

    assertThat(producer.history())
        .singleElement()
        .satisfies(
            sent -> {
              assertThat(sent.timestamp()).as("the producer's clock").isNull();
              assertThat(header(sent.headers(), DeadLetterHeaders.SOURCE_TIMESTAMP))
                  .isEqualTo("1700000000000");
              assertThat(header(sent.headers(), DeadLetterHeaders.SOURCE_PARTITION)).isEqualTo("2");
              assertThat(header(sent.headers(), DeadLetterHeaders.SOURCE_OFFSET)).isEqualTo("7");
            });
  }
}
