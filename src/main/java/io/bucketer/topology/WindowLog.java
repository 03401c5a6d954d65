package io.bucketer.topology;

import io.bucketer.buckets.Granularity;
import io.bucketer.topology.WindowLogKeys.Group;
import io.bucketer.windows.AppendedReadings;
import io.bucketer.windows.ReadingRun;
import io.bucketer.windows.WindowState;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * What makes a task's windows durable: their changes, logged per commit, rather than each changed
 * window written whole to a changelog.
 *
 * <p><b>Why.</b> At live traffic a commit holds a reading or two of each series, so a changelogged
 * window store sends every window with all its readings so far to Kafka at every commit: about one
 * record and 220 bytes per reading at 20,000 sensors. Here the windows live in local stores without
 * a changelog, and each commit writes, to this one logged store, one entry per group of windows it
 * changed (a granularity and a window start: at live traffic the current minute, and the hour at a
 * minute's close), holding each window's change: its new readings, or the window whole where that
 * is shorter or the only exact form. So the records follow commits and groups, not readings, and
 * the bytes follow the readings' own size.
 *
 * <p><b>What is kept.</b> A group that has taken no change for {@link #QUIET_MILLIS} (a minute once
 * it closed, an hour once it closed) is compacted: its entries are replayed and written again as
 * one snapshot, each window whole (its readings packed, about 3 bytes each at 1 Hz) and each run,
 * and the older entries deleted. So at rest the log holds about what a compacted changelog of the
 * windows held, and a rebuild reads a few records per group. A group's entries go once none of its
 * windows and runs is left: expired, usually a horizon after the window closed. The census, a local
 * store, counts each group's keys and the commits its entries come from; it is rebuilt with the
 * windows.
 *
 * <p><b>Rebuilding.</b> Under exactly-once, Kafka Streams keeps a task's local stores only after a
 * clean close, and wipes them with the logged ones otherwise. So the local windows are either as
 * the log was at their last commit, or gone. The log's last sequence (each commit's entries carry
 * theirs) and the census' (written with it, locally) tell which: when they differ, the windows were
 * wiped, or another instance has changed the log since this one closed the task; the task then
 * rebuilds them from the log ({@link #replay}).
 *
 * <p>Confined to the task's stream thread.
 */
final class WindowLog {

  /** An entry's bytes before it is cut: well under a Kafka record's default limit of 1 MiB. */
  static final int CHUNK_BYTES = 256 * 1024;

  /**
   * How long a group takes no change before it is compacted: past the burst of its close (a
   * minute's windows close over the second after end + grace), short of the next minute's.
   */
  static final long QUIET_MILLIS = 30_000;

  /** Groups compacted by one commit at most: a compaction rewrites its group in that commit. */
  private static final int COMPACTIONS_PER_COMMIT = 1;

  private final KeyValueStore<Bytes, byte[]> log;
  private final KeyValueStore<Bytes, byte[]> census;
  private final Map<Long, Granularity> granularities = new HashMap<>();

  /** What the census knows of each group. */
  private final Map<Group, Census> groups = new HashMap<>();

  /** Changes since the last flush, by group. */
  private final Map<Group, Pending> pending = new LinkedHashMap<>();

  private long sequence;

  /** Where a replay puts what it rebuilds: the task's local stores. */
  interface Target {
    void window(Granularity granularity, byte[] series, long start, WindowState state);

    void sealedRun(byte[] series, long windowStart, int number, ReadingRun run);
  }

  /**
   * A group's keys (windows and sealed runs), the commits its entries in the log come from (a
   * snapshot is one, whatever its chunks), and when it last changed (on this instance: a group read
   * from the census or rebuilt counts as changed then).
   */
  private static final class Census {
    long keys;
    int commits;
    long changedAt;

    Census(final long keys, final int commits, final long changedAt) {
      this.keys = keys;
      this.commits = commits;
      this.changedAt = changedAt;
    }

    byte[] toBytes() {
      return ByteBuffer.allocate(Long.BYTES + Integer.BYTES).putLong(keys).putInt(commits).array();
    }

    static Census of(final byte[] value, final long now) {
      final ByteBuffer buffer = ByteBuffer.wrap(value);
      return new Census(buffer.getLong(), buffer.getInt(), now);
    }
  }

  /** A group's changes since the last flush: entries cut at {@link #CHUNK_BYTES}, and one open. */
  private static final class Pending {
    final List<byte[]> chunks = new ArrayList<>();
    WindowLogCodec.Writer open;

    /** The open entry, begun if need be. */
    WindowLogCodec.Writer writer(final Group group) {
      if (open == null) {
        open = new WindowLogCodec.Writer(group.start());
      }
      return open;
    }

    /** Closes the open entry once it reaches {@link #CHUNK_BYTES}. */
    void cutWhenFull() {
      if (open.size() >= CHUNK_BYTES) {
        chunks.add(open.toBytes());
        open = null;
      }
    }
  }

  /**
   * @param log the logged store of entries
   * @param census the local store that counts each group's keys
   * @param granularities the task's granularities: a group of another is stale
   */
  WindowLog(
      final KeyValueStore<Bytes, byte[]> log,
      final KeyValueStore<Bytes, byte[]> census,
      final List<Granularity> granularities) {
    this.log = log;
    this.census = census;
    granularities.forEach(
        granularity -> this.granularities.put(granularity.sizeMillis(), granularity));
    this.sequence = loggedSequence();
  }

  /**
   * The sequence of the last commit that changed anything; 0 for a log never written. A commit that
   * writes an entry says its sequence in the entry's key; only one that writes none (it released
   * groups) writes the sequence apart, which saves a record per commit when each holds a reading.
   * So the last sequence is the greater of that and the newest entry's: read from each group's last
   * key, a seek per group.
   */
  private long loggedSequence() {
    long newest = WindowLogKeys.sequenceOf(log.get(WindowLogKeys.SEQUENCE));
    Bytes from = WindowLogKeys.firstGroup();
    while (true) {
      final Bytes first;
      try (KeyValueIterator<Bytes, byte[]> entries = log.range(from, WindowLogKeys.afterGroups())) {
        if (!entries.hasNext()) {
          return newest;
        }
        first = entries.next().key;
      }
      final Group group =
          new Group(
              Granularity.ofMillis(WindowLogKeys.sizeOf(first)), WindowLogKeys.startOf(first));
      final Bytes last = WindowLogKeys.lastEntry(group);
      try (KeyValueIterator<Bytes, byte[]> entries = log.reverseRange(first, last)) {
        newest = Math.max(newest, WindowLogKeys.sequenceOf(entries.next().key));
      }
      from = WindowLogKeys.afterGroup(group);
    }
  }

  /** Whether the local windows are as the log has them: else they must be rebuilt. */
  boolean localWindowsCurrent() {
    return WindowLogKeys.sequenceOf(census.get(WindowLogKeys.SEQUENCE)) == sequence;
  }

  /**
   * Reads the census of the local windows, which {@link #localWindowsCurrent} says are current. The
   * groups of a granularity the task no longer has are released: nothing reads their windows.
   */
  void loadCensus(final long now) {
    groups.clear();
    final List<Group> stale = new ArrayList<>();
    try (KeyValueIterator<Bytes, byte[]> all =
        census.range(WindowLogKeys.firstGroup(), WindowLogKeys.afterGroups())) {
      while (all.hasNext()) {
        final KeyValue<Bytes, byte[]> entry = all.next();
        final long size = WindowLogKeys.sizeOf(entry.key);
        final Granularity granularity = granularities.get(size);
        final long start = WindowLogKeys.startOf(entry.key);
        if (granularity == null) {
          stale.add(new Group(Granularity.ofMillis(size), start));
        } else {
          groups.put(new Group(granularity, start), Census.of(entry.value, now));
        }
      }
    }
    stale.forEach(this::release);
  }

  /**
   * Records a change of a key of {@code group}, which adds {@code keysAdded} keys to it (1 for a
   * new window or run, -1 for one deleted, else 0).
   */
  void record(final Group group, final WindowChange change, final int keysAdded) {
    final Pending changes = pending.computeIfAbsent(group, g -> new Pending());
    if (keysAdded != 0) {
      groups.computeIfAbsent(group, g -> new Census(0, 0, 0)).keys += keysAdded;
    }
    add(changes, group, change);
  }

  /**
   * Records readings appended to a window of {@code group} (and perhaps its close), read from where
   * they are: {@code series} as {@link SeriesKeySerde} encodes it.
   */
  void recordAppended(final Group group, final byte[] series, final AppendedReadings appended) {
    final Pending changes = pending.computeIfAbsent(group, g -> new Pending());
    changes
        .writer(group)
        .addAppended(
            series,
            appended.closes(),
            appended.utcOffsetMinutes(),
            appended.readings(),
            appended.from());
    changes.cutWhenFull();
  }

  private static void add(final Pending changes, final Group group, final WindowChange change) {
    changes.writer(group).add(change);
    changes.cutWhenFull();
  }

  /**
   * Writes the changes since the last flush: an entry per group that still holds keys, the release
   * of every group that holds none, the census, and the sequence; then compacts a group that has
   * been quiet. Called just before each commit, so that the entries reach the commit's transaction
   * with the offsets of the readings they hold.
   *
   * @param now the wall clock, which says how long a group has been quiet
   */
  void flush(final long now) {
    if (pending.isEmpty()) {
      return;
    }
    sequence++;
    boolean wroteEntries = false;
    for (final Map.Entry<Group, Pending> changed : pending.entrySet()) {
      final Group group = changed.getKey();
      final Pending changes = changed.getValue();
      final Census held = groups.get(group);
      if (held == null || held.keys <= 0) {
        release(group);
        continue;
      }
      if (changes.open != null) {
        changes.chunks.add(changes.open.toBytes());
      }
      for (int chunk = 0; chunk < changes.chunks.size(); chunk++) {
        log.put(WindowLogKeys.entry(group, sequence, chunk), changes.chunks.get(chunk));
        wroteEntries = true;
      }
      held.commits++;
      held.changedAt = now;
      census.put(WindowLogKeys.group(group), held.toBytes());
    }
    int compactions = 0;
    for (final Map.Entry<Group, Census> quiet : groups.entrySet()) {
      final Census held = quiet.getValue();
      if (compactions < COMPACTIONS_PER_COMMIT
          && held.commits > 1
          && now - held.changedAt >= QUIET_MILLIS
          && !pending.containsKey(quiet.getKey())) {
        compact(quiet.getKey(), held);
        compactions++;
        wroteEntries = true;
      }
    }
    pending.clear();
    final byte[] sequenceValue = WindowLogKeys.sequenceValue(sequence);
    if (!wroteEntries) {
      log.put(WindowLogKeys.SEQUENCE, sequenceValue);
    }
    census.put(WindowLogKeys.SEQUENCE, sequenceValue);
  }

  /**
   * Replaces the entries of {@code group} by one snapshot of what they leave, at this commit's
   * sequence: every window whole, every run.
   */
  private void compact(final Group group, final Census held) {
    final GroupReplay replayed = new GroupReplay(group);
    final List<Bytes> older = new ArrayList<>();
    try (KeyValueIterator<Bytes, byte[]> entries =
        log.range(WindowLogKeys.firstEntry(group), WindowLogKeys.lastEntry(group))) {
      while (entries.hasNext()) {
        final KeyValue<Bytes, byte[]> entry = entries.next();
        older.add(entry.key);
        WindowLogCodec.decode(entry.value, group.start(), replayed);
      }
    }
    older.forEach(log::delete);
    final Pending snapshot = new Pending();
    replayed.windows.forEach(
        (series, window) ->
            add(snapshot, group, new WindowChange.Whole(series.get(), window.state())));
    replayed.runs.forEach(
        (run, readings) ->
            add(
                snapshot,
                group,
                new WindowChange.RunSealed(run.series().get(), run.number(), readings)));
    if (snapshot.open != null) {
      snapshot.chunks.add(snapshot.open.toBytes());
    }
    for (int chunk = 0; chunk < snapshot.chunks.size(); chunk++) {
      log.put(WindowLogKeys.entry(group, sequence, chunk), snapshot.chunks.get(chunk));
    }
    held.commits = 1;
    census.put(WindowLogKeys.group(group), held.toBytes());
  }

  /** Forgets the changes since the last flush: the task's state was rolled back. */
  void discard() {
    pending.clear();
  }

  private void release(final Group group) {
    groups.remove(group);
    census.delete(WindowLogKeys.group(group));
    deleteEntries(group);
  }

  private void deleteEntries(final Group group) {
    final List<Bytes> doomed = new ArrayList<>();
    try (KeyValueIterator<Bytes, byte[]> entries =
        log.range(WindowLogKeys.firstEntry(group), WindowLogKeys.lastEntry(group))) {
      entries.forEachRemaining(entry -> doomed.add(entry.key));
    }
    doomed.forEach(log::delete);
  }

  /**
   * Rebuilds the windows and runs the log holds into {@code target}, group by group, and the census
   * with them; the local stores must be empty. Entries of a granularity the task no longer has are
   * deleted: nothing reads their windows any more.
   */
  void replay(final Target target, final long now) {
    groups.clear();
    census.put(WindowLogKeys.SEQUENCE, WindowLogKeys.sequenceValue(0));
    final List<Bytes> stale = new ArrayList<>();
    GroupReplay current = null;
    try (KeyValueIterator<Bytes, byte[]> entries =
        log.range(WindowLogKeys.firstGroup(), WindowLogKeys.afterGroups())) {
      while (entries.hasNext()) {
        final KeyValue<Bytes, byte[]> entry = entries.next();
        final Granularity granularity = granularities.get(WindowLogKeys.sizeOf(entry.key));
        if (granularity == null) {
          stale.add(entry.key);
          continue;
        }
        final Group group = new Group(granularity, WindowLogKeys.startOf(entry.key));
        if (current == null || !current.group.equals(group)) {
          finish(current, target, now);
          current = new GroupReplay(group);
        }
        final long entrySequence = WindowLogKeys.sequenceOf(entry.key);
        if (entrySequence != current.lastSequence) {
          current.commits++;
          current.lastSequence = entrySequence;
        }
        WindowLogCodec.decode(entry.value, group.start(), current);
      }
    }
    finish(current, target, now);
    stale.forEach(log::delete);
    census.put(WindowLogKeys.SEQUENCE, WindowLogKeys.sequenceValue(sequence));
  }

  private void finish(final GroupReplay replayed, final Target target, final long now) {
    if (replayed == null) {
      return;
    }
    final Group group = replayed.group;
    replayed.windows.forEach(
        (series, window) ->
            target.window(group.granularity(), series.get(), group.start(), window.state()));
    replayed.runs.forEach(
        (run, readings) ->
            target.sealedRun(run.series().get(), group.start(), run.number(), readings));
    final long held = replayed.windows.size() + replayed.runs.size();
    if (held == 0) {
      deleteEntries(group); // released in a commit that did not complete its release: tidy it
    } else {
      final Census counted = new Census(held, replayed.commits, now);
      groups.put(group, counted);
      census.put(WindowLogKeys.group(group), counted.toBytes());
    }
  }
}
