package io.bucketer.bench;

import io.bucketer.avro.Reading;
import io.bucketer.buckets.BucketLayout;
import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.RollupPlan;
import io.bucketer.ingest.ReadingEncoder;
import io.bucketer.ingest.SchemaRegistryClient;
import io.bucketer.simulate.ReadingGenerator;
import io.bucketer.simulate.ReadingSimulator;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.function.LongConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;

/**
 * The readings every contender of the benchmark consumes: {@code sensors} sensors reporting every
 * {@code interval} for {@code span} of event time, starting on an hour boundary in the past, so
 * that hours are whole. The topic is filled once, before anybody reads it, so each contender
 * catches up on the same backlog.
 *
 * <p>After the fleet's readings comes one trailing reading per sensor, an hour and a grace later:
 * it moves each series' event time past the end of its last windows, which then close as they would
 * in live traffic, by event time, without waiting for the idle timeout of the wall clock.
 */
final class BenchFleet {

  /**
   * What was sent, and how many bucket documents it makes per granularity; {@code trailing} is the
   * event time of the trailing readings, the latest of all.
   */
  record Sent(
      long readings,
      long fleetReadings,
      Instant start,
      Instant end,
      Instant trailing,
      Map<Granularity, Long> bucketDocuments) {}

  private final ReadingGenerator.Options options;
  private final Duration trailingGap;

  BenchFleet(final int sensors, final Duration interval, final Duration span, final long seed) {
    this.trailingGap = Duration.ofHours(1).plus(Duration.ofMinutes(1));
    // On an hour, so that hour buckets are whole. Far enough in the past for the windowed-aggregate
    // peer's closing ticks, which come as long after the trailing readings as these after the start
    // (WindowedAggregateRun), to be in the past too, with hours of margin: the broker refuses a
    // record stamped more than an hour ahead of its clock, and bucketer refuses readings from the
    // future.
    final Duration toClosingTicks = span.plus(trailingGap).multipliedBy(2);
    final long hours =
        (toClosingTicks.toMillis() + Duration.ofHours(1).toMillis() - 1)
            / Duration.ofHours(1).toMillis();
    final Instant start =
        Instant.now().truncatedTo(ChronoUnit.HOURS).minus(Duration.ofHours(hours + 3));
    final long rounds = span.toMillis() / interval.toMillis();
    // No jitter and no reordering: the figures compare throughput, not late-data handling.
    this.options =
        new ReadingGenerator.Options(
            sensors, start, interval, Duration.ZERO, 0, 0, rounds * sensors, seed);
  }

  long readings() {
    return options.count() + options.sensors();
  }

  Instant start() {
    return options.start();
  }

  /**
   * Sends the fleet's readings, then the trailing ones, as fast as the broker takes them; counts
   * the bucket documents they make in {@code layout}: a window that keeps its measurements takes
   * one document per so many of them, a window of summaries one per so many finer windows.
   */
  Sent send(
      final String bootstrapServers,
      final SchemaRegistryClient registry,
      final String topic,
      final List<Granularity> granularities,
      final BucketLayout layout,
      final LongConsumer progress) {
    final Map<WindowKey, Long> perWindow = new HashMap<>();
    final Iterator<Reading> fleet = new ReadingGenerator(options);
    final Instant end = options.start().plus(options.interval().multipliedBy(rounds()));
    final Iterator<Reading> trailing = trailingRound(end);
    final Iterator<Reading> counted =
        new Iterator<>() {
          long sent;

          @Override
          public boolean hasNext() {
            return fleet.hasNext() || trailing.hasNext();
          }

          @Override
          public Reading next() {
            if (!hasNext()) {
              throw new NoSuchElementException();
            }
            if (++sent % 50_000 == 0) {
              progress.accept(sent);
            }
            if (fleet.hasNext()) {
              final Reading reading = fleet.next();
              for (final Granularity granularity : granularities) {
                perWindow.merge(WindowKey.of(reading, granularity), 1L, Long::sum);
              }
              return reading;
            }
            return trailing.next();
          }
        };
    try (KafkaProducer<byte[], byte[]> producer = FleetProducer.to(bootstrapServers, topic)) {
      new ReadingSimulator(producer, new ReadingEncoder(registry, topic), topic).run(counted, 0);
    }
    final RollupPlan plan = new RollupPlan(granularities);
    // entries per window: its readings, or, for a window of summaries, its finer windows
    final Map<WindowKey, Long> entries = new HashMap<>();
    perWindow.forEach(
        (window, count) -> {
          final Optional<Granularity> finer = layout.summarised(window.granularity(), plan);
          if (finer.isEmpty()) {
            entries.merge(window, count, Long::sum);
          }
        });
    perWindow.forEach(
        (window, count) -> {
          for (final Granularity coarser : granularities) {
            if (layout.summarised(coarser, plan).filter(window.granularity()::equals).isPresent()) {
              entries.merge(window.within(coarser), 1L, Long::sum);
            }
          }
        });
    final Map<Granularity, Long> documents = new HashMap<>();
    entries.forEach(
        (window, count) -> {
          final int perDocument =
              layout.summarised(window.granularity(), plan).isPresent()
                  ? layout.maxSummariesPerBucket()
                  : layout.maxMeasurementsPerBucket();
          documents.merge(window.granularity(), (count + perDocument - 1) / perDocument, Long::sum);
        });
    return new Sent(
        readings(), options.count(), options.start(), end, end.plus(trailingGap), documents);
  }

  private long rounds() {
    return options.count() / options.sensors();
  }

  /** One round of the same fleet, {@link #trailingGap} after its end: one reading per series. */
  private Iterator<Reading> trailingRound(final Instant end) {
    return new ReadingGenerator(
        new ReadingGenerator.Options(
            options.sensors(),
            end.plus(trailingGap),
            options.interval(),
            Duration.ZERO,
            0,
            0,
            options.sensors(),
            options.seed()));
  }

  private record WindowKey(String sensorId, String metric, Granularity granularity, long start) {
    /** The window of {@code coarser} that holds this one. */
    WindowKey within(final Granularity coarser) {
      return new WindowKey(sensorId, metric, coarser, coarser.windowStart(start));
    }

    static WindowKey of(final Reading reading, final Granularity granularity) {
      return new WindowKey(
          reading.getSensorId(),
          reading.getMetric(),
          granularity,
          granularity.windowStart(reading.getTimestamp().toEpochMilli()));
    }
  }
}
