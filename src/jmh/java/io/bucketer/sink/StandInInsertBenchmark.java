package io.bucketer.sink;

import static io.bucketer.buckets.BucketDocumentNames.ID;
import static io.bucketer.buckets.BucketDocumentNames.MEASUREMENTS;

import com.mongodb.reactivestreams.client.MongoClient;
import com.mongodb.reactivestreams.client.MongoClients;
import com.mongodb.reactivestreams.client.MongoCollection;
import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.backend.memory.MemoryBackend;
import io.bucketer.buckets.BucketStats;
import io.bucketer.buckets.ClosedBucket;
import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.Measurement;
import io.bucketer.buckets.SeriesKey;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.bson.BsonArray;
import org.bson.BsonBinary;
import org.bson.BsonBinaryReader;
import org.bson.BsonDateTime;
import org.bson.BsonDocument;
import org.bson.BsonDouble;
import org.bson.BsonInt64;
import org.bson.BsonValue;
import org.bson.RawBsonDocument;
import org.bson.codecs.BsonDocumentCodec;
import org.bson.codecs.DecoderContext;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import reactor.core.publisher.Mono;

/**
 * One minute bucket inserted into the MongoDB stand-in through the driver, in three layouts of its
 * 60 readings: today's {@code measurements} array of {timestamp, value} documents, two arrays of
 * timestamps and values, and the readings packed into one BSON binary, as MongoDB's own time-series
 * buckets compress their columns. The rest of the document is the product's. A question for the
 * design, not a figure of the product: the benchmark's profile showed the stand-in's decoding and
 * sizing of each document as the cost row 4 never pays, and both grow with a document's values.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 2)
@org.openjdk.jmh.annotations.Measurement(iterations = 5, time = 2)
public class StandInInsertBenchmark {

  /** 2025-06-01T10:00:00Z, the start of an hour. */
  private static final long WINDOW_START = 1_748_772_000_000L;

  private static final int READINGS = 60;

  /** About what one of the bench's write commands holds (12,200 documents in 50 – 57 commands). */
  private static final int DOCUMENTS_PER_WRITE = 230;

  @Param({"rows", "arrays", "packed"})
  public String layout;

  private MongoServer server;
  private MongoClient client;
  private MongoCollection<BsonDocument> collection;
  private BsonDocument document;
  private long nextId;

  @Setup
  public void start() {
    server = new MongoServer(new MemoryBackend());
    final InetSocketAddress address = server.bind();
    client = MongoClients.create("mongodb://" + address.getHostString() + ":" + address.getPort());
    collection = client.getDatabase("bench").getCollection("buckets", BsonDocument.class);
    document = inLayout(layout, productDocument());
  }

  /** An empty collection each iteration, so the stand-in's heap does not grow throughout. */
  @Setup(Level.Iteration)
  public void emptyCollection() {
    Mono.from(collection.deleteMany(new BsonDocument())).block();
  }

  @TearDown
  public void stop() {
    client.close();
    server.shutdownNow();
  }

  /**
   * One write command of {@link #DOCUMENTS_PER_WRITE} buckets, as the sink sends them: the score
   * divided by that number is one document's cost, the round trip shared among them.
   */
  @Benchmark
  @OperationsPerInvocation(DOCUMENTS_PER_WRITE)
  public Object insertMany() {
    final List<BsonDocument> write = new ArrayList<>(DOCUMENTS_PER_WRITE);
    for (int i = 0; i < DOCUMENTS_PER_WRITE; i++) {
      // A new _id each: the same document inserted over and over as distinct buckets. A shallow
      // copy, so that copying costs the same in every layout.
      final BsonDocument bucket = new BsonDocument();
      bucket.putAll(document);
      write.add(bucket.append(ID, new BsonInt64(nextId++)));
    }
    return Mono.from(collection.insertMany(write)).block();
  }

  private static BsonDocument productDocument() {
    final List<Measurement> readings = new ArrayList<>(READINGS);
    for (int second = 0; second < READINGS; second++) {
      // Temperatures to two decimals, as the simulator's gateways send them.
      final double value = Math.round((21 + 3 * Math.sin(second / 30.0)) * 100) / 100.0;
      readings.add(new Measurement(WINDOW_START + second * 1_000L, value));
    }
    final ClosedBucket bucket =
        new ClosedBucket(
            new SeriesKey("sensor-0042", "temperature"),
            Granularity.parse("1m"),
            WINDOW_START,
            BucketStats.ofAll(readings, 60),
            readings);
    // A mutable copy of the bytes the sink writes.
    final RawBsonDocument written = BucketDocuments.toDocument(bucket);
    return new BsonDocumentCodec()
        .decode(
            new BsonBinaryReader(written.getByteBuffer().asNIO()),
            DecoderContext.builder().build());
  }

  private static BsonDocument inLayout(final String layout, final BsonDocument document) {
    final BsonArray rows = document.remove(MEASUREMENTS).asArray();
    switch (layout) {
      case "rows" -> document.append(MEASUREMENTS, rows);
      case "arrays" -> {
        final BsonArray timestamps = new BsonArray();
        final BsonArray values = new BsonArray();
        for (final BsonValue row : rows) {
          timestamps.add(row.asDocument().get("timestamp"));
          values.add(row.asDocument().get("value"));
        }
        document.append("timestamps", timestamps).append("values", values);
      }
      case "packed" -> {
        final ByteBuffer packed = ByteBuffer.allocate(rows.size() * 2 * Long.BYTES);
        for (final BsonValue row : rows) {
          packed.putLong(((BsonDateTime) row.asDocument().get("timestamp")).getValue());
          packed.putDouble(((BsonDouble) row.asDocument().get("value")).getValue());
        }
        document.append("readings", new BsonBinary(packed.array()));
      }
      default -> throw new IllegalArgumentException("no layout " + layout);
    }
    return document;
  }
}
