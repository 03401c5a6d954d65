package io.bucketer.topology;

import io.bucketer.avro.Reading;
import io.bucketer.buckets.Handover;
import io.bucketer.buckets.SeriesKey;
import io.bucketer.ingest.InputDecoder;
import io.bucketer.ingest.InputRecord;
import io.bucketer.ingest.InvalidReadingException;
import io.bucketer.metrics.BucketerMetrics;
import io.bucketer.metrics.BucketerMetrics.ReadingOutcome;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;

/**
 * Decodes the value into its readings ({@link InputDecoder}: one, or one per value field of a
 * gateway's record), checks each ({@link ReadingChecks}), and keys each reading by its own series.
 * A record is taken or rejected whole: when one of its readings fails a check, the record goes to
 * the dead-letter topic once, with its original bytes, and none of its readings is forwarded, so
 * that replaying a dead letter can never count a reading twice. The input key means nothing to the
 * decoding unless a setting says so (input.sensor.id.from): gateways may send any key or none; with
 * input keyed by sensor ({@link InputPartitioning.BySensorKey}) the record's partition is checked
 * instead. Input that cannot become a reading is passed on as {@link RejectedInput} with
 * dead-letter headers, so one bad record never stops the stream. Event time moves from the Kafka
 * record to the reading here: the record forwarded downstream carries the reading's timestamp, so
 * the repartitioned stream's time is event time. While a rescale hands over ({@link Handover}),
 * only this deployment's side of the readings goes on, and only its side of the rejected records.
 *
 * <p>It has two children and forwards each record to one, by name: readings to {@code
 * readingsChild}, rejected input to the dead-letter topic. So its output type is {@code Object}: a
 * {@code Reading} for the batcher before the repartition ({@link ReadingBatcher}), a {@link
 * ReadingBatch} of one for the aggregator when nothing is repartitioned, or a {@link
 * RejectedInput}.
 */
final class ReadingDecodeProcessor implements Processor<byte[], byte[], SeriesKey, Object> {

  /** The dead-letter reason of a reading on another partition than its sensor's. */
  static final String WRONG_PARTITION = "wrong-partition";

  private final InputDecoder decoder;
  private final ReadingChecks checks;
  private final InputPartitioning partitioning;
  private final Handover handover;
  private final BucketerMetrics metrics;
  private final String readingsChild;
  private ProcessorContext<SeriesKey, Object> context;

  ReadingDecodeProcessor(
      final InputDecoder decoder,
      final ReadingChecks checks,
      final InputPartitioning partitioning,
      final Handover handover,
      final BucketerMetrics metrics,
      final String readingsChild) {
    this.decoder = decoder;
    this.handover = handover;
    this.readingsChild = readingsChild;
    this.checks = checks;
    this.partitioning = partitioning;
    this.metrics = metrics;
  }

  @Override
  public void init(final ProcessorContext<SeriesKey, Object> context) {
    this.context = context;
  }

  @Override
  public void process(final Record<byte[], byte[]> record) {
    final Optional<ReadingChecks.Rejection> tooLarge = checks.checkSize(record.value());
    if (tooLarge.isPresent()) {
      reject(record, tooLarge.get());
      return;
    }
    final List<Reading> readings;
    try {
      readings = decoderOf(record).readings(inputOf(record));
    } catch (InvalidReadingException e) {
      reject(record, new ReadingChecks.Rejection(e.reason().label(), e.getMessage()));
      return;
    }
    if (readings.isEmpty()) {
      // A SenML pack of strings, booleans or data only: valid, and nothing to bucket.
      return;
    }
    // The processor's clock, not System's, so that TopologyTestDriver can move it.
    final long now = context.currentSystemTimeMs();
    for (final Reading reading : readings) {
      final Optional<ReadingChecks.Rejection> invalid = checks.checkReading(reading, now);
      if (invalid.isPresent()) {
        reject(record, naming(reading, readings, invalid.get()));
        return;
      }
    }
    // The readings of a record share its sensor, and so its partition. During a handover only the
    // replaced deployment may be keyed by sensor (the settings refuse a keyed new layout): a
    // misplaced record is its to dead-letter whenever it takes one of its readings, whatever the
    // record's time, since the new layout checks no partition.
    if (partitioning instanceof InputPartitioning.BySensorKey bySensor
        && takesAny(readings, record.timestamp())) {
      final Optional<ReadingChecks.Rejection> misplaced = checkPartition(readings.get(0), bySensor);
      if (misplaced.isPresent()) {
        RejectedInput.forward(
            context, record, misplaced.get(), metrics, TopologyNames.REJECTED_INPUT);
        return;
      }
    }
    final boolean toAggregator = partitioning instanceof InputPartitioning.BySensorKey;
    for (final Reading reading : readings) {
      final long timestamp = reading.getTimestamp().toEpochMilli();
      if (!handover.takesReading(timestamp, record.timestamp())) {
        metrics.reading(ReadingOutcome.HANDED_OVER);
        continue;
      }
      final SeriesKey series = new SeriesKey(reading.getSensorId(), reading.getMetric());
      // Record copies the headers: each reading gets its own.
      context.forward(
          new Record<SeriesKey, Object>(
              series,
              toAggregator ? ReadingBatch.of(reading) : reading,
              timestamp,
              record.headers()),
          readingsChild);
    }
  }

  private boolean takesAny(final List<Reading> readings, final long recordTimestamp) {
    for (final Reading reading : readings) {
      if (handover.takesReading(reading.getTimestamp().toEpochMilli(), recordTimestamp)) {
        return true;
      }
    }
    return false;
  }

  /**
   * The input's decoder, or for a reading over a series limit sent back by {@code dead-letters
   * replay} the decoder of the JSON its dead letter holds ({@link ReplayedSeriesLimit}). The
   * replay's header costs a look at the headers, most often none.
   */
  private InputDecoder decoderOf(final Record<byte[], byte[]> record) {
    return ReplayedSeriesLimit.isReplayed(record.headers()) ? ReplayedSeriesLimit.DECODER : decoder;
  }

  /** The record as decoders see it: headers are looked up only when a decoder asks for one. */
  static InputRecord inputOf(final Record<byte[], byte[]> record) {
    final Headers headers = record.headers();
    return new InputRecord(
        record.key(),
        record.value(),
        name -> {
          final Header last = headers.lastHeader(name);
          return last == null ? null : last.value();
        },
        record.timestamp());
  }

  /** Of a record of several readings, the message names the one that failed. */
  static ReadingChecks.Rejection naming(
      final Reading reading, final List<Reading> readings, final ReadingChecks.Rejection failed) {
    if (readings.size() == 1) {
      return failed;
    }
    return new ReadingChecks.Rejection(
        failed.reason(), "the reading of " + reading.getMetric() + ": " + failed.message());
  }

  /**
   * With input keyed by sensor, a task holds the series of the sensors its partition's records are
   * keyed by: a reading elsewhere would be counted apart from its series' windows.
   */
  private Optional<ReadingChecks.Rejection> checkPartition(
      final Reading reading, final InputPartitioning.BySensorKey bySensor) {
    final int expected = bySensor.partitionOf(reading.getSensorId());
    final int actual =
        context.recordMetadata().map(metadata -> metadata.partition()).orElse(expected);
    if (actual == expected) {
      return Optional.empty();
    }
    return Optional.of(
        new ReadingChecks.Rejection(
            WRONG_PARTITION,
            "sensor "
                + reading.getSensorId()
                + " belongs on partition "
                + expected
                + " of "
                + bySensor.inputPartitions()
                + " (Kafka's default partitioner over its id), but this record is on partition "
                + actual
                + ": with input.partitioning=by-sensor, records must be keyed by their sensor id"));
  }

  /** To the dead-letter topic, unless the other side of a handover dead-letters this record. */
  private void reject(
      final Record<byte[], byte[]> record, final ReadingChecks.Rejection rejection) {
    if (!handover.takesRejectionOf(record.timestamp())) {
      return;
    }
    RejectedInput.forward(context, record, rejection, metrics, TopologyNames.REJECTED_INPUT);
  }
}
