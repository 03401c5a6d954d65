package io.bucketer.sink;

import static io.bucketer.buckets.TestBuckets.HOUR;
import static io.bucketer.buckets.TestBuckets.MINUTE;
import static io.bucketer.buckets.TestBuckets.START;
import static io.bucketer.buckets.TestBuckets.bucket;
import static io.bucketer.buckets.TestBuckets.minute;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.mongodb.ConnectionString;
import com.mongodb.MongoClientSettings;
import com.mongodb.WriteConcern;
import com.mongodb.client.model.IndexOptions;
import com.mongodb.client.model.Indexes;
import com.mongodb.client.model.ReplaceOneModel;
import com.mongodb.client.model.WriteModel;
import com.mongodb.reactivestreams.client.MongoClient;
import com.mongodb.reactivestreams.client.MongoClients;
import com.mongodb.reactivestreams.client.MongoCollection;
import com.mongodb.reactivestreams.client.MongoDatabase;
import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.backend.memory.MemoryBackend;
import io.bucketer.buckets.ClosedBucket;
import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.Retention;
import io.bucketer.testing.CuttableTcpProxy;
import io.bucketer.topics.BucketKey;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.bson.BsonDocument;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

class MongoBucketWriterTest {

  private static final Duration TIMEOUT = Duration.ofSeconds(10);
  private static final List<Granularity> GRANULARITIES = List.of(MINUTE, HOUR);
  private static final Duration PING_TIMEOUT = Duration.ofMillis(800);

  private MongoServer server;
  private MongoClient client;
  private MongoDatabase database;
  private MongoBucketWriter writer;

  @BeforeEach
  void startServer() {
    server = new MongoServer(new MemoryBackend());
    final InetSocketAddress address = server.bind();
    client = MongoClients.create(settings(address));
    database = client.getDatabase("bucketer");
    writer = new MongoBucketWriter(database, "buckets_", GRANULARITIES, Retention.NONE, 10, 4);
  }

  @AfterEach
  void stopServer() throws Exception {
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

  /** Short timeouts so an unreachable server fails fast; no ServerApi (the stand-in lacks it). */
  private static MongoClientSettings settings(final InetSocketAddress address) {
    return MongoClientSettings.builder()
        .applyConnectionString(
            new ConnectionString("mongodb://" + address.getHostString() + ":" + address.getPort()))
        .applyToClusterSettings(c -> c.serverSelectionTimeout(500, TimeUnit.MILLISECONDS))
        .applyToSocketSettings(s -> s.connectTimeout(500, TimeUnit.MILLISECONDS))
        .build();
  }

  private MongoCollection<BsonDocument> collection(final String name) {
    return database.getCollection(name, BsonDocument.class);
  }

  private List<BsonDocument> documents(final String name) {
    return Flux.from(collection(name).find().sort(Indexes.ascending("sensor_id", "start_date")))
        .collectList()
        .block(TIMEOUT);
  }

  @Test
  void shouldWriteOneDocumentPerBucketIntoItsGranularitysCollection() {
    final ClosedBucket minute = bucket("sensor-1", "temperature", MINUTE, START, 60, 20.5, 22.5);
    final ClosedBucket hour = bucket("sensor-1", null, HOUR, HOUR.windowStart(START), null, 4.0);

    writer.write(List.of(minute, hour), TIMEOUT);

    // The document's layout is BucketDocumentsTest's; here: one each, in its own collection.
    assertThat(documents("buckets_1m")).containsExactly(BucketDocuments.toDocument(minute));
    assertThat(documents("buckets_1h")).containsExactly(BucketDocuments.toDocument(hour));
  }

  @Test
  void shouldWriteManyBucketsAcrossChunks() {
    final List<ClosedBucket> buckets = new ArrayList<>();
    for (int i = 0; i < 25; i++) {
      buckets.add(minute("sensor-1", START + i * 60_000L));
    }

    assertThat(writer.chunks(buckets))
        .extracting(c -> c.models().size())
        .containsExactly(10, 10, 5);
    writer.write(buckets, TIMEOUT);

    assertThat(documents("buckets_1m"))
        .containsExactlyElementsOf(buckets.stream().map(BucketDocuments::toDocument).toList());
  }

  /**
   * A TTL index on end_date per granularity with a retention, its expireAfterSeconds following the
   * setting; none where there is none. The stand-in keeps the index but never expires anything:
   * expiry itself is ContainersRetentionIT's, against a real mongod.
   */
  @Test
  void shouldKeepATtlIndexPerRetainedGranularityInLineWithTheSetting() {
    withRetention("1m=30d").ensureIndexes(TIMEOUT);
    assertThat(ttlSeconds("buckets_1m")).contains(30L * 86_400);
    assertThat(ttlSeconds("buckets_1h")).isEmpty();

    withRetention("1m=7d,1h=400d").ensureIndexes(TIMEOUT);
    assertThat(ttlSeconds("buckets_1m")).contains(7L * 86_400);
    assertThat(ttlSeconds("buckets_1h")).contains(400L * 86_400);

    withRetention("1h=400d").ensureIndexes(TIMEOUT);
    assertThat(ttlSeconds("buckets_1m")).isEmpty();
    assertThat(ttlSeconds("buckets_1h")).contains(400L * 86_400);
    // the series/time index is not a TTL index and stays
    assertThat(indexNames("buckets_1m")).contains("sensor_id_metric_start_date");
  }

  private MongoBucketWriter withRetention(final String retention) {
    return new MongoBucketWriter(
        database, "buckets_", GRANULARITIES, Retention.parse(retention, GRANULARITIES), 10, 4);
  }

  private Optional<Long> ttlSeconds(final String collection) {
    return indexes(collection).stream()
        .filter(i -> i.getString("name").getValue().equals("end_date_ttl"))
        .peek(i -> assertThat(i.getDocument("key").toJson()).isEqualTo("{\"end_date\": 1}"))
        .map(i -> i.getNumber("expireAfterSeconds").longValue())
        .findFirst();
  }

  private List<String> indexNames(final String collection) {
    return indexes(collection).stream().map(i -> i.getString("name").getValue()).toList();
  }

  private List<BsonDocument> indexes(final String collection) {
    return Flux.from(collection(collection).listIndexes(BsonDocument.class))
        .collectList()
        .block(TIMEOUT);
  }

  @Test
  void shouldCreateTheSeriesTimeIndexOnEveryCollection() {
    writer.ensureIndexes(TIMEOUT);
    writer.ensureIndexes(TIMEOUT);

    for (final String name : List.of("buckets_1m", "buckets_1h")) {
      final List<BsonDocument> indexes =
          Flux.from(collection(name).listIndexes(BsonDocument.class)).collectList().block(TIMEOUT);
      assertThat(indexes)
          .filteredOn(i -> i.getString("name").getValue().equals("sensor_id_metric_start_date"))
          .singleElement()
          .satisfies(
              i ->
                  assertThat(i.getDocument("key").toJson())
                      .isEqualTo(
                          BsonDocument.parse("{sensor_id: 1, metric: 1, start_date: 1}").toJson()));
    }
  }

  @Test
  void shouldLeaveIdenticalDocumentsWhenTheSameBucketsAreWrittenTwice() {
    final List<ClosedBucket> buckets =
        List.of(
            minute("sensor-1", START),
            minute("sensor-2", START),
            minute("sensor-1", START + 60_000));
    writer.write(buckets, TIMEOUT);
    final List<BsonDocument> first = documents("buckets_1m");

    writer.write(buckets, TIMEOUT);

    assertThat(first).hasSize(3);
    assertThat(documents("buckets_1m")).containsExactlyInAnyOrderElementsOf(first);
  }

  @Test
  void shouldKeepTheLastBucketOfADuplicateIdInOneCall() {
    final ClosedBucket older = bucket("sensor-1", "temperature", MINUTE, START, null, 1.0);
    final ClosedBucket newer = bucket("sensor-1", "temperature", MINUTE, START, null, 1.0, 2.0);
    final ClosedBucket other = minute("sensor-2", START);

    assertThat(writer.chunks(List.of(older, other, newer)))
        .singleElement()
        .satisfies(c -> assertThat(c.buckets()).containsExactlyInAnyOrder(newer, other));
    writer.write(List.of(older, other, newer), TIMEOUT);

    assertThat(documents("buckets_1m"))
        .containsExactlyInAnyOrder(
            BucketDocuments.toDocument(newer), BucketDocuments.toDocument(other));
  }

  @Test
  void shouldCallAnUnreachableServerRetryable() {
    shutDownServer();

    assertThatThrownBy(() -> writer.write(List.of(minute("sensor-1", START)), TIMEOUT))
        .isInstanceOfSatisfying(
            BucketWriteException.class,
            e -> {
              assertThat(e.isRetryable()).isTrue();
              assertThat(e.rejectedBucketKeys()).isEmpty();
            });
  }

  @Test
  void shouldCallAWriteThatOutlivesItsTimeoutRetryable() throws Exception {
    // The kernel accepts connections to this socket, but nothing ever answers: the write hangs
    // until the writer's own timeout (50 ms), long before server selection gives up (500 ms).
    try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        MongoClient silentClient =
            MongoClients.create(
                settings(new InetSocketAddress(silent.getInetAddress(), silent.getLocalPort())));
        MongoBucketWriter hanging =
            new MongoBucketWriter(
                silentClient.getDatabase("bucketer"),
                "buckets_",
                GRANULARITIES,
                Retention.NONE,
                10,
                4)) {

      assertThatThrownBy(
              () -> hanging.write(List.of(minute("sensor-1", START)), Duration.ofMillis(50)))
          .isInstanceOfSatisfying(
              BucketWriteException.class, e -> assertThat(e.isRetryable()).isTrue())
          .hasMessageContaining("not acknowledged within PT0.05S");
    }
  }

  /**
   * One write of minutes and an hour, the hour's bulk write failed: by a network error, or by no
   * answer within the timeout. The failure names the minutes, which MongoDB acknowledged, so that
   * the sink writes only the hour again.
   */
  @ParameterizedTest
  @EnumSource(FaultyInserts.Fault.class)
  void shouldNameTheBucketsMongoDbAcknowledgedWhenAnotherBulkWriteFails(
      final FaultyInserts.Fault fault) {
    final FaultyInserts backend = new FaultyInserts("buckets_1h", fault, 1);
    final MongoServer faulty = new MongoServer(backend);
    final InetSocketAddress address = faulty.bind();
    final ClosedBucket first = minute("sensor-1", START);
    final ClosedBucket second = minute("sensor-2", START);
    final ClosedBucket hour = bucket("sensor-1", null, HOUR, HOUR.windowStart(START), null, 4.0);
    try (MongoClient faultyClient = MongoClients.create(settings(address));
        // One bulk write at a time: the minutes' is acknowledged before the hour's is sent.
        MongoBucketWriter oneAtATime =
            new MongoBucketWriter(
                faultyClient.getDatabase("bucketer"),
                "buckets_",
                GRANULARITIES,
                Retention.NONE,
                10,
                1)) {

      assertThatThrownBy(
              () -> oneAtATime.write(List.of(first, second, hour), Duration.ofSeconds(3)))
          .isInstanceOfSatisfying(
              BucketWriteException.class,
              e -> {
                assertThat(e.isRetryable()).isTrue();
                assertThat(e.acknowledgedBucketKeys())
                    .containsExactlyInAnyOrder(BucketKey.of(first), BucketKey.of(second));
              });
      backend.release();
      assertThat(backend.insertsInto("buckets_1m")).containsExactly(2);
    } finally {
      backend.release();
      faulty.shutdownNow();
    }
  }

  @Test
  void shouldCallADocumentMongoDbRejectsADataErrorNamingTheBucket() {
    // A unique index the sink never creates, only to make the server reject one document.
    Mono.from(
            collection("buckets_1m")
                .createIndex(Indexes.ascending("sensor_id"), new IndexOptions().unique(true)))
        .block(TIMEOUT);
    final ClosedBucket first = minute("sensor-1", START);
    final ClosedBucket second = minute("sensor-1", START + 60_000);

    assertThatThrownBy(() -> writer.write(List.of(first, second), TIMEOUT))
        .isInstanceOfSatisfying(
            BucketWriteException.class,
            e -> {
              assertThat(e.isRetryable()).isFalse();
              assertThat(e.rejectedBucketKeys())
                  .singleElement()
                  .isIn(BucketKey.of(first), BucketKey.of(second));
              assertThat(e.rejectionReason(e.rejectedBucketKeys().get(0)))
                  .startsWith("error 11000: ")
                  .contains("duplicate key");
            });
    assertThat(documents("buckets_1m")).hasSize(1);
  }

  @Test
  void shouldCallADocumentOverTheSizeLimitADataError() {
    // 400,000 measurements encode to about 18 MB, over MongoDB's 16 MB document limit.
    final ClosedBucket huge = bucket("sensor-1", null, MINUTE, START, null, new double[400_000]);

    assertThatThrownBy(() -> writer.write(List.of(huge), TIMEOUT))
        .isInstanceOfSatisfying(
            BucketWriteException.class,
            e -> {
              assertThat(e.isRetryable()).isFalse();
              assertThat(e.rejectedBucketKeys()).containsExactly(BucketKey.of(huge));
            });
  }

  @Test
  void shouldCallABucketOfAnUnconfiguredGranularityADataError() {
    final ClosedBucket day =
        bucket("sensor-1", null, Granularity.parse("1d"), 1_699_920_000_000L, null, 1.0);

    assertThatThrownBy(() -> writer.write(List.of(minute("sensor-1", START), day), TIMEOUT))
        .isInstanceOfSatisfying(
            BucketWriteException.class,
            e -> {
              assertThat(e.isRetryable()).isFalse();
              assertThat(e.rejectedBucketKeys()).containsExactly(BucketKey.of(day));
            });
  }

  @Test
  void shouldRefuseAnUnacknowledgedWriteConcern() {
    final MongoDatabase unacknowledged = database.withWriteConcern(WriteConcern.UNACKNOWLEDGED);

    assertThatThrownBy(
            () ->
                new MongoBucketWriter(
                    unacknowledged, "buckets_", GRANULARITIES, Retention.NONE, 10, 4))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("acknowledged");
  }

  @Test
  void shouldCreateAWriterWithItsOwnClientOnConnect() {
    final InetSocketAddress address = server.getLocalAddress();
    try (MongoBucketWriter connected =
        MongoBucketWriter.connect(
            MongoConnection.of("mongodb://" + address.getHostString() + ":" + address.getPort()),
            "bucketer",
            "buckets_",
            GRANULARITIES,
            Retention.NONE,
            10,
            4,
            TIMEOUT)) {
      connected.write(List.of(minute("sensor-9", START)), TIMEOUT);
    }

    assertThat(documents("buckets_1m"))
        .containsExactly(BucketDocuments.toDocument(minute("sensor-9", START)));
  }

  @Test
  void shouldNameTheServerAndWhyItDoesNotAnswerAPing() throws Exception {
    final int closedPort;
    try (ServerSocket nothingListens = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      closedPort = nothingListens.getLocalPort();
    }
    try (MongoBucketWriter refused = connect(closedPort)) {
      await()
          .atMost(TIMEOUT)
          .until(
              () ->
                  refused
                      .pingFailure(PING_TIMEOUT)
                      .equals(
                          Optional.of(
                              "MongoDB 127.0.0.1:"
                                  + closedPort
                                  + ": unreachable: Connection refused (no answer to a ping"
                                  + " within 800 ms)")));
    }
  }

  @Test
  void shouldSayAServerThatAcceptsButNeverAnswersIsNotAnswering() throws Exception {
    // The kernel accepts connections to this socket, but nothing ever answers.
    try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        MongoBucketWriter hanging = connect(silent.getLocalPort())) {
      await()
          .atMost(TIMEOUT)
          .until(
              () ->
                  hanging
                      .pingFailure(PING_TIMEOUT)
                      .equals(
                          Optional.of(
                              "MongoDB 127.0.0.1:"
                                  + silent.getLocalPort()
                                  + ": not answering: the connection opened but no reply came in"
                                  + " time (no answer to a ping within 800 ms)")));
    }
  }

  @Test
  void shouldSayUnreachableWhileTheConnectionIsClosedOnArrivalAndNothingOnceItIsBack() {
    final InetSocketAddress address = server.getLocalAddress();
    try (CuttableTcpProxy proxy = CuttableTcpProxy.start("127.0.0.1", address.getPort());
        MongoBucketWriter throughProxy = connect(proxy.port())) {
      assertThat(throughProxy.pingFailure(PING_TIMEOUT)).isEmpty();

      proxy.cut();

      await()
          .atMost(TIMEOUT)
          .until(
              () ->
                  throughProxy
                      .pingFailure(PING_TIMEOUT)
                      .equals(
                          Optional.of(
                              "MongoDB 127.0.0.1:"
                                  + proxy.port()
                                  + ": unreachable: the connection was closed before MongoDB"
                                  + " answered (no answer to a ping within 800 ms)")));

      proxy.restore();

      await().atMost(TIMEOUT).until(() -> throughProxy.pingFailure(PING_TIMEOUT).isEmpty());
    }
  }

  @Test
  void shouldRefuseWritesOnceClosed() {
    writer.close();

    assertThatThrownBy(() -> writer.write(List.of(minute("sensor-1", START)), TIMEOUT))
        .isInstanceOf(IllegalStateException.class);
  }

  /** A writer with its own client on {@code 127.0.0.1:port}, short timeouts. */
  private static MongoBucketWriter connect(final int port) {
    return MongoBucketWriter.connect(
        MongoConnection.of(
            "mongodb://127.0.0.1:"
                + port
                + "/?serverSelectionTimeoutMS=1000&connectTimeoutMS=1000&socketTimeoutMS=2000"),
        "bucketer",
        "buckets_",
        GRANULARITIES,
        Retention.NONE,
        10,
        4,
        TIMEOUT);
  }

  private static ClosedBucket revision(
      final ClosedBucket bucket, final int revision, final double value) {
    return bucket("sensor-r", null, MINUTE, START, null, value).atRevision(revision);
  }

  @Test
  void shouldKeepTheHighestRevisionWhateverOrderTheyArriveIn() {
    final ClosedBucket base = minute("sensor-r", START);
    writer.write(List.of(revision(base, 1, 10.0)), TIMEOUT);
    writer.write(List.of(revision(base, 0, 5.0)), TIMEOUT); // a replay of the first close
    writer.write(List.of(revision(base, 1, 10.0)), TIMEOUT); // the same revision again

    assertThat(documents("buckets_1m"))
        .singleElement()
        .satisfies(
            document -> {
              assertThat(document.getInt32("revision").getValue()).isEqualTo(1);
              assertThat(document.getDouble("sum").getValue()).isEqualTo(10.0);
            });

    writer.write(List.of(revision(base, 2, 20.0)), TIMEOUT);
    assertThat(documents("buckets_1m"))
        .singleElement()
        .satisfies(document -> assertThat(document.getInt32("revision").getValue()).isEqualTo(2));
  }

  /** A collection sharded on {sensor_id, metric, start_date} takes an upsert only with them. */
  @Test
  void shouldPutTheSeriesAndStartInEveryUpsertFilter() {
    final ClosedBucket late = revision(minute("sensor-r", START), 1, 10.0);

    final WriteModel<BsonDocument> model = writer.chunks(List.of(late)).get(0).models().get(0);

    assertThat(model).isInstanceOf(ReplaceOneModel.class);
    final BsonDocument filter = (BsonDocument) ((ReplaceOneModel<BsonDocument>) model).getFilter();
    assertThat(filter.keySet())
        .containsExactly("_id", "sensor_id", "metric", "start_date", "revision");
    assertThat(filter.getString("sensor_id").getValue()).isEqualTo("sensor-r");
    assertThat(filter.getDateTime("start_date").getValue()).isEqualTo(START);
  }

  @Test
  void shouldKeepTheHighestRevisionOfOneBucketWithinOneCall() {
    final ClosedBucket base = minute("sensor-r", START);
    writer.write(List.of(revision(base, 3, 30.0), revision(base, 2, 20.0)), TIMEOUT);

    assertThat(documents("buckets_1m"))
        .singleElement()
        .satisfies(document -> assertThat(document.getInt32("revision").getValue()).isEqualTo(3));
  }

  @Test
  void shouldSayWhichBucketsChangedNothing() {
    // revision() makes buckets of sensor-r
    final ClosedBucket base = minute("sensor-r", START);
    final ClosedBucket first = revision(base, 1, 10.0);
    final ClosedBucket other = minute("sensor-v", START);

    assertThat(writer.write(List.of(first, other), TIMEOUT).unchanged()).isEmpty();

    // The same again, an older revision, and a newer one beside an older one in one call.
    assertThat(writer.write(List.of(first, other), TIMEOUT).unchanged())
        .containsExactly(first, other);
    assertThat(writer.write(List.of(revision(base, 0, 5.0)), TIMEOUT).unchanged()).hasSize(1);
    final ClosedBucket older = revision(base, 2, 20.0);
    final ClosedBucket newer = revision(base, 3, 30.0);
    assertThat(writer.write(List.of(older, newer), TIMEOUT).unchanged()).containsExactly(older);
    assertThat(documents("buckets_1m"))
        .filteredOn(document -> document.getString("sensor_id").getValue().equals("sensor-r"))
        .singleElement()
        .satisfies(document -> assertThat(document.getInt32("revision").getValue()).isEqualTo(3));
  }
}
