package io.bucketer.sink;

import io.bucketer.buckets.BucketLimits;
import io.bucketer.buckets.BucketStats;
import io.bucketer.buckets.ClosedBucket;
import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.Measurement;
import io.bucketer.buckets.SeriesKey;
import io.bucketer.topics.ClosedBucketSerde;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.bson.BsonBinaryWriter;
import org.bson.BsonDocument;
import org.bson.codecs.BsonDocumentCodec;
import org.bson.codecs.EncoderContext;
import org.bson.io.BasicOutputBuffer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * A closed bucket on its way out: serialised to the buckets topic by the topology, read back by the
 * sink, turned into its MongoDB document and encoded as BSON, which is what the driver does with
 * the document when it writes it.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@org.openjdk.jmh.annotations.Measurement(iterations = 5, time = 1)
public class BucketEncodingBenchmark {

  private static final SeriesKey SERIES = new SeriesKey("sensor-0042", "temperature");
  private static final Integer UTC_OFFSET_MINUTES = 60;

  /** 2025-06-01T10:00:00Z, the start of an hour. */
  private static final long WINDOW_START = 1_748_772_000_000L;

  private static final EncoderContext ENCODER_CONTEXT = EncoderContext.builder().build();

  /** 60: a minute of readings at 1 Hz. 1000: a full bucket, the most one document holds. */
  @Param({"60", "1000"})
  public int measurements;

  private ClosedBucket bucket;
  private byte[] bucketsTopicValue;
  private final BsonDocumentCodec codec = new BsonDocumentCodec();

  /**
   * Reused, as the driver reuses its pooled buffers, and sized for the largest document so that
   * growing it is not measured.
   */
  private final BasicOutputBuffer bson =
      new BasicOutputBuffer(
          BucketLimits.DOCUMENT_OVERHEAD_BYTES
              + 1000 * BucketLimits.MAX_BSON_BYTES_PER_MEASUREMENT);

  @Setup
  public void closeABucket() {
    final Granularity granularity = Granularity.parse(measurements <= 60 ? "1m" : "1h");
    final List<Measurement> readings = new ArrayList<>(measurements);
    for (int second = 0; second < measurements; second++) {
      // Temperatures to two decimals, as the simulator's gateways send them.
      final double value = Math.round((21 + 3 * Math.sin(second / 30.0)) * 100) / 100.0;
      readings.add(new Measurement(WINDOW_START + second * 1_000L, value));
    }
    bucket =
        new ClosedBucket(
            SERIES,
            granularity,
            WINDOW_START,
            BucketStats.ofAll(readings, UTC_OFFSET_MINUTES),
            readings);
    bucketsTopicValue = ClosedBucketSerde.encode(bucket);
  }

  /** The topology's side: the bucket as a value of the buckets topic. */
  @Benchmark
  public byte[] toBucketsTopic() {
    return ClosedBucketSerde.encode(bucket);
  }

  /** The sink's first step: a value of the buckets topic back into a bucket. */
  @Benchmark
  public ClosedBucket fromBucketsTopic() {
    return ClosedBucketSerde.decode(bucketsTopicValue);
  }

  /** The document the sink upserts. */
  @Benchmark
  public BsonDocument toDocument() {
    return BucketDocuments.toDocument(bucket);
  }

  /** The document and its BSON bytes: the sink's whole share of a write before the network. */
  @Benchmark
  public int toDocumentBytes() {
    bson.truncateToPosition(0);
    codec.encode(new BsonBinaryWriter(bson), BucketDocuments.toDocument(bucket), ENCODER_CONTEXT);
    return bson.getSize();
  }
}
