package io.bucketer.bench;

import io.bucketer.avro.Reading;
import io.bucketer.ingest.ReadingEncoder;
import io.bucketer.ingest.SchemaRegistryClient;
import io.bucketer.simulate.ReadingSimulator;
import java.time.Duration;
import java.time.Instant;
import java.util.Iterator;
import java.util.NoSuchElementException;
import org.apache.kafka.clients.producer.KafkaProducer;

/**
 * A gateway that invents series: every reading from a sensor id never seen before, under one
 * tenant's prefix, at a steady rate, each stamped with the wall clock when it is made.
 */
final class TenantFlood {

  private final ReadingSimulator simulator;
  private final String prefix;

  TenantFlood(
      final KafkaProducer<byte[], byte[]> producer,
      final String registryUrl,
      final String topic,
      final String prefix) {
    this.simulator =
        new ReadingSimulator(
            producer, new ReadingEncoder(new SchemaRegistryClient(registryUrl), topic), topic);
    this.prefix = prefix;
  }

  /** Sends {@code perSecond} readings a second of new series for {@code length}; blocks. */
  long run(final Duration length, final int perSecond) {
    final long count = length.toSeconds() * perSecond;
    return simulator.run(new NewSeries(count), perSecond);
  }

  /** Readings the broker acknowledged so far, over all runs. */
  long acknowledged() {
    return simulator.acknowledged();
  }

  /** One reading of a new series each time, up to {@code count}. */
  private final class NewSeries implements Iterator<Reading> {
    private final long count;
    private long made;

    private NewSeries(final long count) {
      this.count = count;
    }

    @Override
    public boolean hasNext() {
      return made < count;
    }

    @Override
    public Reading next() {
      if (!hasNext()) {
        throw new NoSuchElementException();
      }
      made++;
      return Reading.newBuilder()
          .setSensorId(prefix + simulator.sent())
          .setMetric("temperature")
          .setTimestamp(Instant.now())
          .setValue(20)
          .setUtcOffsetMinutes(null)
          .build();
    }
  }
}
