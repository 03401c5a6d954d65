package io.bucketer.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.bucketer.buckets.SeriesKey;
import java.nio.ByteBuffer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The binary form of a series: the length counted ahead is the length written, for any names. */
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
  void shouldWriteAsManyBytesAsItCountsAndReadBackWhatItWrote(
      final String sensorId, final String metric) {
    final SeriesKey series = new SeriesKey(sensorId, metric);
    final ByteBuffer buffer = ByteBuffer.allocate(SeriesKeySerde.encodedLength(series));

    SeriesKeySerde.write(series, buffer);

    assertThat(buffer.remaining()).isZero();
    assertThat(buffer.array()).isEqualTo(SeriesKeySerde.toBytes(series));
    if (!sensorId.contains("lone") && !sensorId.contains("ends-high")) {
      assertThat(SeriesKeySerde.read(ByteBuffer.wrap(buffer.array()))).isEqualTo(series);
    }
  }
}
