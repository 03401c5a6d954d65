package io.bucketer.ingest.senml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class SenmlMetricTest {

  @Test
  void shouldTakeTheUnitNothingOrAFixedNameAndGiveTheSumASeriesOfItsOwn() {
    final SenmlMetric unit = SenmlMetric.parse("unit");
    final SenmlMetric none = SenmlMetric.parse("none");
    final SenmlMetric power = SenmlMetric.parse("power");

    assertThat(unit).isSameAs(SenmlMetric.UNIT);
    assertThat(unit.ofValue("kWh")).isEqualTo("kWh");
    assertThat(unit.ofSum("kWh")).isEqualTo("kWh_sum");
    assertThat(unit.ofValue(null)).isNull();
    assertThat(unit.ofSum(null)).isEqualTo("sum");
    assertThat(none.ofValue("kWh")).isNull();
    assertThat(none.ofSum("kWh")).isEqualTo("sum");
    assertThat(power.ofValue("kWh")).isEqualTo("power");
    assertThat(power.ofSum(null)).isEqualTo("power_sum");
    assertThat(power).hasToString("power").isEqualTo(SenmlMetric.parse("power"));
  }

  @Test
  void shouldRefuseABlankSetting() {
    assertThatThrownBy(() -> SenmlMetric.parse(" "))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("none means no metric");
  }
}
