package io.bucketer.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bucketer.ingest.InvalidReadingException.Reason;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SensorIdSourceTest {

  @Test
  void shouldReadTheSettingsThreeForms() {
    assertThat(SensorIdSource.parse("field", "")).isEqualTo(SensorIdSource.PAYLOAD);
    assertThat(SensorIdSource.parse("key", "devices/").where()).isEqualTo(SensorIdSource.Where.KEY);
    assertThat(SensorIdSource.parse("header:mqtt_topic", "")).hasToString("header:mqtt_topic");
    for (final String wrong : new String[] {"", "keys", "header:", "header", "value"}) {
      assertThatThrownBy(() -> SensorIdSource.parse(wrong, ""))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("field, key or header:<name>");
    }
    assertThatThrownBy(() -> SensorIdSource.parse("field", "devices/"))
        .hasMessageContaining("prefix");
  }

  @Test
  void shouldTakeTheKeyOrTheLastHeaderOfTheNameWithoutThePrefix() throws Exception {
    final InputRecord record =
        record("devices/pump-7", Map.of("mqtt_topic", bytes("sites/berlin/pump-9")));

    assertThat(SensorIdSource.parse("key", "").outside(record)).isEqualTo("devices/pump-7");
    assertThat(SensorIdSource.parse("key", "devices/").outside(record)).isEqualTo("pump-7");
    assertThat(SensorIdSource.parse("header:mqtt_topic", "sites/").outside(record))
        .isEqualTo("berlin/pump-9");
  }

  @Test
  void shouldRefuseAnAbsentEmptyNonUtf8OrUnprefixedIdAsNoSensorId() {
    final SensorIdSource key = SensorIdSource.parse("key", "devices/");
    assertRefused(key, new InputRecord(null, new byte[0], name -> null, 0), "record key is absent");
    assertRefused(key, record("", Map.of()), "absent or empty");
    assertRefused(
        key,
        new InputRecord(new byte[] {(byte) 0xc3, 0x28}, new byte[0], name -> null, 0),
        "not UTF-8");
    assertRefused(key, record("pumps/7", Map.of()), "does not start with the prefix 'devices/'");
    assertRefused(key, record("devices/", Map.of()), "nothing after it");
    assertRefused(
        SensorIdSource.parse("header:device", ""),
        record("k", Map.of("other", bytes("x"))),
        "the header device is absent");
  }

  private static void assertRefused(
      final SensorIdSource source, final InputRecord record, final String message) {
    assertThatThrownBy(() -> source.outside(record))
        .isInstanceOfSatisfying(
            InvalidReadingException.class,
            e -> assertThat(e.reason()).isEqualTo(Reason.NO_SENSOR_ID))
        .hasMessageContaining(message);
  }

  private static InputRecord record(final String key, final Map<String, byte[]> headers) {
    return new InputRecord(bytes(key), new byte[0], headers::get, 0);
  }

  private static byte[] bytes(final String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
