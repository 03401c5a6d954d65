package io.bucketer.ingest.senml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bucketer.avro.Reading;
import io.bucketer.ingest.InputRecord;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class SenmlPacksTest {

  private static final Instant T0 = Instant.parse("2025-06-01T10:00:05Z");

  @Test
  void shouldWriteTheSensorAsBaseNameTheFirstTimeAsBaseTimeAndACommonMetricAsBaseUnit() {
    final byte[] pack =
        SenmlPacks.pack(
            List.of(
                reading("sensor-0001", T0, 21.5, "temperature"),
                reading("sensor-0001", T0.plusMillis(1500), 0.00001, "temperature")),
            SenmlEncoding.JSON);

    // Exponents with a lower-case e (RFC 8428 section 5).
    assertThat(new String(pack, StandardCharsets.UTF_8))
        .isEqualTo(
            "[{\"bn\":\"sensor-0001\",\"bt\":1.748772005e9,\"bu\":\"temperature\",\"v\":21.5},"
                + "{\"t\":1.5,\"v\":1.0e-5}]");
  }

  /** Read with input.senml.metric=unit, a pack gives back the readings it was made of. */
  @ParameterizedTest
  @EnumSource(SenmlEncoding.class)
  void shouldGiveBackTheSameReadingsWhenDecoded(final SenmlEncoding encoding) throws Exception {
    final List<Reading> readings =
        List.of(
            reading("gw-7/boiler", T0, 21.5, "temperature"),
            reading("gw-7/boiler", T0.plusMillis(999), 40.25, "humidity"),
            reading("gw-7/boiler", T0.minusMillis(61_001), -3.75, null),
            reading("gw-7/boiler", T0.plusSeconds(3600), 97, "battery"));

    final byte[] pack = SenmlPacks.pack(readings, encoding);

    assertThat(
            new SenmlDecoder(new SenmlOptions(encoding, SenmlMetric.UNIT, SkippedValues.NONE))
                .readings(new InputRecord(null, pack, InputRecord.Headers.NONE, -1)))
        .isEqualTo(readings);
  }

  @Test
  void shouldRefuseWhatNoPackCanHold() {
    final Reading a = reading("a", T0, 1, null);

    assertThatThrownBy(() -> SenmlPacks.pack(List.of(), SenmlEncoding.JSON))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(
            () -> SenmlPacks.pack(List.of(a, reading("b", T0, 1, null)), SenmlEncoding.JSON))
        .hasMessageContaining("one sensor's readings");
    assertThatThrownBy(
            () -> SenmlPacks.pack(List.of(reading("a b", T0, 1, null)), SenmlEncoding.CBOR))
        .hasMessageContaining("no SenML name");
    assertThatThrownBy(
            () -> SenmlPacks.pack(List.of(reading("a", T0, Double.NaN, null)), SenmlEncoding.JSON))
        .hasMessageContaining("finite");
  }

  private static Reading reading(
      final String sensor, final Instant time, final double value, final String metric) {
    return new Reading(sensor, time, value, metric, null);
  }
}
