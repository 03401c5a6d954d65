package io.bucketer.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ReadingMappingTest {

  @Test
  void shouldReadBucketersOwnSchemaByDefault() {
    assertThat(ReadingMapping.DEFAULT.sensorId()).hasToString("sensor_id");
    assertThat(ReadingMapping.DEFAULT.time()).hasToString("timestamp");
    assertThat(ReadingMapping.DEFAULT.metric()).map(FieldPath::toString).contains("metric");
    assertThat(ReadingMapping.DEFAULT.utcOffset())
        .map(FieldPath::toString)
        .contains("utc_offset_minutes");
    assertThat(ReadingMapping.DEFAULT.values())
        .extracting(FieldPath::toString)
        .containsExactly("value");
    assertThat(ReadingMapping.DEFAULT.isDefault()).isTrue();
    assertThat(MappedAvroDecoderTest.mapping("sensor_id", "timestamp", null, "value").isDefault())
        .isFalse();
  }

  @Test
  void shouldAllowOneValueFieldOnlyWithAMetricField() {
    assertThatThrownBy(
            () ->
                new ReadingMapping(
                    FieldPath.parse("id"),
                    FieldPath.parse("ts"),
                    Optional.of(FieldPath.parse("metric")),
                    Optional.empty(),
                    List.of(FieldPath.parse("temperature"), FieldPath.parse("humidity"))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("exactly one value field")
        .hasMessageContaining("set no metric field");
  }

  @Test
  void shouldRefuseTwoValueFieldsThatWouldShareASeries() {
    assertThatThrownBy(() -> MappedAvroDecoderTest.mapping("id", "ts", null, "a.temp", "b.temp"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("a.temp")
        .hasMessageContaining("b.temp");
  }

  @Test
  void shouldRefuseAFieldPathWithAnEmptySegment() {
    assertThatThrownBy(() -> FieldPath.parse("meta..id"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> FieldPath.parse("")).isInstanceOf(IllegalArgumentException.class);
    assertThat(FieldPath.parse("meta.deviceId").name()).isEqualTo("deviceId");
  }
}
