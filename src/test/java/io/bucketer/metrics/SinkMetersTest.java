package io.bucketer.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.bucketer.metrics.SinkMeters.WriteOutcome;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

class SinkMetersTest {

  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final SinkMeters meters = new SinkMeters(registry);

  /** The README and the Grafana dashboards under deploy/ use these names: they must not change. */
  @Test
  void shouldRegisterTheMetersUnderTheNamesTheDashboardsUse() {
    assertThat(SinkMeters.BUCKETS_WRITTEN).isEqualTo("bucketer.sink.buckets.written");
    assertThat(SinkMeters.WRITE_LATENCY).isEqualTo("bucketer.sink.write.latency");
    assertThat(SinkMeters.RETRIES).isEqualTo("bucketer.sink.retries");
    assertThat(SinkMeters.PENDING).isEqualTo("bucketer.sink.pending");
    assertThat(SinkMeters.LAG).isEqualTo("bucketer.sink.lag");
    assertThat(SinkMeters.BATCH_SIZE).isEqualTo("bucketer.sink.batch.size");
    assertThat(SinkMeters.CLOSE_TO_VISIBLE).isEqualTo("bucketer.bucket.close.to.visible");

    assertThat(registry.getMeters())
        .extracting(m -> m.getId().getName())
        .containsExactlyInAnyOrder(
            "bucketer.sink.retries",
            "bucketer.sink.pending",
            "bucketer.sink.lag",
            "bucketer.sink.batch.size",
            "bucketer.bucket.close.to.visible");
    assertThat(registry.get(SinkMeters.BATCH_SIZE).summary().getId().getBaseUnit())
        .isEqualTo("buckets");
  }

  @Test
  void shouldCountWrittenBucketsByGranularity() {
    meters.written("1m", 2);
    meters.written("1h", 1);
    meters.written("1m", 3);

    assertThat(registry.get(SinkMeters.BUCKETS_WRITTEN).tag("granularity", "1m").counter().count())
        .isEqualTo(5.0);
    assertThat(meters.bucketsWritten("1h")).isEqualTo(1);
    assertThat(meters.bucketsWritten("1d")).isZero();
    assertThat(meters.bucketsWritten()).isEqualTo(6);
  }

  @Test
  void shouldTimeEachWriteUnderItsOutcomeAsAHistogram() {
    meters.writeEnded(meters.writeStarted(), WriteOutcome.SUCCESS);
    meters.writeEnded(meters.writeStarted(), WriteOutcome.RETRYABLE);
    meters.writeEnded(meters.writeStarted(), WriteOutcome.RETRYABLE);
    meters.writeEnded(meters.writeStarted(), WriteOutcome.REJECTED);
    meters.writeEnded(meters.writeStarted(), WriteOutcome.ERROR);

    assertThat(registry.get(SinkMeters.WRITE_LATENCY).timers())
        .extracting(t -> t.getId().getTag("outcome"), t -> t.count())
        .containsExactlyInAnyOrder(
            tuple("success", 1L),
            tuple("retryable", 2L),
            tuple("rejected", 1L),
            tuple("error", 1L));
  }

  @Test
  void shouldShowPolledBucketsAsPendingUntilNoneArePending() {
    meters.batchPolled(7);

    assertThat(registry.get(SinkMeters.PENDING).gauge().value()).isEqualTo(7.0);
    assertThat(registry.get(SinkMeters.BATCH_SIZE).summary().totalAmount()).isEqualTo(7.0);

    meters.nonePending();

    assertThat(registry.get(SinkMeters.PENDING).gauge().value()).isZero();
    assertThat(registry.get(SinkMeters.BATCH_SIZE).summary().count()).isEqualTo(1);
  }

  @Test
  void shouldTimeFromCloseToVisibleNeverBelowZero() {
    meters.visible(LongStream.of(1_000, 1_500, 3_000), 2_000);

    final var timer = registry.get(SinkMeters.CLOSE_TO_VISIBLE).timer();
    assertThat(timer.count()).isEqualTo(3);
    assertThat(timer.totalTime(TimeUnit.MILLISECONDS)).isEqualTo(1_500.0);
    assertThat(timer.max(TimeUnit.MILLISECONDS)).isEqualTo(1_000.0);
  }

  @Test
  void shouldCountRetries() {
    meters.retried();
    meters.retried();

    assertThat(registry.get(SinkMeters.RETRIES).counter().count()).isEqualTo(2.0);
  }
}
