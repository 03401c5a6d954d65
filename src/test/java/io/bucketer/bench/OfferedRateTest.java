package io.bucketer.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class OfferedRateTest {

  @Test
  void shouldTakeSharesOfTheCapacityAndGivenRatesMixed() {
    final List<OfferedRate> rates = OfferedRate.parseList("25%, 20000,75%");

    assertThat(rates)
        .containsExactly(
            new OfferedRate(0.25, true),
            new OfferedRate(20_000, false),
            new OfferedRate(0.75, true));
    assertThat(rates.get(0).readingsPerSecond(80_000)).isEqualTo(20_000);
    assertThat(rates.get(1).readingsPerSecond(Double.NaN)).isEqualTo(20_000);
    assertThat(rates.get(0).label()).isEqualTo("25%");
    assertThat(rates.get(1).label()).isEqualTo("20,000/s");
  }

  @Test
  void shouldRefuseWhatIsNotAPositiveRate() {
    assertThatThrownBy(() -> OfferedRate.parseList("fast"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("not a rate: 'fast'");
    assertThatThrownBy(() -> OfferedRate.parseList("0%"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> OfferedRate.parseList("-5"))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
