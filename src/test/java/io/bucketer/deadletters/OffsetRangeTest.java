package io.bucketer.deadletters;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class OffsetRangeTest {

  @ParameterizedTest
  @CsvSource({
    "7, 7, 7",
    "3-9, 3, 9",
    "' 3 - 9 ', 3, 9",
    "100-, 100, 9223372036854775807",
    "-99, 0, 99"
  })
  void shouldReadEachWayAnOperatorWritesARange(
      final String text, final long first, final long last) {
    assertThat(OffsetRange.parse(text)).isEqualTo(new OffsetRange(first, last));
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "-", "9-3", "a-b", "1.5", "3--4"})
  void shouldRefuseWhatIsNoRangeSayingHowToWriteOne(final String text) {
    assertThatThrownBy(() -> OffsetRange.parse(text))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("not a range");
  }

  @ParameterizedTest
  @ValueSource(strings = {"3-9", "100-", "7"})
  void shouldIncludeBothEndsAndPrintAsWritten(final String text) {
    final OffsetRange range = OffsetRange.parse(text);

    assertThat(range.contains(range.first())).isTrue();
    assertThat(range.contains(range.last())).isTrue();
    assertThat(range.contains(range.first() - 1)).isFalse();
    assertThat(range.toString()).isEqualTo(text);
  }
}
