package io.bucketer.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.bucketer.avro.Reading;
import io.bucketer.buckets.ClosedBucket;
import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.SeriesKey;
import io.bucketer.metrics.BucketerMetrics;
import io.bucketer.metrics.BucketerMetrics.StateOperation;
import io.bucketer.topics.BucketHeaders;
import java.time.Instant;
import java.util.List;
import org.apache.kafka.common.serialization.Serdes;
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

  private final MockProcessorContext<String, AggregatorOutput> context =
      new MockProcessorContext<>();
  private final BucketerMetrics metrics = BucketerMetrics.unregistered();
  private final BucketAggregator aggregator =
      new BucketAggregator(BucketTopologyTest.SETTINGS, metrics);

  @BeforeEach
  void initialise() {
    for (final Granularity granularity : BucketTopologyTest.SETTINGS.granularities()) {
      addStore(
          Stores.keyValueStoreBuilder(
              Stores.inMemoryKeyValueStore(TopologyNames.windowStore(granularity)),
              Serdes.Bytes(),
              Serdes.ByteArray()));
    }
    addStore(
        Stores.keyValueStoreBuilder(
            Stores.inMemoryKeyValueStore(TopologyNames.SEALED_READINGS_STORE),
            Serdes.Bytes(),
            Serdes.ByteArray()));
    addStore(
        Stores.keyValueStoreBuilder(
            Stores.inMemoryKeyValueStore(TopologyNames.CLOCK_STORE),
            Serdes.Bytes(),
            Serdes.Long()));
    context.setCurrentSystemTimeMs(TEN);
    aggregator.init(context);
  }

  private void addStore(final StoreBuilder<?> builder) {
    final KeyValueStore<?, ?> store = (KeyValueStore<?, ?>) builder.withLoggingDisabled().build();
    store.init(context.getStateStoreContext(), store);
    context.addStateStore(store);
  }

  private void process(final long timestamp, final double value, final long recordTimestamp) {
    aggregator.process(
        new Record<>(
            SERIES,
            Reading.newBuilder()
                .setSensorId(SERIES.sensorId())
                .setMetric(SERIES.metric())
                .setTimestamp(Instant.ofEpochMilli(timestamp))
                .setValue(value)
                .build(),
            recordTimestamp));
  }

  @Test
  void shouldForwardAClosedMinuteWithTheClosingRecordsTimestampAndTheWallClockItClosedAt() {
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
    assertThat(record.timestamp()).isEqualTo(222);
    assertThat(BucketHeaders.closedAt(record.headers())).hasValue(TEN + 99_000);
  }

  @Test
  void shouldCloseAQuietSeriesWindowsWhenThePunctuatorFiresOnTheWallClock() {
    process(TEN + 5_000, 1.0, 111);
    assertThat(metrics.openBuckets()).isEqualTo(1);

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
    assertThat(metrics.openBuckets()).isZero();
  }

  @Test
  void shouldCountOneGetAndOnePutForAReadingInsideAnOpenWindow() {
    process(TEN + 5_000, 1.0, 111);
    final double gets = metrics.stateOperations(StateOperation.GET);
    final double puts = metrics.stateOperations(StateOperation.PUT);

    process(TEN + 6_000, 2.0, 112);

    assertThat(metrics.stateOperations(StateOperation.GET) - gets).isEqualTo(1);
    assertThat(metrics.stateOperations(StateOperation.PUT) - puts).isEqualTo(1);
  }
}
