package io.bucketer.app;

import io.bucketer.buckets.TimeSpans;
import io.bucketer.recovery.FencingLoopBreaker;
import io.bucketer.recovery.StallRecovery;
import io.bucketer.recovery.StallWatch;
import java.time.Duration;
import java.util.function.BiConsumer;
import java.util.function.Function;
import org.apache.kafka.streams.CloseOptions;
import org.apache.kafka.streams.KafkaStreams;

/**
 * This process's Kafka Streams client, which {@link FencingLoopBreaker} may replace with a new one
 * whose transactions time out later: whatever asks Kafka Streams something asks {@link #current()}
 * at the time it asks. A client's settings are fixed once it is built, so a new timeout takes a new
 * client; it reuses the state directory the old one released on close, like a restart of the
 * process would.
 */
final class StreamsClient implements FencingLoopBreaker.Restart {

  private final Function<Duration, KafkaStreams> build;
  private final BiConsumer<KafkaStreams, KafkaStreams> replaced;
  private final CloseOptions.GroupMembershipOperation onClose;
  private final Duration closeTimeout;
  private final FatalFailure fatal;
  private volatile KafkaStreams current;
  private volatile boolean restarting;
  private boolean closed;
  private long commitsBefore;
  private long processedBefore;

  /**
   * @param build a client, not started, whose transactions time out after the given duration, with
   *     its handlers and listeners set
   * @param replaced told of each replacement, with the old client (closed) and the new one (not
   *     started yet)
   * @param onClose what the old client does with its group membership when a restart closes it
   * @param closeTimeout how long a restart waits for the old client to stop
   * @param fatal where a restart that cannot be done records why
   */
  StreamsClient(
      final Function<Duration, KafkaStreams> build,
      final Duration transactionTimeout,
      final BiConsumer<KafkaStreams, KafkaStreams> replaced,
      final CloseOptions.GroupMembershipOperation onClose,
      final Duration closeTimeout,
      final FatalFailure fatal) {
    this.build = build;
    this.replaced = replaced;
    this.onClose = onClose;
    this.closeTimeout = closeTimeout;
    this.fatal = fatal;
    this.current = build.apply(transactionTimeout);
  }

  /** The client that runs now. */
  KafkaStreams current() {
    return current;
  }

  /** True while a restart is under way: the old client stops and the new one starts. */
  boolean restarting() {
    return restarting;
  }

  void start() {
    current.start();
  }

  /**
   * What the stall watch sees of Kafka Streams now; the commits and records processed count those
   * of the clients replaced before, so that they only grow.
   */
  synchronized StallRecovery.StreamsView view() {
    final StallRecovery.StreamsView now = StallWatch.look(current);
    return new StallRecovery.StreamsView(
        now.state(), commitsBefore + now.commits(), processedBefore + now.processed());
  }

  @Override
  public boolean restartWith(final Duration transactionTimeout) {
    final KafkaStreams old;
    synchronized (this) {
      if (closed) {
        return false;
      }
      restarting = true;
      old = current;
    }
    try {
      // Outside the lock: the watch keeps looking at the old client while it stops.
      final StallRecovery.StreamsView last = StallWatch.look(old);
      if (!old.close(CloseOptions.groupMembershipOperation(onClose).withTimeout(closeTimeout))) {
        fatal.record(
            "kafka streams did not stop within "
                + TimeSpans.format(closeTimeout.toMillis())
                + " to restart with a longer transaction timeout: restart the process");
        return false;
      }
      synchronized (this) {
        if (closed) {
          return false;
        }
        final StallRecovery.StreamsView stopped = StallWatch.look(old);
        commitsBefore += Math.max(last.commits(), stopped.commits());
        processedBefore += Math.max(last.processed(), stopped.processed());
        final KafkaStreams next;
        try {
          next = build.apply(transactionTimeout);
        } catch (RuntimeException e) {
          // The old client is closed and no new one runs: only a restart of the process helps.
          fatal.record(
              "kafka streams stopped to restart with a longer transaction timeout, but could not"
                  + " start again: restart the process");
          throw e;
        }
        replaced.accept(old, next);
        current = next;
        next.start();
        return true;
      }
    } finally {
      restarting = false;
    }
  }

  /** Closes the client that runs now; no restart starts another after it. */
  boolean close(final CloseOptions options) {
    final KafkaStreams closing;
    synchronized (this) {
      closed = true;
      closing = current;
    }
    return closing.close(options);
  }
}
