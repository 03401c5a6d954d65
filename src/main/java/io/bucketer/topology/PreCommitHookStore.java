package io.bucketer.topology;

import java.util.Map;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.KeyValueBytesStoreSupplier;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;
import org.apache.kafka.streams.state.internals.WrappedStateStore;

/**
 * A key-value store of bytes, without Kafka's record cache, that runs its owner's hook just before
 * Kafka Streams commits. Two owners:
 *
 * <ul>
 *   <li>the aggregator keeps its open windows as objects ({@link
 *       io.bucketer.windows.WriteBehindWindows}) and writes the changed ones here then (a logged
 *       RocksDB store), so that the changelog records reach the commit's transaction with the
 *       offsets of the readings they hold, and sends then the revisions of closed windows that late
 *       readings made in the commit, the last of each window;
 *   <li>the batcher before the repartition ({@link ReadingBatcher}) forwards its batches then; its
 *       store is in memory, unlogged, and holds nothing.
 * </ul>
 *
 * <p><b>Why a Kafka Streams internal class.</b> Kafka Streams has no public hook that runs before a
 * commit. The one its own record cache uses is {@code CachedStateStore#flushCache}, which a task
 * calls on each of its stores before it flushes its producer and commits (also before a clean close
 * or a rebalance): {@link WrappedStateStore} implements it. Upgrading Kafka Streams must keep this
 * path; the exactly-once tests fail if a commit stops calling it.
 *
 * <p>The processor gets this store itself from its context, not behind Kafka's read-write
 * decorator, because it is not a {@link KeyValueStore}. Interactive queries read the store below
 * through {@link ReadOnlyKeyValueStore}: what the last commit wrote, at most a commit interval
 * behind.
 */
final class PreCommitHookStore
    extends WrappedStateStore<KeyValueStore<Bytes, byte[]>, Bytes, byte[]>
    implements ReadOnlyKeyValueStore<Bytes, byte[]> {

  private static final Runnable NOTHING = () -> {};

  private Runnable beforeCommit = NOTHING;

  private PreCommitHookStore(final KeyValueStore<Bytes, byte[]> store) {
    super(store);
  }

  /** A builder of such stores over {@code supplier}, logged, with Kafka's record cache off. */
  static StoreBuilder<PreCommitHookStore> builder(final KeyValueBytesStoreSupplier supplier) {
    return new Builder(
        Stores.keyValueStoreBuilder(supplier, Serdes.Bytes(), Serdes.ByteArray())
            .withCachingDisabled());
  }

  /**
   * A builder of a store that holds nothing and is there for its hook alone: in memory, without a
   * changelog, and without Kafka Streams' metered layer. Its per-store metrics would say nothing,
   * and their in-memory tags cannot share a Prometheus meter with the RocksDB stores' metrics,
   * which logged a failed registration at every start.
   */
  static StoreBuilder<PreCommitHookStore> hookOnly(final String name) {
    return new HookOnlyBuilder(name);
  }

  /** Runs {@code hook} before every commit, until the store closes. */
  void beforeCommit(final Runnable hook) {
    this.beforeCommit = hook;
  }

  /** The store below, to read and write. */
  KeyValueStore<Bytes, byte[]> store() {
    return wrapped();
  }

  @Override
  public void flushCache() {
    beforeCommit.run();
    super.flushCache();
  }

  @Override
  public void close() {
    beforeCommit = NOTHING;
    super.close();
  }

  @Override
  public byte[] get(final Bytes key) {
    return wrapped().get(key);
  }

  @Override
  public KeyValueIterator<Bytes, byte[]> range(final Bytes from, final Bytes to) {
    return wrapped().range(from, to);
  }

  @Override
  public KeyValueIterator<Bytes, byte[]> reverseRange(final Bytes from, final Bytes to) {
    return wrapped().reverseRange(from, to);
  }

  @Override
  public KeyValueIterator<Bytes, byte[]> all() {
    return wrapped().all();
  }

  @Override
  public KeyValueIterator<Bytes, byte[]> reverseAll() {
    return wrapped().reverseAll();
  }

  @Override
  public <PS extends Serializer<P>, P> KeyValueIterator<Bytes, byte[]> prefixScan(
      final P prefix, final PS prefixKeySerializer) {
    return wrapped().prefixScan(prefix, prefixKeySerializer);
  }

  @Override
  public long approximateNumEntries() {
    return wrapped().approximateNumEntries();
  }

  /** Builds a bare in-memory store, and wraps it. */
  private record HookOnlyBuilder(String name) implements StoreBuilder<PreCommitHookStore> {

    @Override
    public StoreBuilder<PreCommitHookStore> withCachingEnabled() {
      throw new UnsupportedOperationException("a store that holds nothing has nothing to cache");
    }

    @Override
    public StoreBuilder<PreCommitHookStore> withCachingDisabled() {
      return this;
    }

    @Override
    public StoreBuilder<PreCommitHookStore> withLoggingEnabled(final Map<String, String> config) {
      throw new UnsupportedOperationException("a store that holds nothing has nothing to log");
    }

    @Override
    public StoreBuilder<PreCommitHookStore> withLoggingDisabled() {
      return this;
    }

    @Override
    public PreCommitHookStore build() {
      return new PreCommitHookStore(Stores.inMemoryKeyValueStore(name).get());
    }

    @Override
    public Map<String, String> logConfig() {
      return Map.of();
    }

    @Override
    public boolean loggingEnabled() {
      return false;
    }
  }

  /** Builds the store below with Kafka's builder, and wraps it. */
  private record Builder(StoreBuilder<KeyValueStore<Bytes, byte[]>> below)
      implements StoreBuilder<PreCommitHookStore> {

    @Override
    public StoreBuilder<PreCommitHookStore> withCachingEnabled() {
      throw new UnsupportedOperationException(
          "the aggregator's own window cache replaces Kafka's record cache here");
    }

    @Override
    public StoreBuilder<PreCommitHookStore> withCachingDisabled() {
      return this;
    }

    @Override
    public StoreBuilder<PreCommitHookStore> withLoggingEnabled(final Map<String, String> config) {
      return new Builder(below.withLoggingEnabled(config));
    }

    @Override
    public StoreBuilder<PreCommitHookStore> withLoggingDisabled() {
      return new Builder(below.withLoggingDisabled());
    }

    @Override
    public PreCommitHookStore build() {
      return new PreCommitHookStore(below.build());
    }

    @Override
    public Map<String, String> logConfig() {
      return below.logConfig();
    }

    @Override
    public boolean loggingEnabled() {
      return below.loggingEnabled();
    }

    @Override
    public String name() {
      return below.name();
    }
  }
}
