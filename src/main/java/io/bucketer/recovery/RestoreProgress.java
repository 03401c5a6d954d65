package io.bucketer.recovery;

import java.text.NumberFormat;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.processor.StateRestoreListener;

/**
 * The state stores Kafka Streams is restoring from their changelogs right now, and how far each is:
 * after a crash, a dirty close (a fenced or evicted stream thread under exactly-once wipes its
 * tasks' state) or a task moved from another instance. Told by Kafka Streams' restore listener,
 * from its restoring thread; read by whoever asks, from any thread.
 */
public final class RestoreProgress implements StateRestoreListener {

  private final Map<String, Store> restoring = new ConcurrentHashMap<>();

  @Override
  public void onRestoreStart(
      final TopicPartition partition,
      final String storeName,
      final long startingOffset,
      final long endingOffset) {
    restoring.put(key(partition, storeName), new Store(endingOffset - startingOffset));
  }

  @Override
  public void onBatchRestored(
      final TopicPartition partition,
      final String storeName,
      final long batchEndOffset,
      final long numRestored) {
    final Store store = restoring.get(key(partition, storeName));
    if (store != null) {
      store.restored.addAndGet(numRestored);
    }
  }

  @Override
  public void onRestoreEnd(
      final TopicPartition partition, final String storeName, final long totalRestored) {
    restoring.remove(key(partition, storeName));
  }

  @Override
  public void onRestoreSuspended(
      final TopicPartition partition, final String storeName, final long totalRestored) {
    // The task moved away or closed before its restore ended: nothing of it is restoring now.
    restoring.remove(key(partition, storeName));
  }

  /** True while any store restores. */
  public boolean inProgress() {
    return !restoring.isEmpty();
  }

  /**
   * How far the restores are, such as "restoring 4 stores from their changelogs: 41 % of 120,000
   * records", or empty when none restores.
   */
  public Optional<String> describe() {
    long total = 0;
    long restored = 0;
    int stores = 0;
    for (final Store store : restoring.values()) {
      stores++;
      total += store.records;
      restored += Math.min(store.restored.get(), store.records);
    }
    if (stores == 0) {
      return Optional.empty();
    }
    final long percent = total == 0 ? 100 : restored * 100 / total;
    return Optional.of(
        "restoring "
            + stores
            + (stores == 1 ? " store" : " stores")
            + " from the changelogs: "
            + percent
            + " % of "
            + NumberFormat.getIntegerInstance(Locale.ROOT).format(total)
            + " records");
  }

  private static String key(final TopicPartition partition, final String storeName) {
    return storeName + '\u0000' + partition;
  }

  /** One store's restore: the changelog records it must read, and those read so far. */
  private static final class Store {
    private final long records;
    private final AtomicLong restored = new AtomicLong();

    private Store(final long records) {
      this.records = records;
    }
  }
}
