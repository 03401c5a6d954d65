package io.bucketer.sink;

import io.bucketer.buckets.ClosedBucket;
import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.TimeSpans;
import io.bucketer.metrics.BucketerMetrics;
import io.bucketer.metrics.SinkMeters;
import io.bucketer.topics.BucketerTopics;
import io.bucketer.topics.TypedTopic;
import java.time.Clock;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.CommitFailedException;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RebalanceInProgressException;
import org.apache.kafka.common.errors.WakeupException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Copies closed buckets from the compacted buckets topic into MongoDB: poll, write the batch,
 * commit its offsets only after MongoDB acknowledged it. Offsets are therefore never ahead of
 * MongoDB: whatever was polled but not committed (a crash, a revoked partition, a failed commit) is
 * delivered again, to this consumer or the partition's next owner, and rewritten; writes are
 * idempotent replacements, so redelivery costs time, never correctness. Nothing is buffered across
 * polls, so a revocation loses nothing.
 *
 * <p>Infrastructure failures (MongoDB unreachable or slow) are retried, with what MongoDB has not
 * acknowledged of the batch, and an exponential backoff; meanwhile every assigned partition is
 * paused and the loop keeps polling, so the consumer stays in its group without fetching more:
 * memory holds one poll, however long MongoDB is away. A document MongoDB rejects (a data error) is
 * set aside: its bucket record goes, as it was read, to the dead-letter topic with MongoDB's
 * reason, the rest of the batch is written, and the offsets are committed once Kafka acknowledged
 * the dead letters and MongoDB the rest. A record that is not a bucket at all (another format
 * version) stops the sink: {@link #run()} throws {@link BucketSinkException}, and the record stays
 * uncommitted.
 *
 * <p>Meters: {@link SinkMeters}.
 *
 * <p>The sink does not own the writer: close the writer after the sink.
 */
public final class BucketSink implements Runnable, AutoCloseable {

  // The meters' names, where callers found them before SinkMeters registered them.
  public static final String BUCKETS_WRITTEN = SinkMeters.BUCKETS_WRITTEN;
  public static final String WRITE_LATENCY = SinkMeters.WRITE_LATENCY;
  public static final String RETRIES = SinkMeters.RETRIES;
  public static final String PENDING = SinkMeters.PENDING;
  public static final String BATCH_SIZE = SinkMeters.BATCH_SIZE;
  public static final String CLOSE_TO_VISIBLE = SinkMeters.CLOSE_TO_VISIBLE;

  private static final Logger LOG = LoggerFactory.getLogger(BucketSink.class);

  /** MongoDB away at start: one line a minute, not one per attempt. */
  private final RepeatedWarning indexWarnings = new RepeatedWarning(LOG, Clock.systemUTC());

  private static final Duration CONSUMER_CLOSE_ALLOWANCE = Duration.ofSeconds(35);

  private final SinkConfig config;
  private final TypedTopic<String, ClosedBucket> buckets;
  private final Consumer<byte[], byte[]> consumer;
  private final PausedPartitions pause;
  private final RejectedBucketDeadLetters deadLetters;
  private final RetryingBatchWriter batchWriter;
  private final MongoBucketWriter writer;
  private final SinkMeters meters;
  private final AtomicBoolean started = new AtomicBoolean();
  private final AtomicBoolean closing = new AtomicBoolean();
  private final CountDownLatch closeRequested = new CountDownLatch(1);
  private final CountDownLatch stopped = new CountDownLatch(1);

  /** The batch polled and not yet committed: what a stop leaves for the next start. */
  private volatile SinkBatch uncommitted;

  private final AtomicBoolean uncommittedReported = new AtomicBoolean();

  /** How long the consumer may take to close once the loop ends; a bounded stop shortens it. */
  private volatile Duration consumerCloseTimeout = CONSUMER_CLOSE_ALLOWANCE;

  /**
   * @param metrics the processor's meters, which the sink shares: a second {@link BucketerMetrics}
   *     on the same registry would register its gauges again, which Micrometer refuses with a
   *     warning
   */
  public BucketSink(
      final SinkConfig config, final MongoBucketWriter writer, final BucketerMetrics metrics) {
    this(
        config,
        SinkKafkaClients.consumer(config),
        SinkKafkaClients.deadLetterProducer(config),
        writer,
        metrics);
  }

  /** For tests: any consumer and producer, for example Kafka's mocks. */
  BucketSink(
      final SinkConfig config,
      final Consumer<byte[], byte[]> consumer,
      final Producer<byte[], byte[]> deadLetterProducer,
      final MongoBucketWriter writer,
      final BucketerMetrics metrics) {
    this.config = config;
    this.buckets = BucketerTopics.closedBuckets(config.topic());
    this.consumer = consumer;
    this.pause = new PausedPartitions(consumer);
    this.deadLetters =
        new RejectedBucketDeadLetters(deadLetterProducer, config.deadLetterTopic(), metrics);
    this.writer = writer;
    this.meters = new SinkMeters(metrics.registry());
    this.batchWriter = new RetryingBatchWriter(writer, config, pause, deadLetters, meters);
  }

  /**
   * Runs until {@link #close()}, or until a record cannot be decoded or a dead letter cannot be
   * written.
   *
   * @throws BucketSinkException when a record is not a bucket, or Kafka does not take a dead letter
   */
  @Override
  public void run() {
    if (!started.compareAndSet(false, true)) {
      if (closing.get()) {
        return;
      }
      throw new IllegalStateException("a BucketSink runs once");
    }
    try {
      createIndexesOnceReachable();
      consumer.subscribe(List.of(buckets.name()), pause);
      while (!closing.get()) {
        final ConsumerRecords<byte[], byte[]> records = consumer.poll(config.pollTimeout());
        meters.lag(lag());
        if (!records.isEmpty()) {
          writeThenCommit(SinkBatch.of(records, buckets));
        }
      }
    } catch (WakeupException e) {
      if (!closing.get()) {
        throw e;
      }
    } catch (BucketSinkException e) {
      LOG.error("the sink stops: {}", e.getMessage(), e);
      throw e;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      if (closing.get()) {
        reportUncommitted();
      }
      meters.nonePending();
      try {
        consumer.close(CloseOptions.timeout(consumerCloseTimeout));
      } finally {
        try {
          deadLetters.close();
        } finally {
          stopped.countDown();
        }
      }
    }
  }

  /**
   * Stops the loop (waking a blocked poll), lets it close the consumer, and waits for it: as long
   * as a batch MongoDB is writing may take, and the consumer's close.
   */
  @Override
  public void close() {
    close(config.writeTimeout().plus(CONSUMER_CLOSE_ALLOWANCE));
  }

  /**
   * As {@link #close()}, waiting at most {@code timeout}. A batch polled and not yet acknowledged
   * by MongoDB stays uncommitted, and is logged as such: the next start writes it again.
   *
   * @return true when the loop ended within {@code timeout}
   */
  public boolean close(final Duration timeout) {
    consumerCloseTimeout = min(CONSUMER_CLOSE_ALLOWANCE, timeout);
    closing.set(true);
    closeRequested.countDown();
    if (started.compareAndSet(false, true)) {
      try {
        consumer.close(CloseOptions.timeout(consumerCloseTimeout));
      } finally {
        deadLetters.close();
      }
      return true;
    }
    if (stopped.getCount() > 0) {
      consumer.wakeup();
    }
    try {
      if (stopped.await(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        return true;
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    // Still in a write MongoDB has not answered: say now what stays uncommitted.
    LOG.warn(
        "the bucket sink did not stop within {}: MongoDB has not answered its write",
        TimeSpans.format(timeout.toMillis()));
    reportUncommitted();
    return false;
  }

  /** Once: the buckets polled and not committed, which the next start writes again. */
  /**
   * The records of its partitions the sink has not read yet, as the consumer knows them from its
   * last fetch (no request to the broker); partitions it knows no end of yet count nothing.
   */
  private long lag() {
    long lag = 0;
    for (final TopicPartition partition : consumer.assignment()) {
      lag += consumer.currentLag(partition).orElse(0);
    }
    return lag;
  }

  private void reportUncommitted() {
    final SinkBatch batch = uncommitted;
    if (batch == null || !uncommittedReported.compareAndSet(false, true)) {
      return;
    }
    LOG.info(
        "stopping with {} bucket(s) not yet acknowledged by MongoDB, uncommitted on {}: the next"
            + " start writes them again",
        batch.size(),
        batch.offsets().entrySet().stream()
            .sorted(Map.Entry.comparingByKey(Comparator.comparingInt(TopicPartition::partition)))
            .map(e -> e.getKey() + " up to offset " + (e.getValue().offset() - 1))
            .collect(Collectors.joining(", ")));
  }

  private static Duration min(final Duration a, final Duration b) {
    return a.compareTo(b) <= 0 ? a : b;
  }

  /** Buckets acknowledged by MongoDB since start, redeliveries included. */
  public long bucketsWritten() {
    return meters.bucketsWritten();
  }

  /** Buckets of one granularity acknowledged by MongoDB since start. */
  public long bucketsWritten(final Granularity granularity) {
    return meters.bucketsWritten(granularity.label());
  }

  private void writeThenCommit(final SinkBatch batch) {
    uncommitted = batch;
    meters.batchPolled(batch.size());
    batchWriter.writeUntilAcknowledged(batch);
    meters.visible(batch.closedAtMillis(), System.currentTimeMillis());
    // The dead letters were sent while the rest was written; both must be safe before the commit.
    deadLetters.awaitAcknowledged();
    commit(batch.offsets());
    uncommitted = null;
    meters.nonePending();
  }

  /**
   * MongoDB may be down when the processor starts: the indexes are created once it answers, and
   * nothing is consumed before, so the topology can already run while the sink waits.
   */
  private void createIndexesOnceReachable() throws InterruptedException {
    final Backoff backoff = new Backoff(config.initialBackoff(), config.maxBackoff());
    while (!closing.get()) {
      try {
        writer.ensureIndexes(config.writeTimeout());
        indexWarnings.cleared("the bucket indexes are in place");
        return;
      } catch (BucketWriteException e) {
        if (!e.isRetryable()) {
          throw new BucketSinkException("MongoDB refused the bucket indexes: " + e.getMessage(), e);
        }
        final Duration delay = backoff.next();
        indexWarnings.failed("cannot create the bucket indexes yet, retrying: " + e.getMessage());
        meters.retried();
        if (closeRequested.await(delay.toMillis(), TimeUnit.MILLISECONDS)) {
          return;
        }
      }
    }
  }

  private void commit(final Map<TopicPartition, OffsetAndMetadata> offsets) {
    // Partitions revoked while the batch was retried now belong to another consumer.
    offsets.keySet().retainAll(consumer.assignment());
    if (offsets.isEmpty()) {
      return;
    }
    try {
      consumer.commitSync(offsets);
    } catch (WakeupException e) {
      // close() woke us after MongoDB acknowledged: commit the written batch, then stop.
      consumer.commitSync(offsets);
      uncommitted = null;
      throw e;
    } catch (CommitFailedException
        | RebalanceInProgressException
        | org.apache.kafka.common.errors.TimeoutException e) {
      LOG.warn(
          "offsets {} not committed, the buckets will be rewritten: {}", offsets, e.toString());
    }
  }
}
