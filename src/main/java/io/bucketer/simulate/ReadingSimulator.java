package io.bucketer.simulate;

import io.bucketer.avro.Reading;
import io.bucketer.ingest.ReadingEncoder;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;

/**
 * Acts as IoT gateways: sends generated readings to the input topic at a steady rate, each as the
 * records its encoder makes of it (by default bucketer's {@code Reading}, framed as Confluent's
 * Avro serializer frames it, keyed by sensor id as a gateway typically would).
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
    this(producer, MessageEncoder.keyedBySensor(encoder::encode), topic);
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
      final List<GatewayRecord> records = encoder.records(reading);
      for (int i = 0; i < records.size(); i++) {
        final GatewayRecord record = records.get(i);
        final RecordHeaders headers = new RecordHeaders();
        record.headers().forEach(headers::add);
        // A reading is acknowledged with its last record, the one that carries it.
        final boolean carriesTheReading = i == records.size() - 1;
        producer.send(
            new ProducerRecord<>(topic, null, record.key(), record.value(), headers),
            (metadata, error) -> {
              if (error != null) {
                failures.incrementAndGet();
                firstError.compareAndSet(null, error);
              } else if (carriesTheReading) {
                acknowledged.incrementAndGet();
              }
            });
      }
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
