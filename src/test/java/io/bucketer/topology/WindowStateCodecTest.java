package io.bucketer.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.bucketer.buckets.BucketStats;
import io.bucketer.buckets.Measurement;
import io.bucketer.windows.ReadingRun;
import io.bucketer.windows.WindowState;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

class WindowStateCodecTest {

  @Test
  void shouldRoundTripAWindowWithItsSpreadAndReadings() {
    final WindowState state =
        WindowState.openWith(new Measurement(1_000, 1e9 + 0.001), 60)
            .withReading(new Measurement(2_000, 1e9 - 0.002), 60)
            .close();

    final WindowState decoded = WindowStateCodec.decode(WindowStateCodec.encode(state));

    assertThat(decoded.stats()).isEqualTo(state.stats());
    assertThat(decoded.closed()).isTrue();
    assertThat(decoded.revision()).isEqualTo(state.revision());
    assertThat(decoded.tail().measurements()).isEqualTo(state.tail().measurements());
    // two readings: the spread is half their difference, as the doubles hold them
    final double halfDifference = ((1e9 + 0.001) - (1e9 - 0.002)) / 2;
    assertThat(decoded.stats().standardDeviation()).isCloseTo(halfDifference, within(1e-12));
  }

  /** State an earlier build wrote: it keeps its readings and sums; the new fields are unknown. */
  @Test
  void shouldReadTheFormatOfEarlierBuildsWithoutTheNewFields() {
    final ByteBuffer old = ByteBuffer.allocate(1 + 8 * 6 + 1 + 4 + 1 + 4 + 4 + 4 + 16);
    old.put((byte) 1);
    old.putLong(1).putDouble(4.5).putDouble(4.5).putDouble(4.5).putLong(1_000).putLong(1_000);
    old.put((byte) 0).putInt(0);
    old.put((byte) 1).putInt(2).putInt(0);
    old.putInt(1).putLong(1_000).putDouble(4.5);

    final WindowState decoded = WindowStateCodec.decode(old.array());

    assertThat(decoded.closed()).isTrue();
    assertThat(decoded.revision()).isEqualTo(2);
    assertThat(decoded.tail().measurements()).containsExactly(new Measurement(1_000, 4.5));
    assertThat(decoded.stats().count()).isEqualTo(1);
    assertThat(decoded.stats().average()).isEqualTo(4.5);
    assertThat(decoded.stats().hasSpread()).isFalse();
    assertThat(decoded.stats().first().value()).isNaN();
    assertThat(decoded.stats().utcOffsetMinutes()).isNull();
  }

  /** Format 2, the fixed-width layout of the build before the compact one. */
  @Test
  void shouldReadTheFixedWidthFormatOfTheBuildBefore() {
    final ByteBuffer old = ByteBuffer.allocate(1 + 8 * 11 + 1 + 4 + 1 + 4 + 4 + 4 + 32);
    old.put((byte) 2);
    old.putLong(2).putDouble(9).putDouble(4).putDouble(5);
    old.putLong(1_000).putDouble(4).putLong(2_000).putDouble(5);
    old.putDouble(4).putDouble(0.5).putDouble(0.5);
    old.put((byte) 1).putInt(-300);
    old.put((byte) 0).putInt(0).putInt(0);
    old.putInt(2).putLong(1_000).putDouble(4).putLong(2_000).putDouble(5);

    final WindowState decoded = WindowStateCodec.decode(old.array());

    assertThat(decoded.closed()).isFalse();
    assertThat(decoded.tail().measurements())
        .containsExactly(new Measurement(1_000, 4), new Measurement(2_000, 5));
    assertThat(decoded.stats().average()).isEqualTo(4.5);
    assertThat(decoded.stats().standardDeviation()).isEqualTo(0.5);
    assertThat(decoded.stats().last()).isEqualTo(new Measurement(2_000, 5));
    assertThat(decoded.stats().utcOffsetMinutes()).isEqualTo(-300);
  }

  /**
   * The window is written again with each reading, to RocksDB and the changelog: a 1 Hz minute of
   * two-decimal readings takes under a third of the fixed-width layout's 1,067 bytes.
   */
  @Test
  void shouldWriteAOneHertzMinuteCompactly() {
    WindowState state = WindowState.openWith(new Measurement(1_700_000_000_000L, 21.37), -300);
    for (int i = 1; i < 60; i++) {
      state =
          state.withReading(new Measurement(1_700_000_000_000L + i * 1_000L, 21 + i / 100.0), -300);
    }

    final byte[] encoded = WindowStateCodec.encode(state);

    assertThat(encoded.length).isLessThan(1_067 / 3);
    final WindowState decoded = WindowStateCodec.decode(encoded);
    assertThat(decoded.stats()).isEqualTo(state.stats());
    assertThat(decoded.tail().measurements()).isEqualTo(state.tail().measurements());
  }

  @Test
  void shouldReadARunSealedByTheBuildBefore() {
    final ByteBuffer old = ByteBuffer.allocate(4 + 16);
    old.putInt(1).putLong(3_000).putDouble(-1.5);

    assertThat(WindowStateCodec.decodeRun(old.array()).measurements())
        .containsExactly(new Measurement(3_000, -1.5));
  }

  @Test
  void shouldRoundTripASealedRun() {
    final ReadingRun run =
        ReadingRun.of(new long[] {3_000, 1_000}, new double[] {-1.5, Double.MIN_VALUE});

    assertThat(WindowStateCodec.decodeRun(WindowStateCodec.encodeRun(run)).measurements())
        .isEqualTo(run.measurements());
  }

  @Test
  void shouldKeepStatsEqualAfterTheRoundTrip() {
    final BucketStats stats = WindowState.openWith(new Measurement(5, 2.0), null).stats();

    assertThat(WindowStateCodec.decode(WindowStateCodec.encode(WindowState.open(stats))).stats())
        .isEqualTo(stats);
  }
}
