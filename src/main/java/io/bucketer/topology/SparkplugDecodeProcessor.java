package io.bucketer.topology;

import io.bucketer.avro.Reading;
import io.bucketer.buckets.Handover;
import io.bucketer.buckets.SeriesKey;
import io.bucketer.ingest.InputRecord;
import io.bucketer.ingest.InvalidReadingException;
import io.bucketer.ingest.sparkplug.SparkplugBirth;
import io.bucketer.ingest.sparkplug.SparkplugPayload;
import io.bucketer.ingest.sparkplug.SparkplugPayloads;
import io.bucketer.ingest.sparkplug.SparkplugReadings;
import io.bucketer.ingest.sparkplug.SparkplugSequence;
import io.bucketer.ingest.sparkplug.SparkplugSettings;
import io.bucketer.ingest.sparkplug.SparkplugTopic;
import io.bucketer.metrics.BucketerMetrics;
import io.bucketer.metrics.BucketerMetrics.ReadingOutcome;
import io.bucketer.topics.DeadLetterHeaders;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Reads Sparkplug B messages in their edge node's task (the input keyed by edge node and
 * repartitioned, {@link SparkplugEdgeKeyer}): a BIRTH's metric definitions are kept in the birth
 * store ({@link TopologyNames#SPARKPLUG_BIRTH_STORE}, changelogged, so that a restart or a
 * rebalance loses none), keyed {@code group/edge} for the node's and {@code group/edge/device} for
 * a device's; a DATA message becomes readings through its node's or device's birth ({@link
 * SparkplugReadings}), checked ({@link ReadingChecks}) and forwarded like any decoded readings to
 * the batcher before the repartition by series.
 *
 * <p>A new NBIRTH replaces the node's definitions and forgets its devices' of earlier sessions: the
 * specification requires every device to send its DBIRTH again after its node's, and a device's
 * DATA read with the last session's aliases could carry the wrong names. DATA in between is
 * dead-lettered ({@code unknown-alias}) and can be replayed after the rebirth. A device birth sent
 * at or after the NBIRTH (by their payload timestamps) is of the new session and kept: a bridge
 * that keys records by topic puts a node's NBIRTH and its devices' DBIRTHs on different partitions,
 * and Kafka does not order them. A BIRTH that cannot be read is dead-lettered and forgets the
 * definitions it would have replaced, for the same reason. A record is taken or rejected whole, as
 * {@link ReadingDecodeProcessor} says why. DEATH messages change nothing: the next BIRTH replaces
 * the definitions.
 *
 * <p>A reading over a series limit sent back by {@code dead-letters replay} ({@link
 * ReplayedSeriesLimit}) needs no birth: its JSON is read, checked and forwarded as any reading.
 *
 * <p>The births a task uses are kept as objects too, in front of the store, so that a DATA message
 * costs no store read; they are dropped whenever the task is initialised again, as after a rollback
 * to its last commit, and read back from the store.
 */
final class SparkplugDecodeProcessor
    implements Processor<String, SparkplugEnvelope, SeriesKey, Object> {

  /** The most births kept as objects per task; the store holds them all. */
  static final int MAX_CACHED_BIRTHS = 10_000;

  private final SparkplugPayloads payloads = new SparkplugPayloads();
  private final SparkplugReadings readings;
  private final SparkplugSequence sequence = new SparkplugSequence();
  private final ReadingChecks checks;
  private final Handover handover;
  private final BucketerMetrics metrics;
  private final Map<String, SparkplugBirth> births =
      new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(final Map.Entry<String, SparkplugBirth> eldest) {
          return size() > MAX_CACHED_BIRTHS;
        }
      };
  private ProcessorContext<SeriesKey, Object> context;
  private KeyValueStore<String, SparkplugBirth> store;

  SparkplugDecodeProcessor(
      final SparkplugSettings settings,
      final ReadingChecks checks,
      final Handover handover,
      final BucketerMetrics metrics) {
    this.readings = new SparkplugReadings(settings.booleansAsNumbers());
    this.handover = handover;
    this.checks = checks;
    this.metrics = metrics;
  }

  @Override
  public void init(final ProcessorContext<SeriesKey, Object> context) {
    this.context = context;
    this.store = context.getStateStore(TopologyNames.SPARKPLUG_BIRTH_STORE);
    // Initialised again after a rollback: what was kept may be ahead of the store.
    births.clear();
    sequence.clear();
  }

  @Override
  public void process(final Record<String, SparkplugEnvelope> record) {
    final SparkplugEnvelope envelope = record.value();
    try {
      if (ReplayedSeriesLimit.isReplayed(record.headers())) {
        forwardChecked(record, ReplayedSeriesLimit.DECODER.readings(replayedInput(record)));
        return;
      }
      final SparkplugTopic topic = SparkplugTopic.parse(envelope.mqttTopic());
      process(record, topic);
    } catch (InvalidReadingException e) {
      reject(record, new ReadingChecks.Rejection(e.reason().label(), e.getMessage()));
    }
  }

  private void process(final Record<String, SparkplugEnvelope> record, final SparkplugTopic topic)
      throws InvalidReadingException {
    final SparkplugPayload payload;
    try {
      payload = payloads.read(record.value().originalValue());
    } catch (InvalidReadingException e) {
      if (topic.type().isBirth()) {
        forget(topic);
      }
      throw e;
    }
    if (sequence.isGap(topic.edgeNodeId(), topic.type(), payload)) {
      metrics.sparkplugSeqGap(topic.edgeNodeId());
    }
    switch (topic.type()) {
      case NBIRTH, DBIRTH -> born(topic, payload);
      case NDATA, DDATA -> data(record, topic, payload);
      default -> {
        // NDEATH, DDEATH: counted when keyed; the next BIRTH replaces the definitions.
      }
    }
  }

  private void born(final SparkplugTopic topic, final SparkplugPayload payload)
      throws InvalidReadingException {
    final SparkplugBirth birth;
    try {
      birth = SparkplugBirth.of(topic, payload);
    } catch (InvalidReadingException e) {
      forget(topic);
      throw e;
    }
    if (topic.device() == null) {
      forgetDevices(topic, birth.timestamp());
    }
    // One changelog record per birth: the put replaces the last one.
    store.put(topic.sensorId(), birth);
    births.put(topic.sensorId(), birth);
  }

  /** Forgets a device's birth, or a node's with its devices'. */
  private void forget(final SparkplugTopic topic) {
    store.delete(topic.sensorId());
    births.remove(topic.sensorId());
    if (topic.device() == null) {
      forgetDevices(topic, SparkplugBirth.NO_TIMESTAMP);
    }
  }

  /** Forgets the births of the node's devices but those of the session started at {@code born}. */
  private void forgetDevices(final SparkplugTopic node, final long born) {
    final String devices = node.edgeNodeId() + "/";
    final List<String> keys = new ArrayList<>();
    try (KeyValueIterator<String, SparkplugBirth> stored =
        store.prefixScan(devices, new StringSerializer())) {
      stored.forEachRemaining(
          (KeyValue<String, SparkplugBirth> entry) -> {
            if (!entry.value.isOfSessionStartedAt(born)) {
              keys.add(entry.key);
            }
          });
    }
    keys.forEach(
        key -> {
          store.delete(key);
          births.remove(key);
        });
  }

  private void data(
      final Record<String, SparkplugEnvelope> record,
      final SparkplugTopic topic,
      final SparkplugPayload payload)
      throws InvalidReadingException {
    final SparkplugReadings.Decoded decoded = readings.of(topic, payload, birthOf(topic));
    if (forwardChecked(record, decoded.readings())) {
      decoded.skipped().forEach((why, count) -> metrics.sparkplugMetricsSkipped(why.tag(), count));
    }
  }

  /**
   * Checks the record's readings and forwards them all to the batcher, or dead-letters the record
   * when one fails: whether they went on.
   */
  private boolean forwardChecked(
      final Record<String, SparkplugEnvelope> record, final List<Reading> found) {
    final long now = context.currentSystemTimeMs();
    for (final Reading reading : found) {
      final Optional<ReadingChecks.Rejection> invalid = checks.checkReading(reading, now);
      if (invalid.isPresent()) {
        reject(record, ReadingDecodeProcessor.naming(reading, found, invalid.get()));
        return false;
      }
    }
    for (final Reading reading : found) {
      final long timestamp = reading.getTimestamp().toEpochMilli();
      if (!handover.takesReading(timestamp, record.timestamp())) {
        metrics.reading(ReadingOutcome.HANDED_OVER);
        continue;
      }
      context.forward(
          new Record<SeriesKey, Object>(
              new SeriesKey(reading.getSensorId(), reading.getMetric()),
              reading,
              timestamp,
              record.headers()),
          TopologyNames.BATCH);
    }
    return true;
  }

  /** A replayed reading's record as the JSON decoder reads it. */
  private static InputRecord replayedInput(final Record<String, SparkplugEnvelope> record) {
    final SparkplugEnvelope envelope = record.value();
    return new InputRecord(
        envelope.originalKey(),
        envelope.originalValue(),
        name -> {
          final Header last = record.headers().lastHeader(name);
          return last == null ? null : last.value();
        },
        record.timestamp());
  }

  private SparkplugBirth birthOf(final SparkplugTopic topic) {
    final String key = topic.sensorId();
    SparkplugBirth birth = births.get(key);
    if (birth == null) {
      birth = store.get(key);
      if (birth == null) {
        return SparkplugBirth.NONE;
      }
      births.put(key, birth);
    }
    return birth;
  }

  /**
   * To the dead-letter topic with the input record's key, value and place, unless the other side of
   * a handover dead-letters this record.
   */
  private void reject(
      final Record<String, SparkplugEnvelope> record, final ReadingChecks.Rejection rejection) {
    if (!handover.takesRejectionOf(record.timestamp())) {
      return;
    }
    final SparkplugEnvelope envelope = record.value();
    final Record<SeriesKey, Object> rejected =
        new Record<SeriesKey, Object>(
            null,
            new RejectedInput(envelope.originalKey(), envelope.originalValue()),
            context.currentSystemTimeMs(),
            record.headers());
    DeadLetterHeaders.add(
        rejected.headers(),
        rejection.reason(),
        rejection.message(),
        envelope.sourceTopic(),
        envelope.sourcePartition(),
        envelope.sourceOffset(),
        record.timestamp());
    metrics.deadLetter(rejection.reason());
    context.forward(rejected, TopologyNames.REJECTED_INPUT);
  }

  @Override
  public void close() {
    births.clear();
  }
}
