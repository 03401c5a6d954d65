package io.bucketer.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.bucketer.buckets.Measurement;
import io.bucketer.windows.ReadingRun;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class ReadingRunCodecTest {

  @Test
  void shouldPackAOneHertzMinuteOfTwoDecimalReadingsInAboutThreeBytesEach() {
    final long[] timestamps = new long[60];
    final double[] values = new double[60];
    final Random random = new Random(7);
    for (int i = 0; i < 60; i++) {
      timestamps[i] = 1_700_000_000_000L + i * 1_000L + random.nextInt(20);
      values[i] = Math.round((21.5 + random.nextGaussian() * 0.3) * 100) / 100.0;
    }
    final ReadingRun run = ReadingRun.of(timestamps, values);

    final ReadingRunCodec.Packed packed = ReadingRunCodec.Packed.of(run, timestamps[0]);

    assertThat(packed.scale()).isEqualTo(2);
    assertThat(packed.bytes()).isLessThanOrEqualTo(2 + 60 * 4);
    assertThat(roundTrip(run, timestamps[0])).isEqualTo(run.measurements());
  }

  @Test
  void shouldKeepValuesThatAreNoShortDecimalAsRawDoubles() {
    final ReadingRun run =
        ReadingRun.of(
            new long[] {5, 4, 3, 2, 1, 0},
            new double[] {
              Math.PI, -0.0, Double.NaN, Double.MIN_VALUE, 1e300, Double.NEGATIVE_INFINITY
            });

    final ReadingRunCodec.Packed packed = ReadingRunCodec.Packed.of(run, 0);

    assertThat(packed.scale()).isEqualTo(0xFF);
    assertThat(roundTrip(run, 0)).isEqualTo(run.measurements());
  }

  @Test
  void shouldTakeTheFewestDecimalPlacesThatHoldEveryValue() {
    final ReadingRun run =
        ReadingRun.of(new long[] {1, 2, 3}, new double[] {12.0, -0.125, 1_000_000.5});

    assertThat(ReadingRunCodec.Packed.of(run, 0).scale()).isEqualTo(3);
    assertThat(roundTrip(run, 0)).isEqualTo(run.measurements());
  }

  @Test
  void shouldRoundTripTimestampsInAnyOrderAndAtTheEndsOfTheirRange() {
    final ReadingRun run =
        ReadingRun.of(
            new long[] {Long.MAX_VALUE, Long.MIN_VALUE, 0, -1, 1_000},
            new double[] {1, 2, 3, 4, 5});

    assertThat(roundTrip(run, 1_700_000_000_000L)).isEqualTo(run.measurements());
    assertThat(roundTrip(run, Long.MIN_VALUE)).isEqualTo(run.measurements());
  }

  /** Every double a sensor may send comes back bit for bit, whichever way it was packed. */
  @Test
  void shouldRoundTripRandomRunsBitForBit() {
    final Random random = new Random(42);
    for (int trial = 0; trial < 2_000; trial++) {
      final int size = random.nextInt(70);
      final long[] timestamps = new long[size];
      final double[] values = new double[size];
      for (int i = 0; i < size; i++) {
        timestamps[i] = random.nextLong() >> random.nextInt(64);
        values[i] =
            switch (random.nextInt(4)) {
              case 0 -> Double.longBitsToDouble(random.nextLong());
              case 1 -> Math.round(random.nextGaussian() * 1e6) / 1e3;
              case 2 -> random.nextInt(1_000) / Math.pow(10, random.nextInt(8));
              default -> (double) (random.nextLong() >> random.nextInt(64));
            };
      }
      final ReadingRun run = ReadingRun.of(timestamps, values);
      final long base = random.nextLong();

      final ReadingRun decoded = decode(run, base);

      for (int i = 0; i < size; i++) {
        assertThat(decoded.timestamp(i)).isEqualTo(timestamps[i]);
        assertThat(Double.doubleToRawLongBits(decoded.value(i)))
            .as("value %s", values[i])
            .isEqualTo(Double.doubleToRawLongBits(values[i]));
      }
    }
  }

  private static List<Measurement> roundTrip(final ReadingRun run, final long base) {
    return decode(run, base).measurements();
  }

  private static ReadingRun decode(final ReadingRun run, final long base) {
    final ReadingRunCodec.Packed packed = ReadingRunCodec.Packed.of(run, base);
    final ByteBuffer buffer = ByteBuffer.allocate(packed.bytes());
    packed.writeTo(buffer);
    assertThat(buffer.remaining()).as("the size computed before writing").isZero();
    buffer.flip();
    return ReadingRunCodec.read(buffer, base);
  }
}
