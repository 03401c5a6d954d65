package io.bucketer.topology;

import io.bucketer.avro.Reading;
import io.bucketer.buckets.SeriesKey;
import java.util.function.Consumer;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;

/**
 * Gathers the decoded readings bound for each partition of the repartition topic and hands them to
 * it as one record per partition, just before each commit ({@link PartitionBatch}): the readings of
 * every series of the partition, each series' in order. A live fleet sends one reading of each
 * series per commit; one record per series would cost a repartition record per reading, written,
 * replicated and read again, where one per partition costs a few per thousand readings. This is the
 * bucket pattern applied to the shuffle.
 *
 * <p><b>Nothing is lost or delayed.</b> The batches are forwarded from the hook that runs before
 * every commit ({@link PreCommitHookStore}, {@link CommitTimeForwarder}), so they are sent in the
 * transaction that commits the input offsets of their readings: a crash before it aborts both, and
 * the readings are read again. Under exactly-once, the aggregator reads the repartition topic
 * {@code read_committed}, so a reading could not reach it before that commit anyway. A batch is
 * forwarded earlier when it reaches {@link #MAX_BATCH_READINGS}, and every batch when the task
 * holds {@link #MAX_HELD_READINGS}, which bounds the memory and the record's size whatever the
 * commit interval.
 *
 * <p>Each series keeps its partition ({@link SeriesPartitioner}), and the order of its readings.
 * Each batch's record takes the latest of its readings' times as its timestamp; the readings' own
 * times travel in the value.
 */
final class ReadingBatcher implements Processor<SeriesKey, Reading, SeriesKey, PartitionBatch> {

  /**
   * The most readings in one repartition record: about 100 KB with sensor ids of 20 characters, a
   * tenth of the producer's default largest request. A 1 Hz fleet of 20,000 sensors read by three
   * tasks sends about 700 readings per task and commit (100 ms), spread over the partitions.
   */
  static final int MAX_BATCH_READINGS = 2_000;

  /** The most readings a task holds back in all its batches: about 0.5 MB at most. */
  static final int MAX_HELD_READINGS = 10_000;

  private final PartitionBatches batches;

  /** Made once: {@link #process} hands it on for every reading. */
  private final Consumer<PartitionBatch> forwardBatch = this::forward;

  private ProcessorContext<SeriesKey, PartitionBatch> context;
  private CommitTimeForwarder atCommit;

  /**
   * @param partitions the repartition topic's partitions ({@code series.partitions})
   */
  ReadingBatcher(final int partitions) {
    this.batches = new PartitionBatches(partitions, MAX_BATCH_READINGS, MAX_HELD_READINGS);
  }

  @Override
  public void init(final ProcessorContext<SeriesKey, PartitionBatch> context) {
    this.context = context;
    this.atCommit = new CommitTimeForwarder(context);
    // A task whose state was rolled back is initialised again: what it held is read again.
    batches.clear();
    final PreCommitHookStore hook = context.getStateStore(TopologyNames.BATCH_COMMIT_HOOK);
    hook.beforeCommit(
        () -> atCommit.run(context.currentSystemTimeMs(), () -> batches.drain(forwardBatch)));
  }

  @Override
  public void process(final Record<SeriesKey, Reading> record) {
    final Reading reading = record.value();
    batches.add(
        record.key(),
        reading.getTimestamp().toEpochMilli(),
        reading.getValue(),
        reading.getUtcOffsetMinutes(),
        forwardBatch);
  }

  private void forward(final PartitionBatch batch) {
    context.forward(
        new Record<SeriesKey, PartitionBatch>(batch.firstSeries(), batch, batch.latestTimestamp()));
  }

  /**
   * A clean close has committed, and so forwarded, every batch; a dirty one drops them with the
   * rest of the uncommitted work.
   */
  @Override
  public void close() {
    batches.clear();
  }
}
