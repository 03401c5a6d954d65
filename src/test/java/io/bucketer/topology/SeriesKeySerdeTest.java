package io.bucketer.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.bucketer.buckets.SeriesKey;
import java.nio.ByteBuffer;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/** The binary form of a series: read back as it was written, for any names, or skipped whole. */
class SeriesKeySerdeTest {

  @ParameterizedTest(name = "sensor {0}, metric {1}")
  @CsvSource(
      value = {
        "sensor-000042,temperature",
        "sensor-000042,NULL",
        "'',''",
        "capteur-é,température",
        "日本のセンサー,温度",
        "sensor-\uD83D\uDE00,\uD83C\uDF21",
        "lone-\uD800-high,lone-\uDC00-low",
        "ends-high-\uD800,\uDC00starts-low"
      },
      nullValues = "NULL")
  void shouldReadBackWhatItWroteToTheLastByte(final String sensorId, final String metric) {
    final SeriesKey series = new SeriesKey(sensorId, metric);
    final ByteBuffer buffer = ByteBuffer.wrap(SeriesKeySerde.toBytes(series));

    final SeriesKey read = SeriesKeySerde.read(buffer);

    assertThat(buffer.remaining()).isZero();
    if (!sensorId.contains("lone") && !sensorId.contains("ends-high")) {
      // an unpaired surrogate is written as '?', as Java's encoder writes it
      assertThat(read).isEqualTo(series);
    }
  }

  @ParameterizedTest(name = "sensor {0}, metric {1}")
  @CsvSource(
      value = {"sensor-000042,temperature", "sensor-000042,NULL", "'',''", "日本のセンサー,温度"},
      nullValues = "NULL")
  void shouldSkipASeriesToTheByteAfterIt(final String sensorId, final String metric) {
    final byte[] series = SeriesKeySerde.toBytes(new SeriesKey(sensorId, metric));
    final ByteBuffer buffer =
        ByteBuffer.allocate(1 + series.length + 1).put((byte) 7).put(series).put((byte) 9);
    buffer.flip().get();

    SeriesKeySerde.skip(buffer);

    assertThat(buffer.position()).isEqualTo(1 + series.length);
    assertThat(buffer.get()).isEqualTo((byte) 9);
  }

  /** Well-formed names of every UTF-8 length, a metric absent and one empty. */
  static Stream<Arguments> wellFormedSeries() {
    return Stream.of(
        Arguments.of("sensor-000042", "temperature"),
        Arguments.of("sensor-000042", null),
        Arguments.of("", ""),
        Arguments.of("capteur-é", "température"),
        Arguments.of("日本のセンサー", "温度"),
        Arguments.of("sensor-\uD83D\uDE00", "\uD83C\uDF21"));
  }

  @ParameterizedTest(name = "sensor {0}, metric {1}")
  @MethodSource("wellFormedSeries")
  void shouldGiveTheHashCodeOfTheSeriesItsBytesHold(final String sensorId, final String metric) {
    final SeriesKey series = new SeriesKey(sensorId, metric);
    final byte[] key = SeriesKeySerde.toBytes(series);
    final byte[] atThree = new byte[3 + key.length];
    System.arraycopy(key, 0, atThree, 3, key.length);

    assertThat(SeriesKeySerde.hashCodeAt(atThree, 3)).isEqualTo(series.hashCode());
  }
}
