package io.bucketer.topology;

import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.internals.InternalProcessorContext;
import org.apache.kafka.streams.processor.internals.ProcessorNode;
import org.apache.kafka.streams.processor.internals.ProcessorRecordContext;

/**
 * Lets a processor forward records from the hook that runs just before a commit ({@link
 * PreCommitHookStore}), so that they are sent in the transaction that commits the input they come
 * from.
 *
 * <p><b>Why Kafka Streams internals.</b> Outside {@code process} and punctuations a task has no
 * current node, and {@code forward} refuses to run. Kafka's own record cache forwards at the same
 * moment, as its tables' caches flush, by making the node it captured at {@code init} current and
 * giving it a record context of its own ({@code TimestampedCacheFlushListener}); this does the
 * same, with the record context a punctuation gets (no source topic, partition or offset). There is
 * no public way: a punctuation or {@code ProcessorContext#commit()} does not run before every
 * commit. Upgrading Kafka Streams must keep this path; the exactly-once tests, and every test that
 * counts readings through the repartition, fail if it breaks.
 */
final class CommitTimeForwarder {

  private final InternalProcessorContext<?, ?> context;
  private final ProcessorNode<?, ?, ?, ?> node;

  /** To be made in the processor's {@code init}, while its node is the current one. */
  CommitTimeForwarder(final ProcessorContext<?, ?> context) {
    if (!(context instanceof InternalProcessorContext<?, ?> internal)) {
      throw new IllegalStateException(
          "forwarding at commit needs Kafka Streams' own processor context, not "
              + context.getClass().getName());
    }
    this.context = internal;
    this.node = internal.currentNode();
    if (node == null) {
      throw new IllegalStateException("a forwarder must be made in its processor's init");
    }
  }

  /** Runs {@code forwarding} as if in its processor, at wall-clock time {@code timestamp}. */
  void run(final long timestamp, final Runnable forwarding) {
    final ProcessorNode<?, ?, ?, ?> previousNode = context.currentNode();
    final ProcessorRecordContext previousRecord = context.recordContext();
    context.setCurrentNode(node);
    context.setRecordContext(
        new ProcessorRecordContext(timestamp, -1L, -1, null, new RecordHeaders()));
    try {
      forwarding.run();
    } finally {
      context.setRecordContext(previousRecord);
      context.setCurrentNode(previousNode);
    }
  }
}
