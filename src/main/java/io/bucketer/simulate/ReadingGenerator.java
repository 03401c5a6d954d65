package io.bucketer.simulate;

import io.bucketer.avro.Reading;
import java.time.Duration;
import java.time.Instant;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.PriorityQueue;
import java.util.SplittableRandom;

/**
 * A deterministic stream of readings, as a fleet of gateways would send them: every sensor reports
 * once per interval of event time, with jitter on the timestamp, and a fraction of readings arrives
 * late, overtaken by up to {@code maxDisplacement} later readings. The same options and seed always
 * give the same readings, so a test can compute the expected buckets independently.
 */
public final class ReadingGenerator implements Iterator<Reading> {

  /** How the simulated fleet behaves. */
  public record Options(
      int sensors,
      Instant start,
      Duration interval,
      Duration jitter,
      double outOfOrderFraction,
      int maxDisplacement,
      long count,
      long seed) {

    public Options {
      if (sensors < 1 || count < 0 || interval.isNegative() || interval.isZero()) {
        throw new IllegalArgumentException("need at least one sensor and a positive interval");
      }
      if (outOfOrderFraction < 0 || outOfOrderFraction > 1) {
        throw new IllegalArgumentException("out-of-order fraction must be within [0, 1]");
      }
    }
  }

  private record Held(long releaseAt, long sequence, Reading reading) {}

  private final Options options;
  private final SplittableRandom random;
  private final PriorityQueue<Held> held =
      new PriorityQueue<>(
          (a, b) ->
              a.releaseAt != b.releaseAt
                  ? Long.compare(a.releaseAt, b.releaseAt)
                  : Long.compare(a.sequence, b.sequence));
  private long generated;
  private long emitted;

  public ReadingGenerator(final Options options) {
    this.options = options;
    this.random = new SplittableRandom(options.seed());
  }

  @Override
  public boolean hasNext() {
    return emitted < options.count();
  }

  @Override
  public Reading next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    while (true) {
      final Held due = held.peek();
      if (due != null && (due.releaseAt <= generated || generated == options.count())) {
        held.poll();
        emitted++;
        return due.reading;
      }
      final Reading reading = generate(generated++);
      if (random.nextDouble() < options.outOfOrderFraction() && options.maxDisplacement() > 0) {
        final long releaseAt = generated + 1 + random.nextInt(options.maxDisplacement());
        held.add(new Held(releaseAt, generated, reading));
      } else {
        emitted++;
        return reading;
      }
    }
  }

  /**
   * {@code "sensor-0042"}: {@code String.format("sensor-%04d", sensor)} without building a
   * formatter and its locale's symbols for every reading, which cost the simulator more than
   * encoding and sending the reading together.
   */
  static String sensorId(final int sensor) {
    final String digits = Integer.toString(sensor);
    return digits.length() >= 4
        ? "sensor-" + digits
        : "sensor-" + "000".substring(digits.length() - 1) + digits;
  }

  /** The n-th reading in event order: round-robin over sensors, one round per interval. */
  private Reading generate(final long n) {
    final int sensor = (int) (n % options.sensors());
    final long round = n / options.sensors();
    final long jitterMillis = options.jitter().toMillis();
    final long jitter = jitterMillis == 0 ? 0 : random.nextLong(-jitterMillis, jitterMillis + 1);
    final long timestamp =
        options.start().toEpochMilli() + round * options.interval().toMillis() + jitter;
    final boolean humidity = sensor % 3 == 2;
    final double base = humidity ? 45 : 20 + sensor % 7;
    final double wave = Math.sin(round / 30.0 + sensor) * (humidity ? 10 : 3);
    final double noise = random.nextGaussian() / 10;
    return Reading.newBuilder()
        .setSensorId(sensorId(sensor))
        .setMetric(humidity ? "humidity" : "temperature")
        .setTimestamp(Instant.ofEpochMilli(timestamp))
        .setValue(Math.round((base + wave + noise) * 100) / 100.0)
        .setUtcOffsetMinutes(sensor % 4 == 3 ? null : 60)
        .build();
  }
}
