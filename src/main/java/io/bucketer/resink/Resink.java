package io.bucketer.resink;

import io.bucketer.buckets.ClosedBucket;
import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.Retention;
import io.bucketer.sink.MongoBucketWriter;
import io.bucketer.sink.MongoConnection;
import io.bucketer.topics.ClosedBucketSerde;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.errors.SerializationException;

/**
 * One rebuild of the bucket documents from the buckets topic: read every record up to the ends
 * noted at the start, decide what becomes of each bucket ({@link ResinkPlan}), write the chosen
 * ones a poll at a time, and say how far it got every {@code progressEvery}. Idempotent: a document
 * is replaced only by a higher revision, so a second resink, or one beside a running sink, changes
 * nothing that is as new or newer.
 */
public final class Resink {

  /** Values that are not buckets are named one by one up to this many; the rest only counted. */
  static final int UNDECODABLE_NAMED = 10;

  /**
   * A MongoDB batch that goes unacknowledged this long stops the resink: an operator should see the
   * cause rather than wait without end.
   */
  static final Duration GIVE_UP_AFTER = Duration.ofMinutes(5);

  /**
   * Kafka giving nothing this long, though records remain before the ends, stops the resink: the
   * cluster went away, and the operator should see that rather than a resink that never ends.
   */
  static final Duration STALLED_AFTER = Duration.ofMinutes(2);

  private final BucketsTopicReader reader;
  private final ResinkPlan plan;
  private final ResinkTarget target;
  private final ResinkCounts counts;
  private final Consumer<String> lines;
  private final Clock clock;
  private final Duration progressEvery;

  Resink(
      final BucketsTopicReader reader,
      final ResinkPlan plan,
      final ResinkTarget target,
      final boolean dryRun,
      final Consumer<String> lines,
      final Clock clock,
      final Duration progressEvery) {
    this.reader = reader;
    this.plan = plan;
    this.target = target;
    this.counts = new ResinkCounts(dryRun);
    this.lines = lines;
    this.clock = clock;
    this.progressEvery = progressEvery;
  }

  /** Where to read, where to write, and what. */
  public record Settings(
      Map<String, Object> kafkaProperties,
      String topic,
      String clientId,
      MongoConnection mongo,
      String database,
      String collectionPrefix,
      List<Granularity> granularities,
      Retention retention,
      int batchSize,
      int writesInFlight,
      Duration writeTimeout,
      Duration maxBackoff) {}

  /**
   * Reads the topic of {@code settings} and writes into its database (nothing in a dry run), saying
   * to {@code lines} where it reads and writes, its progress every {@code progressEvery}, and what
   * became of each bucket at the end.
   *
   * @return what became of the buckets
   * @throws ResinkException when the topic is missing or MongoDB does not acknowledge for {@link
   *     #GIVE_UP_AFTER}
   * @throws io.bucketer.sink.MongoUnusableException when MongoDB cannot be used as configured
   */
  public static ResinkCounts run(
      final Settings settings,
      final ResinkSelection selection,
      final boolean dryRun,
      final Duration progressEvery,
      final Consumer<String> lines) {
    final Clock clock = Clock.systemUTC();
    final ResinkPlan plan =
        new ResinkPlan(settings.granularities(), settings.retention(), selection, clock.instant());
    try (BucketsTopicReader reader =
            BucketsTopicReader.connect(
                settings.kafkaProperties(), settings.topic(), settings.clientId());
        ResinkTarget target = dryRun ? ResinkTarget.dryRun() : mongoTarget(settings, lines)) {
      return new Resink(reader, plan, target, dryRun, lines, clock, progressEvery)
          .run(
              settings.topic(),
              dryRun ? "nowhere (dry run)" : "MongoDB database " + settings.database());
    }
  }

  private static ResinkTarget mongoTarget(final Settings settings, final Consumer<String> lines) {
    return new MongoTarget(
        MongoBucketWriter.connect(
            settings.mongo(),
            settings.database(),
            settings.collectionPrefix(),
            settings.granularities(),
            settings.retention(),
            settings.batchSize(),
            settings.writesInFlight(),
            settings.writeTimeout()),
        settings.writeTimeout(),
        settings.maxBackoff(),
        GIVE_UP_AFTER,
        lines);
  }

  /** Reads the whole topic into the target; {@code into} names the target in the first line. */
  ResinkCounts run(final String topic, final String into) {
    final Instant started = clock.instant();
    final int partitions = reader.begin().size();
    lines.accept(
        String.format(
            "resink: %s (%d partitions, at most %,d records up to their ends now) into %s",
            topic, partitions, reader.recordsToRead(), into));
    target.prepare();
    Instant lastProgress = started;
    String lastLine = "";
    Instant lastAdvance = started;
    long position = reader.position();
    while (!reader.finished()) {
      write(reader.next());
      final Instant now = clock.instant();
      if (reader.position() != position) {
        position = reader.position();
        lastAdvance = now;
      } else if (Duration.between(lastAdvance, now).compareTo(STALLED_AFTER) >= 0) {
        throw new ResinkException(
            "no records from Kafka for "
                + STALLED_AFTER.toMinutes()
                + " minutes, though "
                + counts.progressLine(reader.recordsToRead())
                + ": is the cluster reachable? What was written stays; run resink again");
      }
      if (Duration.between(lastProgress, now).compareTo(progressEvery) >= 0) {
        lastLine = counts.progressLine(reader.recordsToRead());
        lines.accept(lastLine);
        lastProgress = now;
      }
    }
    final String finalLine = counts.progressLine(reader.recordsToRead());
    if (!finalLine.equals(lastLine)) {
      lines.accept(finalLine);
    }
    lines.accept(counts.summary(Duration.between(started, clock.instant())).stripTrailing());
    return counts;
  }

  private void write(final List<ConsumerRecord<byte[], byte[]>> records) {
    final List<ClosedBucket> chosen = new ArrayList<>(records.size());
    for (final ConsumerRecord<byte[], byte[]> record : records) {
      if (record.value() == null) {
        counts.tombstone();
        continue;
      }
      final ClosedBucket bucket;
      try {
        bucket = ClosedBucketSerde.decode(record.value());
      } catch (SerializationException | IllegalArgumentException e) {
        // IllegalArgumentException: Avro read it, but it is no bucket (a count that is not its
        // measurements').
        counts.notABucket();
        if (counts.undecodable() <= UNDECODABLE_NAMED) {
          lines.accept(
              String.format(
                  "partition %d offset %d: not a bucket, skipped: %s",
                  record.partition(), record.offset(), e.getMessage()));
        }
        continue;
      }
      final ResinkCounts.Outcome outcome =
          switch (plan.of(bucket)) {
            case WRITE -> ResinkCounts.Outcome.WRITTEN;
            case NOT_CONFIGURED -> ResinkCounts.Outcome.NOT_CONFIGURED;
            case NOT_SELECTED -> ResinkCounts.Outcome.NOT_SELECTED;
            case EXPIRED -> ResinkCounts.Outcome.EXPIRED;
          };
      counts.add(bucket.granularity(), outcome);
      if (outcome == ResinkCounts.Outcome.WRITTEN) {
        chosen.add(bucket);
      }
    }
    if (chosen.isEmpty()) {
      return;
    }
    final ResinkTarget.Written written = target.write(chosen);
    written.unchanged().forEach(bucket -> counts.unchanged(bucket.granularity()));
    for (final ClosedBucket bucket : written.rejected()) {
      counts.add(bucket.granularity(), ResinkCounts.Outcome.WRITTEN, -1);
      counts.add(bucket.granularity(), ResinkCounts.Outcome.REJECTED);
    }
  }
}
