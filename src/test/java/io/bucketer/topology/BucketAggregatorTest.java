package io.bucketer.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.bucketer.avro.Reading;
import io.bucketer.buckets.ClosedBucket;
import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.SeriesKey;
import io.bucketer.metrics.BucketerMetrics;
import io.bucketer.metrics.BucketerMetrics.StateOperation;
import io.bucketer.tenants.TenantSeriesCounts;
import io.bucketer.testing.Meters;
import io.bucketer.topics.BucketHeaders;
import io.bucketer.windows.PublishedWindows;
import io.bucketer.windows.WindowCacheBudget;
import io.bucketer.windows.WindowReader;
import io.bucketer.windows.WindowState;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.processor.api.MockProcessorContext.CapturedForward;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The Kafka processor around the window lifecycle, one processor in a mock context: what it
 * forwards, with which timestamps and headers, and what the wall-clock punctuator closes.
 */
class BucketAggregatorTest {

  private static final SeriesKey SERIES = new SeriesKey("s1", "temperature");
  private static final long TEN = Instant.parse("2025-06-01T10:00:00Z").toEpochMilli();
  private static final Bytes MINUTE_KEY = StoreKeys.of(SERIES, TEN);

  /** A store that holds nothing, under the published windows. */
  private static final WindowReader NOTHING_STORED =
      new WindowReader() {
        @Override
        public WindowState get(
            final SeriesKey series, final Granularity granularity, final long start) {
          return null;
        }

        @Override
        public List<Window> range(
            final SeriesKey series,
            final Granularity granularity,
            final long first,
            final long last) {
          return List.of();
        }

        @Override
        public OptionalLong latestStart(final SeriesKey series, final Granularity granularity) {
          return OptionalLong.empty();
        }

        @Override
        public List<SealedRun> sealedRuns(
            final SeriesKey series, final long firstStart, final long lastStart) {
          return List.of();
        }
      };

  private final MockProcessorContext<String, AggregatorOutput> context =
      new MockProcessorContext<>();
  private final BucketerMetrics metrics = new BucketerMetrics(new SimpleMeterRegistry());
  private final WindowCacheBudget windowCache =
      new WindowCacheBudget(BucketTopologyTest.WINDOW_CACHE_BYTES);
  private final PublishedWindows.Directory publishedWindows = new PublishedWindows.Directory();
  private final BucketAggregator aggregator =
      new BucketAggregator(
          BucketTopologyTest.SETTINGS,
          windowCache,
          new TenantSeriesCounts(BucketTopologyTest.SETTINGS.seriesLimits()),
          publishedWindows,
          metrics,
          // Kafka's MockProcessorContext lets forward run outside process.
          mockContext -> (timestamp, forwarding) -> forwarding.run());
  private final List<KeyValueStore<Bytes, byte[]>> windowStores = new ArrayList<>();
  private PreCommitHookStore windowLog;

  @BeforeEach
  void initialise() {
    for (final Granularity granularity : BucketTopologyTest.SETTINGS.granularities()) {
      windowStores.add(addBytesStore(TopologyNames.windowStore(granularity)));
      addBytesStore(TopologyNames.legacyWindowStore(granularity));
    }
    addBytesStore(TopologyNames.SEALED_READINGS_STORE);
    addBytesStore(TopologyNames.LEGACY_SEALED_READINGS_STORE);
    addBytesStore(TopologyNames.WINDOW_LOG_CENSUS_STORE);
    windowLog =
        PreCommitHookStore.builder(Stores.inMemoryKeyValueStore(TopologyNames.WINDOW_LOG_STORE))
            .withLoggingDisabled()
            .build();
    windowLog.init(context.getStateStoreContext(), windowLog);
    context.addStateStore(windowLog);
    addStore(
        Stores.keyValueStoreBuilder(
            Stores.inMemoryKeyValueStore(TopologyNames.CLOCK_STORE),
            Serdes.Bytes(),
            Serdes.Long()));
    context.setCurrentSystemTimeMs(TEN);
    aggregator.init(context);
  }

  private KeyValueStore<Bytes, byte[]> addBytesStore(final String name) {
    final KeyValueStore<Bytes, byte[]> store =
        Stores.keyValueStoreBuilder(
                Stores.inMemoryKeyValueStore(name), Serdes.Bytes(), Serdes.ByteArray())
            .withLoggingDisabled()
            .build();
    store.init(context.getStateStoreContext(), store);
    context.addStateStore(store);
    return store;
  }

  private void addStore(final StoreBuilder<?> builder) {
    final KeyValueStore<?, ?> store = (KeyValueStore<?, ?>) builder.withLoggingDisabled().build();
    store.init(context.getStateStoreContext(), store);
    context.addStateStore(store);
  }

  private void process(final long timestamp, final double value, final long recordTimestamp) {
    aggregator.process(
        new Record<SeriesKey, AggregatorInput>(
            SERIES,
            ReadingBatch.of(
                Reading.newBuilder()
                    .setSensorId(SERIES.sensorId())
                    .setMetric(SERIES.metric())
                    .setTimestamp(Instant.ofEpochMilli(timestamp))
                    .setValue(value)
                    .build()),
            recordTimestamp));
  }

  @Test
  void shouldTakeEachReadingOfABatchInTurnAndDeadLetterTheOnesTooLateWithTheirOwnTimes() {
    final ReadingBatch batch = new ReadingBatch(4);
    batch.add(TEN + 5_000, 1.0, 60);
    batch.add(TEN + 70_000, 2.0, 60); // closes [10:00, 10:01)
    batch.add(TEN - 2 * 86_400_000L, 3.0, null); // beyond the lateness horizon
    batch.add(TEN - 2 * 86_400_000L + 1, 4.0, null);
    context.setCurrentSystemTimeMs(TEN + 99_000);

    aggregator.process(new Record<SeriesKey, AggregatorInput>(SERIES, batch, TEN + 70_000));

    final List<? extends Record<? extends String, ? extends AggregatorOutput>> forwarded =
        context.forwarded().stream().map(CapturedForward::record).toList();
    assertThat(forwarded).hasSize(3);
    final ClosedBucket bucket = ((AggregatorOutput.Closed) forwarded.get(0).value()).bucket();
    assertThat(bucket.stats().count()).isEqualTo(1);
    assertThat(bucket.stats().utcOffsetMinutes()).isEqualTo(60);
    assertThat(forwarded.get(0).timestamp()).isEqualTo(TEN + 70_000);
    for (int late = 1; late <= 2; late++) {
      final AggregatorOutput.TooLate tooLate =
          (AggregatorOutput.TooLate) forwarded.get(late).value();
      assertThat(tooLate.reading().getSensorId()).isEqualTo(SERIES.sensorId());
      assertThat(tooLate.reading().getMetric()).isEqualTo(SERIES.metric());
      assertThat(tooLate.reading().getValue()).isEqualTo(2.0 + late);
      assertThat(forwarded.get(late).timestamp())
          .isEqualTo(tooLate.reading().getTimestamp().toEpochMilli());
      assertThat(forwarded.get(late).key()).isNull();
    }
    assertThat(Meters.count(metrics.registry(), BucketerMetrics.READINGS, "outcome", "too-late"))
        .isEqualTo(2);
  }

  @Test
  void shouldTakeEverySeriesOfARepartitionRecordWithTheRecordsKeyForAnUnnamedOne() {
    final SeriesKey other = new SeriesKey("s2", "temperature");
    final PartitionBatch batch = new PartitionBatch(0, 6, 2);
    batch.add(batch.startSeries(other), TEN + 5_000, 10.0, null);
    final ReadingBatch otherReadings = batch.startSeries(SERIES);
    batch.add(otherReadings, TEN + 6_000, 1.0, null);
    batch.add(otherReadings, TEN + 70_000, 2.0, null); // closes SERIES' [10:00, 10:01)
    final ReadingBatch earlierFormat = new ReadingBatch(1);
    earlierFormat.add(TEN + 7_000, 20.0, null);
    batch.put(null, earlierFormat); // the record's key's series, as a record of an earlier format

    aggregator.process(new Record<SeriesKey, AggregatorInput>(other, batch, TEN + 70_000));

    assertThat(context.forwarded()).hasSize(1);
    final ClosedBucket closed =
        ((AggregatorOutput.Closed) context.forwarded().get(0).record().value()).bucket();
    assertThat(closed.series()).isEqualTo(SERIES);
    assertThat(closed.stats().count()).isEqualTo(1);
    windowLog.flushCache();
    final WindowReader queried = publishedWindows.of(0).over(NOTHING_STORED);
    final Granularity minute = BucketTopologyTest.SETTINGS.granularities().get(0);
    assertThat(queried.get(other, minute, TEN).stats().count()).isEqualTo(2);
    assertThat(queried.get(other, minute, TEN).stats().sum()).isEqualTo(30.0);
    assertThat(Meters.count(metrics.registry(), BucketerMetrics.READINGS, "outcome", "on-time"))
        .isEqualTo(4);
  }

  @Test
  void shouldForwardAClosedMinuteWithTheClosingReadingsTimeAndTheWallClockItClosedAt() {
    process(TEN + 5_000, 1.0, 111);
    context.setCurrentSystemTimeMs(TEN + 99_000);
    process(TEN + 70_000, 2.0, 222); // closes [10:00, 10:01)

    final List<CapturedForward<? extends String, ? extends AggregatorOutput>> forwarded =
        context.forwarded();
    assertThat(forwarded).hasSize(1);
    final Record<? extends String, ? extends AggregatorOutput> record = forwarded.get(0).record();
    final ClosedBucket bucket = ((AggregatorOutput.Closed) record.value()).bucket();
    assertThat(bucket.windowStart()).isEqualTo(TEN);
    assertThat(bucket.stats().count()).isEqualTo(1);
    assertThat(record.timestamp()).isEqualTo(TEN + 70_000);
    assertThat(BucketHeaders.closedAt(record.headers())).hasValue(TEN + 99_000);
  }

  @Test
  void shouldSendOneRevisionOfAClosedWindowAtTheCommitForAllTheReadingsLateForIt() {
    process(TEN + 5_000, 1.0, 111);
    context.setCurrentSystemTimeMs(TEN + 99_000);
    process(TEN + 70_000, 2.0, 222); // closes [10:00, 10:01)
    windowLog.flushCache();
    context.resetForwards();

    final ReadingBatch late = new ReadingBatch(5);
    for (int second = 10; second < 15; second++) {
      late.add(TEN + second * 1_000L, second, null);
    }
    aggregator.process(new Record<SeriesKey, AggregatorInput>(SERIES, late, TEN + 80_000));
    assertThat(context.forwarded()).as("revisions before the commit").isEmpty();
    assertThat(Meters.count(metrics.registry(), BucketerMetrics.READINGS, "outcome", "late-merged"))
        .isEqualTo(5);

    windowLog.flushCache(); // what a task does on every store before it commits

    final List<ClosedBucket> sent =
        context.forwarded().stream()
            .map(forward -> ((AggregatorOutput.Closed) forward.record().value()).bucket())
            .toList();
    assertThat(sent).as("one revision of the minute for five late readings").hasSize(1);
    assertThat(sent.get(0).windowStart()).isEqualTo(TEN);
    assertThat(sent.get(0).revision()).isEqualTo(5);
    assertThat(sent.get(0).stats().count()).isEqualTo(6);
    assertThat(sent.get(0).stats().sum()).isEqualTo(1.0 + 10 + 11 + 12 + 13 + 14);
    assertThat(context.forwarded().get(0).record().timestamp()).isEqualTo(TEN + 14_000);

    context.resetForwards();
    windowLog.flushCache();
    assertThat(context.forwarded()).as("sent once").isEmpty();
  }

  @Test
  void shouldCloseAQuietSeriesWindowsWhenThePunctuatorFiresOnTheWallClock() {
    process(TEN + 5_000, 1.0, 111);
    assertThat((long) Meters.gauge(metrics.registry(), BucketerMetrics.OPEN_BUCKETS)).isEqualTo(1);

    // two hours of wall clock later the series has been quiet far longer than the idle timeout
    final long later = TEN + 2 * 3_600_000L;
    context.setCurrentSystemTimeMs(later);
    context.scheduledPunctuators().get(0).getPunctuator().punctuate(later);

    assertThat(context.forwarded())
        .extracting(forward -> ((AggregatorOutput.Closed) forward.record().value()).bucket())
        .extracting(bucket -> bucket.granularity().label())
        .containsExactly("1m", "1h");
    assertThat(context.forwarded())
        .allSatisfy(f -> assertThat(f.record().timestamp()).isEqualTo(later));
    assertThat((long) Meters.gauge(metrics.registry(), BucketerMetrics.OPEN_BUCKETS)).isZero();
  }

  @Test
  void shouldLogAnOpenWindowBeforeEachCommitAndKeepItInItsStoreOnlyWhenTheTaskCloses() {
    process(TEN + 5_000, 1.0, 111);
    final double gets = stateOperations(StateOperation.GET);
    final double puts = stateOperations(StateOperation.PUT);

    process(TEN + 6_000, 2.0, 112);
    process(TEN + 7_000, 3.0, 113);
    assertThat(stateOperations(StateOperation.GET) - gets).isZero();
    assertThat(stateOperations(StateOperation.PUT) - puts).isZero();
    assertThat(windowStores.get(0).get(MINUTE_KEY)).isNull();

    windowLog.flushCache(); // what a task does on every store before it commits

    // logged, and published for the queries, but not written to the local store while open
    assertThat(windowLog.approximateNumEntries()).isPositive();
    assertThat(stateOperations(StateOperation.PUT) - puts).isZero();
    assertThat(windowStores.get(0).get(MINUTE_KEY)).isNull();
    final WindowReader queried = publishedWindows.of(0).over(NOTHING_STORED);
    assertThat(
            queried
                .get(SERIES, BucketTopologyTest.SETTINGS.granularities().get(0), TEN)
                .stats()
                .count())
        .isEqualTo(3);

    process(TEN + 8_000, 4.0, 114); // processed, not committed: neither published nor kept
    aggregator.close();

    // the open minute as the log has it; the hour takes the minute's summary when it closes
    assertThat(stateOperations(StateOperation.PUT) - puts).isEqualTo(1);
    assertThat(storedMinute().stats().count()).isEqualTo(3);
    assertThat(publishedWindows.of(0)).isNull();
  }

  @Test
  void shouldGiveItsWindowsMemoryBackWhenItsTaskCloses() {
    process(TEN + 5_000, 1.0, 111);
    assertThat(windowCache.heldBytes()).isPositive();

    aggregator.close();

    assertThat(windowCache.heldBytes()).isZero();
  }

  /** The state operations of {@code kind} counted so far. */
  private double stateOperations(final StateOperation kind) {
    return Meters.count(
        metrics.registry(), BucketerMetrics.STATE_OPERATIONS, "operation", kind.tag());
  }

  /** The series' first minute as its store holds it. */
  private WindowState storedMinute() {
    return WindowStateCodec.decode(windowStores.get(0).get(MINUTE_KEY));
  }
}
