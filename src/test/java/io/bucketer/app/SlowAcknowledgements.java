package io.bucketer.app;

import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerInterceptor;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;

/**
 * A fault for tests: a transactional producer whose transactions time out in under {@link
 * #SLOW_BELOW_MS} holds its I/O thread for {@link #HOLD_MS} at the broker's acknowledgements, so
 * that no transaction of it can commit before the broker aborts it: the transaction stays open past
 * its timeout, as a stream thread starved of CPU keeps one open. A producer given a longer timeout
 * is not held. Installed with {@code kafka.producer.interceptor.classes}.
 */
public final class SlowAcknowledgements implements ProducerInterceptor<Object, Object> {

  /** Producers whose transaction timeout is below this many milliseconds are held. */
  static final int SLOW_BELOW_MS = 2000;

  /** How long each hold lasts: longer than the timeouts of the producers it holds. */
  static final long HOLD_MS = 2500;

  /** After a hold, acknowledgements within this time are let through (the rest of a response). */
  private static final long QUIET_AFTER_HOLD_NANOS = TimeUnit.MILLISECONDS.toNanos(200);

  /** Ends every hold at once: a closed producer's I/O thread must not stand still any more. */
  private final CountDownLatch closed = new CountDownLatch(1);

  private boolean slow;
  private long holdEndedNanos = Long.MIN_VALUE / 2;

  @Override
  public void configure(final Map<String, ?> configs) {
    final Object timeout = configs.get(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG);
    slow =
        configs.get(ProducerConfig.TRANSACTIONAL_ID_CONFIG) != null
            && timeout != null
            && Integer.parseInt(timeout.toString().trim()) < SLOW_BELOW_MS;
  }

  @Override
  public ProducerRecord<Object, Object> onSend(final ProducerRecord<Object, Object> record) {
    return record;
  }

  @Override
  public void onAcknowledgement(final RecordMetadata metadata, final Exception exception) {
    if (!slow || exception != null || System.nanoTime() - holdEndedNanos < QUIET_AFTER_HOLD_NANOS) {
      return;
    }
    try {
      // The fault: the I/O thread stands still until the producer is closed, or for HOLD_MS.
      closed.await(HOLD_MS, TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    holdEndedNanos = System.nanoTime();
  }

  @Override
  public void close() {
    closed.countDown();
  }
}
