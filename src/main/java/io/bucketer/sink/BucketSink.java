package io.bucketer.sink;

import io.bucketer.buckets.ClosedBucket;
import io.bucketer.buckets.Granularity;
import io.bucketer.metrics.BucketerMetrics;
import io.bucketer.metrics.SinkMeters;
import io.bucketer.metrics.SinkMeters.WriteOutcome;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.consumer.CommitFailedException;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RebalanceInProgressException;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
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
 * <p>Infrastructure failures (MongoDB unreachable or slow) are retried with the same batch and an
 * exponential backoff; meanwhile every assigned partition is paused and the loop keeps polling, so
 * the consumer stays in its group without fetching more: memory holds one poll, however long
 * MongoDB is away. A document MongoDB rejects (a data error) is set aside: its bucket record goes,
 * as it was read, to the dead-letter topic with MongoDB's reason, the rest of the batch is written,
 * and the offsets are committed once Kafka acknowledged the dead letters and MongoDB the rest. A
 * record that is not a bucket at all (another format version) stops the sink: {@link #run()} throws
 * {@link BucketSinkException}, and the record stays uncommitted.
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
  private static final Duration CONSUMER_CLOSE_ALLOWANCE = Duration.ofSeconds(35);

  private final SinkConfig config;
  private final Consumer<byte[], byte[]> consumer;
  private final RejectedBucketDeadLetters deadLetters;
  private final MongoBucketWriter writer;
  private final SinkMeters meters;
  private final AtomicBoolean started = new AtomicBoolean();
  private final AtomicBoolean closing = new AtomicBoolean();
  private final CountDownLatch closeRequested = new CountDownLatch(1);
  private final CountDownLatch stopped = new CountDownLatch(1);
  private boolean paused;

  public BucketSink(
      final SinkConfig config, final MongoBucketWriter writer, final MeterRegistry registry) {
    this(config, newConsumer(config), newProducer(config), writer, registry);
  }

  /** For tests: any consumer and producer, for example Kafka's mocks. */
  BucketSink(
      final SinkConfig config,
      final Consumer<byte[], byte[]> consumer,
      final Producer<byte[], byte[]> deadLetterProducer,
      final MongoBucketWriter writer,
      final MeterRegistry registry) {
    this.config = config;
    this.consumer = consumer;
    this.deadLetters =
        new RejectedBucketDeadLetters(
            deadLetterProducer, config.deadLetterTopic(), new BucketerMetrics(registry));
    this.writer = writer;
    this.meters = new SinkMeters(registry);
  }

  private static Consumer<byte[], byte[]> newConsumer(final SinkConfig config) {
    // Bytes, decoded by the sink: a rejected bucket goes to the dead-letter topic as it was read.
    return new KafkaConsumer<>(
        consumerProperties(config), new ByteArrayDeserializer(), new ByteArrayDeserializer());
  }

  private static Producer<byte[], byte[]> newProducer(final SinkConfig config) {
    return new KafkaProducer<>(
        RejectedBucketDeadLetters.producerProperties(config.kafkaProperties()),
        new ByteArraySerializer(),
        new ByteArraySerializer());
  }

  /** The pass-through properties plus the settings the sink's guarantees depend on. */
  static Map<String, Object> consumerProperties(final SinkConfig config) {
    final Map<String, Object> properties = new HashMap<>(config.kafkaProperties());
    // A new group starts at the beginning: buckets closed before the sink first ran still count.
    properties.putIfAbsent(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    properties.put(ConsumerConfig.GROUP_ID_CONFIG, config.groupId());
    // Buckets of aborted topology transactions must never reach MongoDB.
    properties.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    properties.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    final long maxPollInterval =
        Long.parseLong(
            String.valueOf(
                properties.getOrDefault(ConsumerConfig.MAX_POLL_INTERVAL_MS_CONFIG, 300_000)));
    // One write plus one backoff poll happen between polls that fetch records.
    if (config.writeTimeout().plus(config.maxBackoff()).toMillis() >= maxPollInterval) {
      throw new IllegalArgumentException(
          "writeTimeout + maxBackoff must stay below max.poll.interval.ms ("
              + maxPollInterval
              + ")");
    }
    return properties;
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
      consumer.subscribe(List.of(config.topic()), new PauseNewPartitionsWhileRetrying());
      while (!closing.get()) {
        final ConsumerRecords<byte[], byte[]> records = consumer.poll(config.pollTimeout());
        if (!records.isEmpty()) {
          writeThenCommit(SinkBatch.of(records));
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
      meters.nonePending();
      try {
        consumer.close();
      } finally {
        try {
          deadLetters.close();
        } finally {
          stopped.countDown();
        }
      }
    }
  }

  /** Stops the loop (waking a blocked poll), lets it close the consumer, and waits for it. */
  @Override
  public void close() {
    closing.set(true);
    closeRequested.countDown();
    if (started.compareAndSet(false, true)) {
      try {
        consumer.close();
      } finally {
        deadLetters.close();
      }
      return;
    }
    if (stopped.getCount() > 0) {
      consumer.wakeup();
    }
    final Duration wait = config.writeTimeout().plus(CONSUMER_CLOSE_ALLOWANCE);
    try {
      if (!stopped.await(wait.toMillis(), TimeUnit.MILLISECONDS)) {
        LOG.warn("the bucket sink loop did not stop within {}", wait);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
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
    meters.batchPolled(batch.size());
    writeUntilAcknowledged(batch);
    meters.visible(batch.closedAtMillis(), System.currentTimeMillis());
    // The dead letters were sent while the rest was written; both must be safe before the commit.
    deadLetters.awaitAcknowledged();
    commit(batch.offsets());
    meters.nonePending();
  }

  private void writeUntilAcknowledged(final SinkBatch batch) {
    final Backoff backoff = new Backoff(config.initialBackoff(), config.maxBackoff());
    while (true) {
      try {
        timedWrite(batch.buckets());
        if (paused) {
          consumer.resume(consumer.paused());
          paused = false;
        }
        return;
      } catch (BucketWriteException e) {
        if (!e.isRetryable()) {
          // Rewriting the rest is harmless: the writer replaces only older revisions.
          setAside(batch, e);
          continue;
        }
        meters.retried();
        final Duration delay = backoff.next();
        LOG.warn(
            "writing {} buckets failed, retrying in {}: {}{}",
            batch.size(),
            delay,
            e.getMessage(),
            e.getCause() == null ? "" : " (" + e.getCause() + ")");
        if (!paused) {
          consumer.pause(consumer.assignment());
          paused = true;
        }
        pollWhilePaused(delay);
      }
    }
  }

  /** Takes the rejected buckets out of the batch and sends their records to the dead letters. */
  private void setAside(final SinkBatch batch, final BucketWriteException rejection) {
    final List<SinkBatch.Polled> rejected = batch.reject(rejection.rejectedBucketKeys());
    if (rejected.isEmpty()) {
      // Nothing left to take out: writing the same batch again would loop for ever.
      throw new BucketSinkException(
          "MongoDB rejected buckets that are not in the batch: " + rejection.rejectedBucketKeys(),
          rejection);
    }
    for (final SinkBatch.Polled polled : rejected) {
      final String reason = rejection.rejectionReason(polled.key());
      LOG.warn(
          "MongoDB rejected bucket {} ({}-{} offset {}), sent to {}: {}",
          polled.key(),
          polled.record().topic(),
          polled.record().partition(),
          polled.record().offset(),
          config.deadLetterTopic(),
          reason);
      deadLetters.send(polled.record(), "MongoDB rejected the bucket document: " + reason);
    }
  }

  private void timedWrite(final List<ClosedBucket> batch) {
    final Timer.Sample sample = meters.writeStarted();
    WriteOutcome outcome = WriteOutcome.ERROR;
    try {
      writer.write(batch, config.writeTimeout());
      outcome = WriteOutcome.SUCCESS;
    } catch (BucketWriteException e) {
      outcome = e.isRetryable() ? WriteOutcome.RETRYABLE : WriteOutcome.REJECTED;
      throw e;
    } finally {
      meters.writeEnded(sample, outcome);
    }
    final Map<String, Integer> perGranularity = new HashMap<>();
    batch.forEach(b -> perGranularity.merge(b.granularity().label(), 1, Integer::sum));
    perGranularity.forEach(meters::written);
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
        return;
      } catch (BucketWriteException e) {
        if (!e.isRetryable()) {
          throw new BucketSinkException("MongoDB refused the bucket indexes: " + e.getMessage(), e);
        }
        final Duration delay = backoff.next();
        LOG.warn("cannot create the bucket indexes yet, retrying in {}: {}", delay, e.toString());
        meters.retried();
        if (closeRequested.await(delay.toMillis(), TimeUnit.MILLISECONDS)) {
          return;
        }
      }
    }
  }

  /** Keeps the group membership alive during a backoff; throws WakeupException on close. */
  private void pollWhilePaused(final Duration backoff) {
    final ConsumerRecords<byte[], byte[]> unexpected = consumer.poll(backoff);
    // New partitions are paused on assignment; should records arrive anyway, rewind so they are
    // fetched again after the batch in hand is acknowledged instead of being skipped by its commit.
    for (final TopicPartition partition : unexpected.partitions()) {
      consumer.seek(partition, unexpected.records(partition).get(0).offset());
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
      throw e;
    } catch (CommitFailedException
        | RebalanceInProgressException
        | org.apache.kafka.common.errors.TimeoutException e) {
      LOG.warn(
          "offsets {} not committed, the buckets will be rewritten: {}", offsets, e.toString());
    }
  }

  /** Pauses partitions assigned in the middle of a retry, so no record is fetched past it. */
  private final class PauseNewPartitionsWhileRetrying implements ConsumerRebalanceListener {

    @Override
    public void onPartitionsAssigned(final Collection<TopicPartition> partitions) {
      if (paused) {
        consumer.pause(partitions);
      }
    }

    @Override
    public void onPartitionsRevoked(final Collection<TopicPartition> partitions) {
      // Nothing to flush: only acknowledged batches are committed, the rest is redelivered.
      LOG.info("partitions revoked {}; uncommitted buckets go to their next owner", partitions);
    }
  }
}
