package io.bucketer.topology;

import io.bucketer.metrics.BucketerMetrics;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;

/**
 * An input record that cannot become a reading, on its way to the dead-letter topic: its original
 * key and value; the reason travels in the record's dead-letter headers.
 */
record RejectedInput(byte[] originalKey, byte[] originalValue) {

  /**
   * Sends {@code record} whole, original key and bytes, to {@code child} (the way to the
   * dead-letter topic), marked with {@code rejection}'s headers and counted by its reason.
   */
  static <K> void forward(
      final ProcessorContext<K, Object> context,
      final Record<byte[], byte[]> record,
      final ReadingChecks.Rejection rejection,
      final BucketerMetrics metrics,
      final String child) {
    final Record<K, Object> rejected =
        new Record<K, Object>(
            null,
            new RejectedInput(record.key(), record.value()),
            context.currentSystemTimeMs(),
            record.headers());
    DeadLetterSource.mark(
        rejected.headers(),
        rejection.reason(),
        rejection.message(),
        context.recordMetadata().orElse(null),
        record.timestamp());
    metrics.deadLetter(rejection.reason());
    context.forward(rejected, child);
  }
}
