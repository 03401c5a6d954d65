package io.bucketer.topology;

import java.util.Map;
import org.apache.kafka.streams.state.RocksDBConfigSetter;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.Cache;
import org.rocksdb.LRUCache;
import org.rocksdb.Options;
import org.rocksdb.WriteBufferManager;

/**
 * Caps the native memory of every RocksDB store of this process together. By default each store of
 * each task gets its own block cache and up to three 16 MiB memtables, so off-heap memory grows
 * with the number of tasks and stores and is invisible to the heap limit: a container sized for the
 * heap gets killed. Here all stores share one LRU block cache of {@value #MEMORY_BYTES_CONFIG}
 * bytes, memtables are charged to the same cache through one write-buffer manager (up to half of
 * it), and index and filter blocks live in the cache too instead of beside it.
 *
 * <p>Kafka Streams creates this class by name, once per store, so the shared cache is held
 * statically and made on first use with the configured size; it lives as long as the process.
 */
public final class BoundedRocksDbMemory implements RocksDBConfigSetter {

  /** The streams property that carries the cap, in bytes. */
  public static final String MEMORY_BYTES_CONFIG = "bucketer.rocksdb.memory.bytes";

  private static final double WRITE_BUFFER_SHARE = 0.5;
  private static final double HIGH_PRIORITY_SHARE = 0.1;

  private static Cache cache;
  private static WriteBufferManager writeBuffers;
  private static long configuredBytes;

  @Override
  public void setConfig(
      final String storeName, final Options options, final Map<String, Object> configs) {
    final long bytes = Long.parseLong(String.valueOf(configs.get(MEMORY_BYTES_CONFIG)));
    final BlockBasedTableConfig table = (BlockBasedTableConfig) options.tableFormatConfig();
    synchronized (BoundedRocksDbMemory.class) {
      share(bytes);
      table.setBlockCache(cache);
      options.setWriteBufferManager(writeBuffers);
    }
    table.setCacheIndexAndFilterBlocks(true);
    table.setCacheIndexAndFilterBlocksWithHighPriority(true);
    table.setPinTopLevelIndexAndFilter(true);
    options.setTableFormatConfig(table);
  }

  private static void share(final long bytes) {
    if (cache == null) {
      configuredBytes = bytes;
      // strict capacity off: a full cache must slow reads down, not fail them
      cache = new LRUCache(bytes, -1, false, HIGH_PRIORITY_SHARE);
      writeBuffers = new WriteBufferManager((long) (bytes * WRITE_BUFFER_SHARE), cache);
    } else if (bytes != configuredBytes) {
      throw new IllegalStateException(
          "one process shares one RocksDB memory cap; it is "
              + configuredBytes
              + " bytes, not "
              + bytes);
    }
  }

  @Override
  public void close(final String storeName, final Options options) {
    // The cache and the write-buffer manager are shared by every store: never closed per store.
  }
}
