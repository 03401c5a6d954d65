package io.bucketer.topology;

import io.bucketer.avro.Reading;
import io.bucketer.buckets.BucketLayout;
import io.bucketer.buckets.ClosedBucket;
import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.Handover;
import io.bucketer.buckets.RollupPlan;
import io.bucketer.buckets.SeriesKey;
import io.bucketer.buckets.WindowComputations;
import io.bucketer.ingest.InputDecoder;
import io.bucketer.ingest.sparkplug.SparkplugSettings;
import io.bucketer.metrics.BucketerMetrics;
import io.bucketer.tenants.TenantLimits;
import io.bucketer.tenants.TenantSeriesCounts;
import io.bucketer.topics.BucketerTopics;
import io.bucketer.topics.TypedTopic;
import io.bucketer.windows.DuplicateTimestamps;
import io.bucketer.windows.PublishedWindows;
import io.bucketer.windows.WindowCacheBudget;
import io.bucketer.windows.WindowLifecycle;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Branched;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Repartitioned;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;

/**
 * The processor's topology, wiring only: decode and key by series, repartition by series (one
 * record per partition and commit, each series' readings in it), aggregate into open buckets, and
 * send closed buckets to the compacted buckets topic, from which the sink writes them to MongoDB.
 * Anything that cannot become part of a bucket goes to the dead-letter topic. Tests build the
 * topology with this same method.
 */
public final class BucketTopology {

  /** What the topology needs to know; the rest of the configuration stays outside it. */
  public record Settings(
      String inputTopic,
      String bucketsTopic,
      String deadLetterTopic,
      List<Granularity> granularities,
      Duration grace,
      Duration idleTimeout,
      InputPartitioning partitioning,
      Duration latenessHorizon,
      BucketLayout layout,
      ReadingChecks readingChecks,
      long windowCacheBytes,
      DuplicateTimestamps duplicateTimestamps,
      Optional<SparkplugSettings> sparkplug,
      WindowComputations computations,
      TenantLimits seriesLimits,
      Handover handover,
      Duration readingsHold) {

    /** Settings of input decoded by an {@link InputDecoder}, not Sparkplug B. */
    public Settings(
        final String inputTopic,
        final String bucketsTopic,
        final String deadLetterTopic,
        final List<Granularity> granularities,
        final Duration grace,
        final Duration idleTimeout,
        final InputPartitioning partitioning,
        final Duration latenessHorizon,
        final BucketLayout layout,
        final ReadingChecks readingChecks,
        final long windowCacheBytes,
        final DuplicateTimestamps duplicateTimestamps) {
      this(
          inputTopic,
          bucketsTopic,
          deadLetterTopic,
          granularities,
          grace,
          idleTimeout,
          partitioning,
          latenessHorizon,
          layout,
          readingChecks,
          windowCacheBytes,
          duplicateTimestamps,
          Optional.empty(),
          WindowComputations.DEFAULT,
          TenantLimits.DEFAULT,
          Handover.NONE,
          Duration.ZERO);
    }

    /**
     * These settings for Sparkplug B input, read by the topology's Sparkplug processors rather than
     * an {@link InputDecoder}.
     */
    public Settings withSparkplug(final SparkplugSettings sparkplug) {
      return new Settings(
          inputTopic,
          bucketsTopic,
          deadLetterTopic,
          granularities,
          grace,
          idleTimeout,
          partitioning,
          latenessHorizon,
          layout,
          readingChecks,
          windowCacheBytes,
          duplicateTimestamps,
          Optional.of(sparkplug),
          computations,
          seriesLimits,
          handover,
          readingsHold);
    }

    /** These settings with what each window computes per series beyond count, sum, min and max. */
    public Settings withComputations(final WindowComputations windowComputations) {
      return new Settings(
          inputTopic,
          bucketsTopic,
          deadLetterTopic,
          granularities,
          grace,
          idleTimeout,
          partitioning,
          latenessHorizon,
          layout,
          readingChecks,
          windowCacheBytes,
          duplicateTimestamps,
          sparkplug,
          windowComputations,
          seriesLimits,
          handover,
          readingsHold);
    }

    /** These settings with each tenant's series limits. */
    public Settings withSeriesLimits(final TenantLimits limits) {
      return new Settings(
          inputTopic,
          bucketsTopic,
          deadLetterTopic,
          granularities,
          grace,
          idleTimeout,
          partitioning,
          latenessHorizon,
          layout,
          readingChecks,
          windowCacheBytes,
          duplicateTimestamps,
          sparkplug,
          computations,
          limits,
          handover,
          readingsHold);
    }

    /**
     * These settings as one side of a rescale's handover: the decoding takes only this side's
     * readings ({@link Handover}).
     */
    public Settings withHandover(final Handover side) {
      return new Settings(
          inputTopic,
          bucketsTopic,
          deadLetterTopic,
          granularities,
          grace,
          idleTimeout,
          partitioning,
          latenessHorizon,
          layout,
          readingChecks,
          windowCacheBytes,
          duplicateTimestamps,
          sparkplug,
          computations,
          seriesLimits,
          side,
          readingsHold);
    }

    /**
     * These settings with the aggregator holding readings for {@code hold} before it applies them,
     * each series' readings one after another ({@link ReadingHold}); zero applies each as it comes.
     */
    public Settings withReadingsHold(final Duration hold) {
      return new Settings(
          inputTopic,
          bucketsTopic,
          deadLetterTopic,
          granularities,
          grace,
          idleTimeout,
          partitioning,
          latenessHorizon,
          layout,
          readingChecks,
          windowCacheBytes,
          duplicateTimestamps,
          sparkplug,
          computations,
          seriesLimits,
          handover,
          hold);
    }

    /** How many tasks hold the series, and so share each tenant's series limits. */
    int seriesShares() {
      return partitioning instanceof InputPartitioning.BySeries bySeries
          ? bySeries.seriesPartitions()
          : ((InputPartitioning.BySensorKey) partitioning).inputPartitions();
    }

    /** What the window lifecycle needs of these settings. */
    public WindowLifecycle.Settings lifecycle() {
      return new WindowLifecycle.Settings(
          new RollupPlan(granularities).granularities(),
          grace,
          idleTimeout,
          latenessHorizon,
          layout,
          duplicateTimestamps,
          computations);
    }
  }

  private BucketTopology() {}

  /** The topology, its tasks' published windows read by nobody. */
  public static Topology build(
      final Settings settings,
      final Supplier<? extends InputDecoder> decoders,
      final BucketerMetrics metrics) {
    return build(settings, decoders, metrics, new PublishedWindows.Directory());
  }

  /**
   * The topology, whose aggregators publish the windows they hold in memory in {@code
   * publishedWindows}, for the queries of this process.
   */
  public static Topology build(
      final Settings settings,
      final Supplier<? extends InputDecoder> decoders,
      final BucketerMetrics metrics,
      final PublishedWindows.Directory publishedWindows) {
    final TenantSeriesCounts seriesCounts = new TenantSeriesCounts(settings.seriesLimits());
    metrics.tenantSeries(seriesCounts);
    return build(settings, decoders, metrics, publishedWindows, seriesCounts);
  }

  /**
   * As {@link #build(Settings, Supplier, BucketerMetrics, PublishedWindows.Directory)}, counting
   * the tenants' series in {@code seriesCounts}, whose meters the caller registered: a process that
   * builds the topology again for a new Kafka Streams client keeps its meters and counts.
   */
  public static Topology build(
      final Settings settings,
      final Supplier<? extends InputDecoder> decoders,
      final BucketerMetrics metrics,
      final PublishedWindows.Directory publishedWindows,
      final TenantSeriesCounts seriesCounts) {
    final StreamsBuilder builder = new StreamsBuilder();
    final RollupPlan plan = new RollupPlan(settings.granularities());
    final List<String> storeNames = addStores(builder, plan);
    final WindowCacheBudget windowCache = new WindowCacheBudget(settings.windowCacheBytes());
    final TypedTopic<byte[], byte[]> input = BucketerTopics.input(settings.inputTopic());
    final TypedTopic<String, ClosedBucket> buckets =
        BucketerTopics.closedBuckets(settings.bucketsTopic());
    final TypedTopic<byte[], byte[]> deadLetters =
        BucketerTopics.deadLetters(settings.deadLetterTopic());

    // The decoder forwards each record to one of its two children by name: readings to the
    // batcher before the repartition (or, keyed by sensor, straight to the aggregator), rejected
    // input to the dead-letter topic. A split would put three more nodes on every reading's way.
    final String readingsChild =
        settings.partitioning() instanceof InputPartitioning.BySeries
            ? TopologyNames.BATCH
            : TopologyNames.AGGREGATE;
    final KStream<byte[], byte[]> records =
        builder.stream(
            input.name(),
            StreamsTopics.consumed(input).withName(TopologyNames.source(input.name())));
    final KStream<SeriesKey, Object> decoded =
        settings.sparkplug().isPresent()
            ? SparkplugInput.decode(builder, records, settings, deadLetters, metrics)
            : records.process(
                () ->
                    new ReadingDecodeProcessor(
                        decoders.get(),
                        settings.readingChecks(),
                        settings.partitioning(),
                        settings.handover(),
                        metrics,
                        readingsChild),
                Named.as(TopologyNames.DECODE));

    decoded
        .map(
            (series, rejected) ->
                KeyValue.pair(
                    ((RejectedInput) rejected).originalKey(),
                    ((RejectedInput) rejected).originalValue()),
            Named.as(TopologyNames.REJECTED_INPUT))
        .to(
            deadLetters.name(),
            StreamsTopics.produced(deadLetters).withName(TopologyNames.sink(deadLetters.name())));

    final KStream<SeriesKey, ?> bySeries;
    if (settings.partitioning() instanceof InputPartitioning.BySeries repartitioned) {
      @SuppressWarnings("unchecked") // the decoder forwards only readings to the batcher
      final KStream<SeriesKey, Reading> readings =
          (KStream<SeriesKey, Reading>) (KStream<SeriesKey, ?>) decoded;
      builder.addStateStore(PreCommitHookStore.hookOnly(TopologyNames.BATCH_COMMIT_HOOK));
      bySeries =
          readings
              .process(
                  () -> new ReadingBatcher(repartitioned.seriesPartitions()),
                  Named.as(TopologyNames.BATCH),
                  TopologyNames.BATCH_COMMIT_HOOK)
              .repartition(
                  Repartitioned.<SeriesKey, PartitionBatch>as(TopologyNames.READINGS_BY_SERIES)
                      .withKeySerde(new SeriesKeySerde())
                      .withValueSerde(new PartitionBatchSerde())
                      .withNumberOfPartitions(repartitioned.seriesPartitions())
                      .withStreamPartitioner(SeriesPartitioner.INSTANCE));
    } else {
      // Keyed by sensor: the decoder let through only readings on their sensor's partition, each
      // as a ReadingBatch of one.
      bySeries = decoded;
    }
    // Either way the aggregator's input: repartition records (PartitionBatch) or single readings
    // (ReadingBatch), both AggregatorInput.
    @SuppressWarnings("unchecked")
    final KStream<SeriesKey, AggregatorInput> aggregatorInput =
        (KStream<SeriesKey, AggregatorInput>) bySeries;
    final Map<String, KStream<String, AggregatorOutput>> aggregated =
        aggregatorInput
            .process(
                () ->
                    new BucketAggregator(
                        settings, windowCache, seriesCounts, publishedWindows, metrics),
                Named.as(TopologyNames.AGGREGATE),
                storeNames.toArray(String[]::new))
            .split(Named.as(TopologyNames.ROUTE_AGGREGATED))
            .branch(
                (key, output) -> output instanceof AggregatorOutput.Closed,
                Branched.as(TopologyNames.CLOSED))
            .defaultBranch(Branched.as(TopologyNames.TOO_LATE));

    aggregated
        .get(TopologyNames.ROUTE_AGGREGATED + TopologyNames.CLOSED)
        .mapValues(output -> ((AggregatorOutput.Closed) output).bucket(), Named.as("closed-bucket"))
        .to(
            buckets.name(),
            StreamsTopics.produced(buckets).withName(TopologyNames.sink(buckets.name())));

    // The branch of readings placed nowhere (too late, or refused by a series limit) splits off
    // the closed buckets' stream, so it is keyed by strings though its records have no key: the
    // dead-letter topic's view for such a stream, the same bytes.
    final TypedTopic<String, byte[]> tooLate =
        BucketerTopics.deadLettersKeyedByString(settings.deadLetterTopic());
    aggregated
        .get(TopologyNames.ROUTE_AGGREGATED + TopologyNames.TOO_LATE)
        .processValues(UnplacedReadings::new, Named.as("too-late-dead-letter"))
        .to(
            tooLate.name(),
            StreamsTopics.produced(tooLate)
                .withName(TopologyNames.sink(tooLate.name()) + "-too-late"));

    return builder.build();
  }

  private static List<String> addStores(final StreamsBuilder builder, final RollupPlan plan) {
    final List<StoreBuilder<?>> stores = new ArrayList<>();
    for (final Granularity granularity : plan.granularities()) {
      stores.add(localStore(TopologyNames.windowStore(granularity)));
      stores.add(legacyStore(TopologyNames.legacyWindowStore(granularity)));
    }
    stores.add(localStore(TopologyNames.SEALED_READINGS_STORE));
    stores.add(legacyStore(TopologyNames.LEGACY_SEALED_READINGS_STORE));
    // The windows' changes, one entry per group of windows and commit, written just before each
    // commit so that they reach its transaction with the offsets of the readings they hold.
    stores.add(
        PreCommitHookStore.builder(Stores.persistentKeyValueStore(TopologyNames.WINDOW_LOG_STORE)));
    stores.add(localStore(TopologyNames.WINDOW_LOG_CENSUS_STORE));
    // Written only when the wall clock moves a quiet series' clock, read once per series a task
    // has not seen since it started.
    stores.add(
        Stores.keyValueStoreBuilder(
                Stores.persistentKeyValueStore(TopologyNames.CLOCK_STORE),
                Serdes.Bytes(),
                new SeriesClockSerde())
            .withCachingDisabled());
    stores.forEach(builder::addStateStore);
    return stores.stream().map(StoreBuilder::name).toList();
  }

  /**
   * A RocksDB store without a changelog, which the window log makes durable, and without Kafka's
   * record cache: the aggregator keeps its open windows as objects and writes the changed ones just
   * before each commit, so repeated updates of a window between commits reach RocksDB once.
   */
  private static StoreBuilder<?> localStore(final String name) {
    return Stores.keyValueStoreBuilder(
            Stores.persistentKeyValueStore(name), Serdes.Bytes(), Serdes.ByteArray())
        .withCachingDisabled()
        .withLoggingDisabled();
  }

  /**
   * A changelogged store of the layout before the window log, restored from its changelog so that
   * an upgrade keeps its windows: read until they expire, written only to delete them.
   */
  private static StoreBuilder<?> legacyStore(final String name) {
    return Stores.keyValueStoreBuilder(
            Stores.persistentKeyValueStore(name), Serdes.Bytes(), Serdes.ByteArray())
        .withCachingDisabled();
  }
}
