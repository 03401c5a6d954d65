package io.bucketer.simulate;

import io.bucketer.avro.Reading;
import io.bucketer.ingest.ReadingEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * Acts as IoT gateways: sends generated readings to the input topic at a steady rate, each as the
 * record its encoder makes of it (by default bucketer's {@code Reading}, framed as Confluent's Avro
 * serializer frames it), keyed by sensor id as a gateway typically would (the processor does not
 * rely on the key unless told to).
 */
public final class ReadingSimulator {

  private final Producer<byte[], byte[]> producer;
  private final MessageEncoder encoder;
  private final String topic;
  private final AtomicLong sent = new AtomicLong();
  private final AtomicLong acknowledged = new AtomicLong();

  /** Gateways that send bucketer's own {@code Reading}, Avro framed for the registry. */
  public ReadingSimulator(
      final Producer<byte[], byte[]> producer, final ReadingEncoder encoder, final String topic) {
    this(producer, (MessageEncoder) encoder::encode, topic);
  }

  /** Gateways that send what {@code encoder} makes of each reading (see {@link GatewayFleet}). */
  public ReadingSimulator(
      final Producer<byte[], byte[]> producer, final MessageEncoder encoder, final String topic) {
    this.producer = producer;
    this.encoder = encoder;
    this.topic = topic;
  }

  /**
   * Sends every reading of {@code readings}, at most {@code ratePerSecond} a second (0: as fast as
   * the producer takes them), then flushes and fails if the broker rejected any.
   */
  public long run(final Iterator<Reading> readings, final double ratePerSecond) {
    final long startNanos = System.nanoTime();
    final long sentBefore = sent.get();
    final AtomicLong failures = new AtomicLong();
    final AtomicReference<Exception> firstError = new AtomicReference<>();
    while (readings.hasNext()) {
      if (Thread.currentThread().isInterrupted()) {
        break;
      }
      final Reading reading = readings.next();
      final long index = sent.get() - sentBefore;
      if (ratePerSecond > 0) {
        // Pacing, not synchronisation: hold each reading until its slot in the schedule.
        final long dueNanos = startNanos + (long) (index * 1e9 / ratePerSecond);
        final long waitNanos = dueNanos - System.nanoTime();
        if (waitNanos > 0) {
          LockSupport.parkNanos(waitNanos);
        }
      }
      producer.send(
          new ProducerRecord<>(
              topic,
              reading.getSensorId().getBytes(StandardCharsets.UTF_8),
              encoder.encode(reading)),
          (metadata, error) -> {
            if (error == null) {
              acknowledged.incrementAndGet();
            } else {
              failures.incrementAndGet();
              firstError.compareAndSet(null, error);
            }
          });
      sent.incrementAndGet();
    }
    producer.flush();
    if (failures.get() > 0) {
      throw new IllegalStateException(
          failures.get()
              + " readings were not accepted by Kafka; the first error: "
              + firstError.get(),
          firstError.get());
    }
    return sent.get() - sentBefore;
  }

  /** Sends every reading of a list as fast as the producer takes them. */
  public long send(final List<Reading> readings) {
    return run(readings.iterator(), 0);
  }

  /** Readings handed to the producer so far. */
  public long sent() {
    return sent.get();
  }

  /** Readings the broker has acknowledged so far. */
  public long acknowledged() {
    return acknowledged.get();
  }
}
