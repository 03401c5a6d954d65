package io.bucketer.topics;

import static io.bucketer.buckets.TestBuckets.HOUR;
import static io.bucketer.buckets.TestBuckets.MINUTE;
import static io.bucketer.buckets.TestBuckets.bucket;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class BucketKeyTest {

  private static String key(final String sensorId, final String metric) {
    return BucketKey.of(bucket(sensorId, metric, MINUTE, 1_700_000_000_000L - 20_000, null, 1.0));
  }

  @Test
  void shouldBeAJsonArrayOfGranularityStartSensorMetricAndSeq() {
    assertThat(
            BucketKey.of(
                bucket("sensor-1", "temperature", HOUR, 1_699_999_200_000L, null, 1.0, 2.0)))
        .isEqualTo("[\"1h\",1699999200000,\"sensor-1\",\"temperature\",0]");
    assertThat(key("sensor-1", null)).isEqualTo("[\"1m\",1699999980000,\"sensor-1\",null,0]");
  }

  @Test
  void shouldGiveBackTheWindowStartOfAKeyAndRefuseWhatIsNone() {
    assertThat(BucketKey.windowStartOf(key("a\",\"b", "c"))).isEqualTo(1_699_999_980_000L);
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> BucketKey.windowStartOf("sensor-1"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("not a bucket key");
  }

  @Test
  void shouldKeepTrickyIdsDistinct() {
    final List<String> keys =
        List.of(
            key("a\",\"b", "c"),
            key("a", "b\",\"c"),
            key("a", "null"),
            key("a", null),
            key("a\\", "b"),
            key("a", "\\b"),
            key("a/b", "c"),
            key("a", "b/c"),
            key("a]", "[b"),
            key("", "ab"),
            key("ab", ""));

    assertThat(keys).doesNotHaveDuplicates();
  }

  @Test
  void shouldParseBackToTheOriginalStrings() throws Exception {
    final String sensorId = "a\",\"b\\\u0000é\n";
    final Object[] parsed = new ObjectMapper().readValue(key(sensorId, null), Object[].class);

    assertThat(Arrays.asList(parsed)).containsExactly("1m", 1_699_999_980_000L, sensorId, null, 0);
  }
}
