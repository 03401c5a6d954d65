package io.bucketer.bench;

import io.bucketer.avro.Reading;
import io.bucketer.buckets.SeriesKey;
import io.bucketer.ingest.ReadingDecoder;
import io.bucketer.ingest.SchemaRegistryClient;
import io.bucketer.topics.WholeTopic;
import io.bucketer.topology.ReadingSerde;
import io.bucketer.topology.SeriesKeySerde;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.function.LongConsumer;
import java.util.function.Supplier;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.EmitStrategy;
import org.apache.kafka.streams.kstream.Grouped;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.kstream.TimeWindows;
import org.apache.kafka.streams.kstream.WindowedSerdes;
import org.apache.kafka.streams.state.WindowStore;

/**
 * The peer: the same readings through Kafka Streams' own windowed aggregation, what a team would
 * write in an afternoon. After the floor's decode and repartition by series, one-minute windows,
 * count, sum, min and max per window, each window emitted once when it closes. No measurements, no
 * hour rollup, no late merging: what bucketer does beyond this is what it costs beyond this. Timed
 * from its first reading processed until every reading that can close is either in a closed window,
 * read back from their topic as a downstream consumer would read them, or was dropped as late.
 *
 * <p>Like for like, it must aggregate every reading bucketer buckets. On a backlog a partition of
 * the repartition topic takes series from every upstream task at once, and one task may have read
 * its whole input, trailing readings included, before another has begun: with bucketer's grace,
 * Kafka Streams dropped 75 % of the readings as late (bucketer merges such readings into the
 * buckets it already wrote). So the harness gives the peer a grace of the whole event time of its
 * input, the most that disorder can be, and none is dropped. Its windows then close only when
 * {@link ClosingTicks}, stamped past them all, arrive once every reading is in: it emits them all
 * at the end, where a live stream's would go out minute by minute. The output says so.
 */
final class WindowedAggregateRun {

  static final Duration WINDOW = Duration.ofMinutes(1);
  static final String STORE = "window-stats-1m-store";

  /**
   * Where it reads and writes, its windows' grace, and the event time its input spans, from its
   * earliest reading to its latest.
   */
  record Settings(
      String inputTopic,
      String outputTopic,
      int seriesPartitions,
      Duration grace,
      Duration eventTimeSpan) {

    /**
     * For readings from {@code first} to {@code last}: a grace of all that time, so that none is
     * late however a backlog reorders them, and an event time that reaches the ticks that close
     * every window.
     */
    static Settings droppingNone(
        final String inputTopic,
        final String outputTopic,
        final int seriesPartitions,
        final Instant first,
        final Instant last) {
      final Duration grace = Duration.between(first, last);
      return new Settings(
          inputTopic,
          outputTopic,
          seriesPartitions,
          grace,
          Duration.between(first, closingTime(last, grace)));
    }

    /** When ticks close every window up to {@code last}: its window's end and the grace after. */
    private static Instant closingTime(final Instant last, final Duration grace) {
      return last.plus(WINDOW).plus(grace);
    }

    /** The ticks' time, past the close of every window of readings from the input's start. */
    Instant closingTime(final Instant first) {
      return first.plus(eventTimeSpan);
    }

    /**
     * How long the store keeps a window. With {@code onWindowClose}, Kafka Streams emits closed
     * windows from the store, and a window store drops whatever is older than stream time minus its
     * retention, size plus grace unless set. When stream time jumps further than that in one step,
     * the windows the jump closes are dropped before they are emitted, silently. On a backlog the
     * stream time of a partition can jump by all the event time of the input at once (a partition
     * takes series from several upstream tasks, one of which may have read its whole input before
     * another has begun), so the store keeps windows that long beyond size and grace.
     */
    Duration retention() {
      return WINDOW.plus(grace).plus(eventTimeSpan);
    }
  }

  /**
   * How long it took; the closed windows it emitted and the readings they hold; the readings it
   * dropped as too late for their window; the Kafka records its topology wrote.
   */
  record Result(
      PhaseClock.Measured time,
      long windows,
      long readingsInWindows,
      long droppedAsLate,
      ProducedRecords written) {}

  private WindowedAggregateRun() {}

  /**
   * The topology; {@code arrivals} counts what reaches the aggregation, so that the harness knows
   * when the input has been read, and where.
   */
  static Topology topology(
      final Settings settings, final Supplier<ReadingDecoder> decoders, final Arrivals arrivals) {
    final StreamsBuilder builder = new StreamsBuilder();
    ReadingsBySeries.stream(builder, settings.inputTopic(), decoders, settings.seriesPartitions())
        .processValues(arrivals::<SeriesKey, Reading>counter, Named.as("count-arrivals"))
        .groupByKey(Grouped.with(new SeriesKeySerde(), new ReadingSerde()))
        .windowedBy(TimeWindows.ofSizeAndGrace(WINDOW, settings.grace()))
        .emitStrategy(EmitStrategy.onWindowClose())
        .aggregate(
            WindowStats::empty,
            (series, reading, stats) -> stats.add(reading.getValue()),
            Named.as("aggregate-windows"),
            Materialized.<SeriesKey, WindowStats, WindowStore<Bytes, byte[]>>as(STORE)
                .withKeySerde(new SeriesKeySerde())
                .withValueSerde(new WindowStatsSerde())
                .withRetention(settings.retention()))
        .toStream(Named.as("closed-windows"))
        .to(
            settings.outputTopic(),
            Produced.with(
                    new WindowedSerdes.TimeWindowedSerde<>(new SeriesKeySerde(), WINDOW.toMillis()),
                    new WindowStatsSerde())
                .withName("egress-" + settings.outputTopic()));
    return builder.build();
  }

  /**
   * Runs the topology on {@code streamsProperties} until every one of the {@code readings} in the
   * input, the first at {@code first}, is either in a closed window or was dropped as late; once
   * they have all arrived, ticks close every window.
   *
   * <p>Kafka Streams drops a reading as late by the stream time of its partition; with a grace
   * shorter than the input's span, readings can be dropped on a backlog. They are counted, not
   * hidden.
   */
  static Result run(
      final PhaseClock clock,
      final Properties streamsProperties,
      final Settings settings,
      final SchemaRegistryClient registry,
      final long readings,
      final Instant first,
      final Duration timeout,
      final LongConsumer progress)
      throws InterruptedException {
    final Arrivals arrivals = new Arrivals();
    final String bootstrapServers =
        streamsProperties.getProperty(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG);
    final Deserializer<WindowStats> stats = new WindowStatsSerde().deserializer();
    try (KafkaStreams streams =
            new KafkaStreams(
                topology(settings, () -> new ReadingDecoder(registry), arrivals),
                streamsProperties);
        KafkaConsumer<byte[], byte[]> closedWindows =
            committedReader(bootstrapServers, settings.outputTopic());
        ClosingTicks ticks =
            new ClosingTicks(
                bootstrapServers,
                ReadingsBySeries.repartitionTopic(
                    streamsProperties.getProperty(StreamsConfig.APPLICATION_ID_CONFIG)),
                settings.closingTime(first))) {
      streams.start();
      final Deadline deadline = new Deadline(timeout);
      FirstRecord.await(streams::metrics, streams::state, deadline, "the windowed aggregate");
      clock.start();
      long windows = 0;
      long inWindows = 0;
      long dropped = 0;
      long lastReport = System.nanoTime();
      while (arrivals.records() < readings || inWindows + dropped < readings) {
        deadline.check(
            readings
                + " readings to be in closed windows or dropped ("
                + inWindows
                + " in windows, "
                + dropped
                + " dropped)");
        if (!streams.state().isRunningOrRebalancing()) {
          throw new IllegalStateException("the windowed aggregate stopped: " + streams.state());
        }
        for (final ConsumerRecord<byte[], byte[]> window :
            closedWindows.poll(Duration.ofMillis(20))) {
          windows++;
          inWindows += stats.deserialize(window.topic(), window.value()).count();
        }
        if (arrivals.records() >= readings) {
          dropped = readingsDropped(streams);
          ticks.maybeSend(arrivals.partitions());
        }
        if (System.nanoTime() - lastReport > TimeUnit.SECONDS.toNanos(2)) {
          lastReport = System.nanoTime();
          progress.accept(inWindows);
        }
      }
      final PhaseClock.Measured time = clock.stop();
      final ProducedRecords written =
          ProducedRecords.of(
              streamsProperties.getProperty(StreamsConfig.APPLICATION_ID_CONFIG),
              streams.metrics());
      if (inWindows + dropped != readings) {
        throw new IllegalStateException(
            "closed windows hold "
                + inWindows
                + " readings and "
                + dropped
                + " were dropped, but "
                + readings
                + " arrived");
      }
      return new Result(time, windows, inWindows, dropped, written);
    }
  }

  /**
   * Readings dropped as late: every record the aggregation dropped (Kafka Streams' task metric).
   * The ticks are never among them: they are the latest records of their partitions.
   */
  private static long readingsDropped(final KafkaStreams streams) {
    return ClientMetrics.total(streams.metrics(), "stream-task-metrics", "dropped-records-total");
  }

  /** Reads the windows' topic from its start, as a downstream consumer: committed records only. */
  private static KafkaConsumer<byte[], byte[]> committedReader(
      final String bootstrapServers, final String topic) {
    final Map<String, Object> properties = new HashMap<>();
    properties.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    properties.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    properties.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    final KafkaConsumer<byte[], byte[]> consumer =
        new KafkaConsumer<>(properties, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    WholeTopic.assignFromStart(consumer, topic);
    return consumer;
  }
}
