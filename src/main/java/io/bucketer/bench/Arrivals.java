package io.bucketer.bench;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import org.apache.kafka.streams.processor.api.FixedKeyProcessor;
import org.apache.kafka.streams.processor.api.FixedKeyProcessorContext;
import org.apache.kafka.streams.processor.api.FixedKeyRecord;

/**
 * What has reached a step of a topology, for the harness that waits on it: how many records, and on
 * which partitions of the step's input.
 */
final class Arrivals {

  private final LongAdder records = new LongAdder();
  private final Set<Integer> partitions = ConcurrentHashMap.newKeySet();

  long records() {
    return records.sum();
  }

  /** The partitions at least one record has arrived on. */
  Set<Integer> partitions() {
    return Set.copyOf(partitions);
  }

  /** A step that counts what passes it into this, and passes it on unchanged. */
  <K, V> FixedKeyProcessor<K, V, V> counter() {
    return new FixedKeyProcessor<>() {
      private FixedKeyProcessorContext<K, V> context;
      private boolean arrivedHere;

      @Override
      public void init(final FixedKeyProcessorContext<K, V> context) {
        this.context = context;
      }

      @Override
      public void process(final FixedKeyRecord<K, V> record) {
        if (!arrivedHere) {
          partitions.add(context.taskId().partition());
          arrivedHere = true;
        }
        records.increment();
        context.forward(record);
      }
    };
  }
}
