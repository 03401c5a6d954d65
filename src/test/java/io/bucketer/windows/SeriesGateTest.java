package io.bucketer.windows;

import static org.assertj.core.api.Assertions.assertThat;

import io.bucketer.buckets.BucketLayout;
import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.Measurement;
import io.bucketer.buckets.SeriesKey;
import io.bucketer.windows.WindowLifecycle.Outcome;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** What the lifecycle asks of its {@link SeriesGate}, and tells it. */
class SeriesGateTest {

  private static final Granularity MINUTE = Granularity.parse("1m");
  private static final Granularity HOUR = Granularity.parse("1h");
  private static final long TEN = Instant.parse("2025-06-01T10:00:00Z").toEpochMilli();
  private static final long WALL_CLOCK = TEN + 3_600_000L;
  private static final WindowLifecycle.Settings SETTINGS =
      new WindowLifecycle.Settings(
          List.of(MINUTE, HOUR),
          Duration.ofSeconds(10),
          Duration.ofSeconds(30),
          Duration.ofHours(2),
          BucketLayout.finestKeepsMeasurements(1000));
  private static final SeriesKey FIRST = new SeriesKey("s1", "temperature");
  private static final SeriesKey SECOND = new SeriesKey("s2", "temperature");

  /** Admits series while it holds fewer than {@code room}; counts what it is asked. */
  private static final class RoomGate implements SeriesGate {
    final int room;
    final Set<SeriesKey> held = new HashSet<>();
    int asked;
    int cleared;

    RoomGate(final int room) {
      this.room = room;
    }

    @Override
    public boolean admit(final SeriesKey series, final long wallClock) {
      asked++;
      return held.size() < room && held.add(series);
    }

    @Override
    public void restored(final SeriesKey series) {
      held.add(series);
    }

    @Override
    public void released(final SeriesKey series) {
      held.remove(series);
    }

    @Override
    public void clear() {
      held.clear();
      cleared++;
    }
  }

  private final InMemoryWindowStore store = new InMemoryWindowStore();
  private long openWindows;

  private WindowLifecycle started(final SeriesGate gate) {
    final WindowLifecycle lifecycle =
        new WindowLifecycle(SETTINGS, store, delta -> openWindows += delta, gate);
    lifecycle.restore(WALL_CLOCK);
    return lifecycle;
  }

  private static Outcome send(
      final WindowLifecycle lifecycle, final SeriesKey series, final long timestamp) {
    return lifecycle.accept(
        series, new Measurement(timestamp, 1.0), null, WALL_CLOCK, bucket -> {});
  }

  private static long at(final int minute, final int second) {
    return TEN + minute * 60_000L + second * 1_000L;
  }

  @Test
  void shouldAskOnlyForASeriesThatHoldsNoStateAndKeepNothingOfOneItRefuses() {
    final RoomGate gate = new RoomGate(1);
    final WindowLifecycle lifecycle = started(gate);

    assertThat(send(lifecycle, FIRST, at(0, 5))).isEqualTo(Outcome.ON_TIME);
    assertThat(send(lifecycle, FIRST, at(0, 6))).isEqualTo(Outcome.ON_TIME);
    assertThat(gate.asked).isEqualTo(1);
    final long openOfTheFirst = openWindows;

    assertThat(send(lifecycle, SECOND, at(0, 5))).isEqualTo(Outcome.REFUSED);

    assertThat(store.get(SECOND, MINUTE, at(0, 0))).isNull();
    assertThat(store.get(SECOND, HOUR, at(0, 0))).isNull();
    assertThat(lifecycle.clockOf(SECOND)).isEqualTo(Long.MIN_VALUE);
    assertThat(openWindows).isEqualTo(openOfTheFirst);
    assertThat(gate.held).containsExactly(FIRST);
  }

  @Test
  void shouldReleaseASeriesOnceItHoldsNoStateSoThatAnotherMayStart() {
    final RoomGate gate = new RoomGate(1);
    final WindowLifecycle lifecycle = started(gate);
    send(lifecycle, FIRST, at(0, 5));
    send(lifecycle, FIRST, at(61, 0));

    lifecycle.closeIdleSeries(WALL_CLOCK + Duration.ofHours(3).toMillis(), bucket -> {});

    assertThat(store.entries()).isZero();
    assertThat(gate.held).isEmpty();
    assertThat(send(lifecycle, SECOND, at(61, 30))).isEqualTo(Outcome.ON_TIME);
  }

  @Test
  void shouldCountTheSeriesTheStoreHoldsWhenItStartsAgain() {
    final WindowLifecycle before = started(new RoomGate(2));
    send(before, FIRST, at(0, 5));
    send(before, SECOND, at(0, 5));
    before.closeIdleSeries(WALL_CLOCK, bucket -> {}); // nothing idle yet: both stay

    final RoomGate afterRestart = new RoomGate(2);
    afterRestart.held.add(new SeriesKey("from-before", null)); // a gate that was used before
    started(afterRestart);

    assertThat(afterRestart.cleared).isEqualTo(1);
    assertThat(afterRestart.held).containsExactlyInAnyOrder(FIRST, SECOND);
    assertThat(afterRestart.asked).isZero();
  }
}
