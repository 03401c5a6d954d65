package io.bucketer.topology;

import io.bucketer.buckets.SeriesKey;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongConsumer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The readings an aggregating task holds for a few seconds ({@code readings.hold}) before it
 * applies them to its windows, each series' readings one after another.
 *
 * <p><b>Why.</b> At live traffic a commit holds one reading of each of thousands of series, so each
 * reading's first look at its series' state waits for memory: the state of 100,000 series is cold
 * by the time the series sends again. Applied series by series, the readings of a few seconds share
 * that wait: `bench lifecycle --readings-at-once 5` measured two thirds off the window code, and a
 * fifth of the changes logged. The trade is latency: a reading reaches its window, and a window its
 * close, up to the hold later.
 *
 * <p><b>Nothing is lost.</b> Just before each commit the readings that came since the last are
 * logged to the window log store, one entry per commit (cut at {@link WindowLog#CHUNK_BYTES}), in
 * the repartition topic's batch format ({@link PartitionBatchSerde}, the bytes as they came when
 * they came from it); so they reach the transaction that commits their input offsets. An apply's
 * entries are deleted in the commit that logs the changes it made. So a crash, a rebalance or a
 * rolled-back transaction finds in the log exactly the readings the windows have not taken, and
 * {@link #restore} holds them again.
 *
 * <p>Confined to the task's stream thread.
 */
final class ReadingHold {

  /**
   * Bytes a task holds at most before it applies them, however short of the hold: bounds its heap
   * under a backlog (about 300,000 readings of 1 Hz series), where a record already brings many
   * readings of each series and holding them longer saves nothing.
   */
  static final long MAX_HELD_BYTES = 8L << 20;

  /**
   * Readings of each series a commit brings, on average, from which it is applied at once: a
   * backlog's commits bring dozens. Not 2: a live fleet's commits bring two or three of a series
   * when the stream thread pauses for an apply, and applying those at once, measured, halved what
   * each apply held.
   */
  static final int DENSE_READINGS_PER_SERIES = 8;

  private static final int HEADER_BYTES = 1 + Integer.BYTES + Integer.BYTES;
  private static final long NOTHING_HELD = Long.MIN_VALUE;

  /** Receives each series' held readings at an apply. */
  @FunctionalInterface
  interface SeriesReadings {
    /** {@code readings} is reused for the next series: read it before returning. */
    void accept(SeriesKey series, ReadingBatch readings);
  }

  private final KeyValueStore<Bytes, byte[]> log;
  private final long holdMillis;
  private final int partition;
  private final LongConsumer heldChanged;

  /** Batches that came since the last commit, not logged yet, in the order they came. */
  private final List<byte[]> received = new ArrayList<>();

  /**
   * Readings that came decoded (keyed by sensor: no repartition) since the last commit, by series:
   * a series' part of the logged batch holds all its readings of the commit.
   */
  private final Map<SeriesKey, ReadingBatch> gathered = new LinkedHashMap<>();

  /** Readings, and series' parts, that came since the last commit: whether they are dense. */
  private long receivedReadings;

  private long receivedParts;

  /** Entries logged and not applied yet, oldest first, and their keys. */
  private final List<byte[]> held = new ArrayList<>();

  private final List<Bytes> heldKeys = new ArrayList<>();

  /** Keys of entries applied since the last commit: deleted in the next one. */
  private final List<Bytes> appliedKeys = new ArrayList<>();

  private long sequence;
  private long heldSince = NOTHING_HELD;
  private long heldBytes;
  private long heldReadings;

  /**
   * @param log the window log store
   * @param holdMillis how long readings are held, more than 0
   * @param partition the task's partition, which its logged batches name
   * @param heldChanged told of each change of the readings held, + or -
   */
  ReadingHold(
      final KeyValueStore<Bytes, byte[]> log,
      final long holdMillis,
      final int partition,
      final LongConsumer heldChanged) {
    this.log = log;
    this.holdMillis = holdMillis;
    this.partition = partition;
    this.heldChanged = heldChanged;
  }

  /** Holds again what the log holds: readings logged and not applied before the task last ended. */
  void restore(final long now) {
    forget();
    try (KeyValueIterator<Bytes, byte[]> entries =
        log.range(WindowLogKeys.firstHeld(), WindowLogKeys.afterHeld())) {
      while (entries.hasNext()) {
        final KeyValue<Bytes, byte[]> entry = entries.next();
        held.add(entry.value);
        heldKeys.add(entry.key);
        heldBytes += entry.value.length;
        held(PartitionBatchSerde.checked(entry.value));
        sequence = Math.max(sequence, WindowLogKeys.heldSequenceOf(entry.key));
      }
    }
    if (!held.isEmpty()) {
      heldSince = now;
    }
  }

  /** Holds the readings of a record; {@code recordKey} is the series of a batch that names none. */
  void add(final AggregatorInput input, final SeriesKey recordKey, final long now) {
    final PartitionBatch batch =
        input instanceof PartitionBatch repartitioned ? repartitioned : null;
    final byte[] encoded = batch == null ? null : batch.encodedValue();
    if (encoded != null) {
      received.add(encoded);
      heldBytes += encoded.length;
      receivedReadings += batch.encodedReadings();
      receivedParts += seriesOf(encoded);
      held(batch.encodedReadings());
    } else {
      input.forEachSeries(recordKey, this::gather);
    }
    if (heldSince == NOTHING_HELD) {
      heldSince = now;
    }
  }

  private void gather(final SeriesKey series, final ReadingBatch readings) {
    ReadingBatch seriesReadings = gathered.get(series);
    if (seriesReadings == null) {
      seriesReadings = new ReadingBatch(readings.size());
      gathered.put(series, seriesReadings);
      receivedParts++;
    }
    for (int i = 0; i < readings.size(); i++) {
      if (readings.hasUtcOffset(i)) {
        seriesReadings.addWithUtcOffset(
            readings.timestamp(i), readings.value(i), readings.utcOffsetMinutesAt(i));
      } else {
        seriesReadings.add(readings.timestamp(i), readings.value(i), null);
      }
    }
    receivedReadings += readings.size();
    heldBytes += 64L * readings.size(); // about what a decoded reading takes on the heap
    held(readings.size());
  }

  private void held(final long readings) {
    heldReadings += readings;
    heldChanged.accept(readings);
  }

  /**
   * Whether the readings should be applied at this commit rather than held: the readings that came
   * since the last commit bring {@value #DENSE_READINGS_PER_SERIES} or more of each series on
   * average (a backlog's, which holding would only log once more: 6.2 instead of 4.6 ms of CPU per
   * 1,000 backlog readings in `bench live`, one run each), or it holds as much as it may.
   */
  boolean applyAtCommit() {
    return holdsAny()
        && (receivedParts > 0 && receivedReadings >= DENSE_READINGS_PER_SERIES * receivedParts
            || heldBytes >= MAX_HELD_BYTES);
  }

  /** Whether it holds as much as it may: the task should commit, and so apply, soon. */
  boolean full() {
    return heldBytes >= MAX_HELD_BYTES;
  }

  /** Whether the readings held are due: the oldest was held for the hold, or they fill the room. */
  boolean due(final long now) {
    return heldSince != NOTHING_HELD
        && (now - heldSince >= holdMillis || heldBytes >= MAX_HELD_BYTES);
  }

  /** Whether it holds any reading. */
  boolean holdsAny() {
    return heldSince != NOTHING_HELD;
  }

  /**
   * Passes every reading held to {@code each}, series by series, each series' readings in the order
   * they came, and holds nothing from then on. The logged entries they came from are deleted at the
   * next commit, with the changes the readings make.
   *
   * <p>The series come in the order of the slots a {@link java.util.HashMap} of {@code
   * seriesWithState} series keeps them in: the task's state by series (clocks, cached windows)
   * lives in such maps, and the collector, copying a map's entries out of the young generation as
   * it finds them in the map's table, lays them out in about that order; applied in it, the series'
   * state is read from memory in order more than at random (docs/benchmarks.md: a sixth off the
   * aggregate stage at 50,000 live sensors).
   */
  void applyBySeries(final int seriesWithState, final SeriesReadings each) {
    encodeGathered();
    final List<byte[]> batches = new ArrayList<>(held.size() + received.size());
    batches.addAll(held);
    batches.addAll(received);
    appliedKeys.addAll(heldKeys);
    held.clear();
    heldKeys.clear();
    clearReceived();
    heldSince = NOTHING_HELD;
    heldBytes = 0;
    held(-heldReadings);
    new SeriesGrouping(batches, slotBits(seriesWithState)).forEachSeries(each);
  }

  /**
   * Bits of a hash that pick the slot of a {@link java.util.HashMap} of {@code series} entries: its
   * table, 16 slots at first, doubles whenever it holds more than three quarters of them.
   */
  static int slotBits(final int series) {
    int bits = 4;
    while (bits < 30 && series > 3L * (1 << bits) / 4) {
      bits++;
    }
    return bits;
  }

  /**
   * Logs what came since the last commit, and deletes the entries applied since: called just before
   * each commit, so both reach its transaction.
   */
  void beforeCommit() {
    appliedKeys.forEach(log::delete);
    appliedKeys.clear();
    encodeGathered();
    if (received.isEmpty()) {
      return;
    }
    sequence++;
    int chunk = 0;
    int from = 0;
    while (from < received.size()) {
      int to = from + 1;
      long bytes = received.get(from).length;
      while (to < received.size()
          && bytes + received.get(to).length - HEADER_BYTES <= WindowLog.CHUNK_BYTES) {
        bytes += received.get(to).length - HEADER_BYTES;
        to++;
      }
      final byte[] entry = concatenated(received.subList(from, to), (int) bytes);
      final Bytes key = WindowLogKeys.held(sequence, chunk++);
      log.put(key, entry);
      held.add(entry);
      heldKeys.add(key);
      from = to;
    }
    clearReceived();
  }

  private void clearReceived() {
    received.clear();
    receivedReadings = 0;
    receivedParts = 0;
  }

  /** Forgets what it holds: the task's state is rolled back, and read again from the log. */
  void forget() {
    clearReceived();
    gathered.clear();
    held.clear();
    heldKeys.clear();
    appliedKeys.clear();
    heldSince = NOTHING_HELD;
    heldBytes = 0;
    held(-heldReadings);
  }

  private void encodeGathered() {
    if (!gathered.isEmpty()) {
      final PartitionBatch batch = new PartitionBatch(partition, 1, gathered.size());
      gathered.forEach(batch::put);
      received.add(PartitionBatchSerde.encode(batch));
      gathered.clear();
    }
  }

  private static int seriesOf(final byte[] batch) {
    return ByteBuffer.wrap(batch, 1 + Integer.BYTES, Integer.BYTES).getInt();
  }

  /** One batch of the series of {@code batches}, one after another: each batch's bytes copied. */
  private byte[] concatenated(final List<byte[]> batches, final int bytes) {
    if (batches.size() == 1) {
      return batches.get(0);
    }
    int series = 0;
    for (final byte[] batch : batches) {
      series += seriesOf(batch);
    }
    final ByteBuffer entry =
        ByteBuffer.allocate(bytes)
            .put(PartitionBatchSerde.format())
            .putInt(partition)
            .putInt(series);
    for (final byte[] batch : batches) {
      entry.put(batch, HEADER_BYTES, batch.length - HEADER_BYTES);
    }
    return entry.array();
  }

  /**
   * The series' readings of several batches, found without decoding a key per reading: each series'
   * part of each batch (its key's bytes, then its readings) is indexed by its series' hash map slot
   * ({@link #applyBySeries}) and hash, computed from the key's bytes, and the part's place, the
   * index sorted, and the parts of one series, next to each other then, decoded one after another
   * under one key decoded once. A sort of primitives, not a map of keys: a map would make and hash
   * a key object per part, the cost the hold removes.
   */
  private static final class SeriesGrouping {
    private final List<byte[]> batches;
    private final int[] batchOf;
    private final int[] keyAt;
    private final int[] keyEnd;
    private final long[] order;

    SeriesGrouping(final List<byte[]> batches, final int slotBits) {
      this.batches = batches;
      int parts = 0;
      for (final byte[] batch : batches) {
        parts += seriesOf(batch);
      }
      batchOf = new int[parts];
      keyAt = new int[parts];
      keyEnd = new int[parts];
      order = new long[parts];
      int part = 0;
      for (int b = 0; b < batches.size(); b++) {
        final byte[] batch = batches.get(b);
        final ByteBuffer buffer = ByteBuffer.wrap(batch);
        buffer.position(1 + Integer.BYTES);
        final int series = buffer.getInt();
        for (int s = 0; s < series; s++) {
          batchOf[part] = b;
          keyAt[part] = buffer.position();
          SeriesKeySerde.skip(buffer);
          keyEnd[part] = buffer.position();
          final int readings = buffer.getInt();
          for (int r = 0; r < readings; r++) {
            ReadingSerde.skipReading(buffer);
          }
          order[part] = ((long) slotOrder(batch, keyAt[part], slotBits) << 32) | part;
          part++;
        }
      }
      Arrays.sort(order);
    }

    void forEachSeries(final SeriesReadings each) {
      final ReadingBatch readings = new ReadingBatch(16);
      final boolean[] done = new boolean[order.length];
      int runStart = 0;
      while (runStart < order.length) {
        final long runHash = order[runStart] >>> 32;
        int runEnd = runStart + 1;
        while (runEnd < order.length && order[runEnd] >>> 32 == runHash) {
          runEnd++;
        }
        // Within a run of one hash, parts in the order they came; two series that share a hash
        // are told apart by their keys' bytes.
        for (int first = runStart; first < runEnd; first++) {
          final int firstPart = (int) order[first];
          if (done[first]) {
            continue;
          }
          final byte[] firstBatch = batches.get(batchOf[firstPart]);
          final SeriesKey series =
              SeriesKeySerde.read(
                  ByteBuffer.wrap(
                      firstBatch, keyAt[firstPart], keyEnd[firstPart] - keyAt[firstPart]));
          readings.clear();
          for (int other = first; other < runEnd; other++) {
            final int part = (int) order[other];
            if (!done[other] && sameKey(firstPart, part)) {
              done[other] = true;
              readInto(part, readings);
            }
          }
          each.accept(series, readings);
        }
        runStart = runEnd;
      }
    }

    private boolean sameKey(final int one, final int other) {
      return one == other
          || Arrays.equals(
              batches.get(batchOf[one]),
              keyAt[one],
              keyEnd[one],
              batches.get(batchOf[other]),
              keyAt[other],
              keyEnd[other]);
    }

    private void readInto(final int part, final ReadingBatch readings) {
      final ByteBuffer buffer = ByteBuffer.wrap(batches.get(batchOf[part]));
      buffer.position(keyEnd[part]);
      final int count = buffer.getInt();
      for (int r = 0; r < count; r++) {
        ReadingSerde.readReading(buffer, readings);
      }
    }

    /**
     * The key's {@link SeriesKey#hashCode} as {@link java.util.HashMap} spreads it, turned so that
     * the slot's bits come first and, with the top bit flipped, so that a signed sort orders the
     * slots from the first: one value per hash, so a series' parts still sort next to each other.
     */
    private static int slotOrder(final byte[] batch, final int keyAt, final int slotBits) {
      final int hash = SeriesKeySerde.hashCodeAt(batch, keyAt);
      final int spread = hash ^ (hash >>> 16);
      return Integer.rotateRight(spread, slotBits) ^ Integer.MIN_VALUE;
    }
  }
}
