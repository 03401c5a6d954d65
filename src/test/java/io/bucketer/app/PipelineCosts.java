package io.bucketer.app;

import com.mongodb.ConnectionString;
import com.mongodb.MongoClientSettings;
import com.mongodb.reactivestreams.client.MongoClient;
import com.mongodb.reactivestreams.client.MongoClients;
import com.mongodb.reactivestreams.client.MongoDatabase;
import io.bucketer.avro.Reading;
import io.bucketer.buckets.BucketDocumentNames;
import io.bucketer.buckets.ClosedBucket;
import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.SeriesKey;
import io.bucketer.config.BucketerConfig;
import io.bucketer.embedded.EmbeddedMongoServer;
import io.bucketer.ingest.ReadingDecoder;
import io.bucketer.metrics.BucketerMetrics;
import io.bucketer.metrics.BucketerMetrics.StateOperation;
import io.bucketer.query.LiveWindows;
import io.bucketer.query.SeriesQueries;
import io.bucketer.query.StoredBuckets;
import io.bucketer.sink.MongoBucketWriter;
import io.bucketer.testing.FramedReadings;
import io.bucketer.testing.Meters;
import io.bucketer.topics.BucketKey;
import io.bucketer.topics.BucketerTopics;
import io.bucketer.topics.TypedTopic;
import io.bucketer.topology.BucketTopology;
import io.bucketer.topology.InputPartitioning;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyTestDriver;
import org.bson.RawBsonDocument;
import reactor.core.publisher.Flux;

/**
 * Runs readings through the processor as {@code bucketer run} builds it with the default settings
 * ({@link BucketerApp#topologySettings}, {@link BucketerApp#streamsProperties}) under Kafka's
 * {@code TopologyTestDriver}, writes the buckets it closes with the sink's writer to the in-JVM
 * MongoDB stand-in, asks the query layer about one series, and counts what each step cost. No
 * broker, nothing timed: the same readings give the same counts on any machine.
 *
 * <p>The sink is given, after each input record, the buckets that record's commit released, in one
 * call of {@link MongoBucketWriter#write}: a sink that keeps up polls what each commit made visible
 * (the bench's sink writes about one document per write command). The sink's loop around the writer
 * (poll, commit offsets) sends nothing to MongoDB.
 *
 * <p>It sits in the app package to build the topology from the settings {@link BucketerApp}
 * derives, package-private there, so that the guard measures what {@code run} runs.
 */
final class PipelineCosts {

  /**
   * What one run cost, as counts; {@link #perReading} divides by the input records.
   *
   * @param readings input records sent, resent ones included
   * @param kafkaRecords records written to each topic, internal ones named without the application
   *     id ({@code readings-by-series-repartition}); the configured output topics are listed with 0
   *     when nothing was written to them
   * @param sinkBatches calls of the sink's writer, each with the buckets of one commit
   * @param storedBytes BSON bytes of the bucket documents stored
   * @param readingsInBuckets readings counted in the newest revision of every bucket, by
   *     granularity: every reading once in each, or the run lost or doubled some
   */
  record Costs(
      long readings,
      Map<String, Long> kafkaRecords,
      Map<StateOperation, Long> stateOperations,
      long sinkBatches,
      long mongoWriteCommands,
      long mongoDocumentsWritten,
      long storedDocuments,
      long storedBytes,
      Map<String, Long> documentsRead,
      Map<Granularity, Long> readingsInBuckets) {

    double perReading(final long count) {
      return count / (double) readings;
    }

    long kafkaRecords(final String topic) {
      return kafkaRecords.getOrDefault(topic, 0L);
    }
  }

  /**
   * What the run adds to the processor, for a test that shows a costlier processor would fail the
   * guard: processors and stores added to the built topology, and a step after each sink batch.
   */
  record Variant(
      BiConsumer<Topology, BucketerMetrics> topology, Consumer<MongoDatabase> afterSinkBatch) {

    static final Variant NONE = new Variant((topology, metrics) -> {}, database -> {});
  }

  /** A question to the query layer: one series' statistics over {@code [from, to)}. */
  record Question(String name, SeriesKey series, Instant from, Instant to) {}

  private static final int SCHEMA_ID = 1;
  private static final Duration TIMEOUT = Duration.ofSeconds(30);

  private final BucketerConfig config;
  private final Path stateDir;

  PipelineCosts(final BucketerConfig config, final Path stateDir) {
    this.config = config;
    this.stateDir = stateDir;
  }

  /**
   * Sends {@code readings} in order with the test driver's wall clock at {@code wallClock}, then
   * moves the wall clock past the idle timeout, which closes every window still open; then asks
   * {@code questions} of MongoDB alone (no open windows are left to read).
   */
  Costs run(
      final List<Reading> readings,
      final Instant wallClock,
      final List<Question> questions,
      final Variant variant) {
    final MeterRegistry registry = new SimpleMeterRegistry();
    final BucketerMetrics metrics = new BucketerMetrics(registry);
    final Topology topology =
        BucketTopology.build(
            BucketerApp.topologySettings(
                config, new InputPartitioning.BySeries(config.seriesPartitions())),
            () -> new ReadingDecoder(id -> Reading.getClassSchema()),
            metrics);
    variant.topology().accept(topology, metrics);
    final MongoWriteCommands commands = new MongoWriteCommands();
    try (EmbeddedMongoServer server = EmbeddedMongoServer.start();
        MongoClient client = client(server, commands);
        TopologyTestDriver driver =
            new TopologyTestDriver(topology, streamsProperties(), wallClock);
        MongoBucketWriter writer = writer(client.getDatabase(config.mongoDatabase()))) {
      writer.ensureIndexes(TIMEOUT);
      commands.reset();
      final Sink sink = new Sink(driver, writer, variant.afterSinkBatch());
      final TypedTopic<byte[], byte[]> inputTopic = BucketerTopics.input(config.inputTopic());
      final TestInputTopic<byte[], byte[]> input =
          driver.createInputTopic(
              inputTopic.name(), inputTopic.keySerializer(), inputTopic.valueSerializer());
      for (final Reading reading : readings) {
        input.pipeInput(
            reading.getSensorId().getBytes(StandardCharsets.UTF_8),
            FramedReadings.frame(reading, SCHEMA_ID),
            reading.getTimestamp());
        sink.writeWhatWasCommitted();
      }
      driver.advanceWallClockTime(config.idleTimeout().plusSeconds(1));
      sink.writeWhatWasCommitted();

      final MongoDatabase database = writer.database();
      final Map<StateOperation, Long> operations = new EnumMap<>(StateOperation.class);
      for (final StateOperation operation : StateOperation.values()) {
        operations.put(
            operation,
            (long)
                Meters.count(
                    registry, BucketerMetrics.STATE_OPERATIONS, "operation", operation.tag()));
      }
      final Stored stored = stored(database);
      return new Costs(
          readings.size(),
          kafkaRecords(driver, sink.bucketRecords),
          operations,
          sink.batches,
          commands.commands(),
          commands.documents(),
          stored.documents(),
          stored.bytes(),
          documentsRead(database, questions),
          sink.readingsInBuckets());
    }
  }

  /** The sink's part: what each commit released to the buckets topic, written as one batch. */
  private final class Sink {
    private final TestOutputTopic<String, ClosedBucket> buckets;
    private final MongoBucketWriter writer;
    private final Consumer<MongoDatabase> afterBatch;
    private final Map<String, ClosedBucket> newestByKey = new HashMap<>();
    private long batches;
    private long bucketRecords;

    Sink(
        final TopologyTestDriver driver,
        final MongoBucketWriter writer,
        final Consumer<MongoDatabase> afterBatch) {
      final TypedTopic<String, ClosedBucket> topic =
          BucketerTopics.closedBuckets(config.bucketsTopic());
      this.buckets =
          driver.createOutputTopic(
              topic.name(), topic.keyDeserializer(), topic.valueDeserializer());
      this.writer = writer;
      this.afterBatch = afterBatch;
    }

    void writeWhatWasCommitted() {
      final List<ClosedBucket> batch = buckets.readValuesToList();
      if (batch.isEmpty()) {
        return;
      }
      writer.write(batch, TIMEOUT);
      afterBatch.accept(writer.database());
      batches++;
      bucketRecords += batch.size();
      for (final ClosedBucket bucket : batch) {
        newestByKey.merge(
            BucketKey.of(bucket),
            bucket,
            (older, newer) -> newer.revision() >= older.revision() ? newer : older);
      }
    }

    Map<Granularity, Long> readingsInBuckets() {
      final Map<Granularity, Long> readings = new TreeMap<>();
      newestByKey
          .values()
          .forEach(b -> readings.merge(b.granularity(), b.stats().count(), Long::sum));
      return readings;
    }
  }

  /**
   * Records written to each topic, the buckets topic's as the sink read them: the driver keeps each
   * topic's records until read. Internal topics without the application id.
   */
  private Map<String, Long> kafkaRecords(final TopologyTestDriver driver, final long buckets) {
    final Map<String, Long> records = new TreeMap<>();
    records.put(config.deadLetterTopic(), 0L);
    for (final String topic : driver.producedTopicNames()) {
      final long written =
          driver
              .createOutputTopic(topic, new ByteArrayDeserializer(), new ByteArrayDeserializer())
              .getQueueSize();
      records.put(shortName(topic), written);
    }
    records.put(config.bucketsTopic(), buckets);
    return records;
  }

  private String shortName(final String topic) {
    final String prefix = config.applicationId() + "-";
    return topic.startsWith(prefix) ? topic.substring(prefix.length()) : topic;
  }

  private record Stored(long documents, long bytes) {}

  /** Documents and their BSON bytes in the bucket collections, as MongoDB returns them. */
  private Stored stored(final MongoDatabase database) {
    long documents = 0;
    long bytes = 0;
    for (final Granularity granularity : config.granularities()) {
      final String collection =
          BucketDocumentNames.collectionName(config.collectionPrefix(), granularity);
      for (final RawBsonDocument document :
          Flux.from(database.getCollection(collection, RawBsonDocument.class).find())
              .toIterable()) {
        documents++;
        bytes += document.getByteBuffer().remaining();
      }
    }
    return new Stored(documents, bytes);
  }

  /** The documents the query layer reports it read from MongoDB for each question. */
  private Map<String, Long> documentsRead(
      final MongoDatabase database, final List<Question> questions) {
    final SeriesQueries queries =
        new SeriesQueries(
            new StoredBuckets(
                database, config.collectionPrefix(), config.granularities(), TIMEOUT));
    final Map<String, Long> read = new LinkedHashMap<>();
    for (final Question question : questions) {
      read.put(
          question.name(),
          queries
              .statistics(
                  question.series(),
                  question.from().toEpochMilli(),
                  question.to().toEpochMilli(),
                  LiveWindows.NONE)
              .documentsRead());
    }
    return read;
  }

  private Properties streamsProperties() {
    final Properties properties = BucketerApp.streamsProperties(config, null);
    properties.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
    return properties;
  }

  private MongoBucketWriter writer(final MongoDatabase database) {
    return new MongoBucketWriter(
        database,
        config.collectionPrefix(),
        config.granularities(),
        config.retention(),
        config.sinkBatchSize(),
        config.sinkWritesInFlight());
  }

  private static MongoClient client(
      final EmbeddedMongoServer server, final MongoWriteCommands commands) {
    return MongoClients.create(
        MongoClientSettings.builder()
            .applyConnectionString(new ConnectionString(server.connectionString()))
            .addCommandListener(commands)
            .build());
  }
}
