package io.bucketer.simulate;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ReadingGeneratorTest {

  @ParameterizedTest
  @ValueSource(ints = {0, 7, 42, 999, 1_000, 9_999, 10_000, 99_999, 123_456, Integer.MAX_VALUE})
  void shouldNameSensorsWithTheFourDigitZeroPaddedIdsTheyAlwaysHad(final int sensor) {
    assertThat(ReadingGenerator.sensorId(sensor)).isEqualTo(String.format("sensor-%04d", sensor));
  }
}
