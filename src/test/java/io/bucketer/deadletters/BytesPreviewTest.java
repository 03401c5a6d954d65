package io.bucketer.deadletters;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class BytesPreviewTest {

  @Test
  void shouldShowPrintableUtf8AsText() {
    assertThat(BytesPreview.of("{\"sensor\":\"ü-1\"}".getBytes(StandardCharsets.UTF_8), 100))
        .isEqualTo("{\"sensor\":\"ü-1\"}");
  }

  @Test
  void shouldShowOtherBytesAsHex() {
    assertThat(BytesPreview.of(new byte[] {0, 0, 0, 0, 7, (byte) 0xff}, 100))
        .isEqualTo("hex 00 00 00 00 07 ff");
  }

  @Test
  void shouldCutLongValuesAndSayTheirLength() {
    assertThat(BytesPreview.of("abcdefghij".getBytes(StandardCharsets.US_ASCII), 4))
        .isEqualTo("abcd … (10 bytes)");
    assertThat(BytesPreview.of(new byte[] {1, 2, 3, 4, 5, 6}, 2))
        .isEqualTo("hex 01 02 … (6 bytes)");
  }

  @Test
  void shouldKeepOneRecordOnItsLines() {
    assertThat(BytesPreview.of("a\nb\tc".getBytes(StandardCharsets.US_ASCII), 100))
        .isEqualTo("a\\nb\\tc")
        .doesNotContain("\n");
  }

  @Test
  void shouldSayNullAndEmpty() {
    assertThat(BytesPreview.of(null, 10)).isEqualTo("null");
    assertThat(BytesPreview.of(new byte[0], 10)).isEqualTo("empty");
  }
}
