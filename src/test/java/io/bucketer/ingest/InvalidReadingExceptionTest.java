package io.bucketer.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import io.bucketer.ingest.InvalidReadingException.Reason;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class InvalidReadingExceptionTest {

  @Test
  void shouldLabelReasonsWithTheKebabCaseHeaderValues() {
    assertThat(Arrays.stream(Reason.values()).map(Reason::label))
        .containsExactly(
            "not-wire-format",
            "unknown-schema-id",
            "incompatible-schema",
            "malformed-avro",
            "missing-field",
            "not-a-time",
            "not-a-number",
            "wrong-type",
            "no-values",
            "malformed-json",
            "no-sensor-id",
            "malformed-senml",
            "unsupported-senml-version",
            "senml-no-name",
            "senml-invalid-name",
            "senml-must-understand",
            "malformed-protobuf",
            "unknown-message-index",
            "repeated-field",
            "schema-violation",
            "sparkplug-no-topic",
            "sparkplug-bad-topic",
            "sparkplug-unknown-message-type",
            "sparkplug-malformed-payload",
            "sparkplug-bad-birth",
            "unknown-alias",
            "sparkplug-unknown-metric",
            "sparkplug-value-type-mismatch",
            "sparkplug-no-timestamp");
  }

  @Test
  void shouldStartTheMessageWithTheLabelAndKeepTheCause() {
    final IllegalStateException cause = new IllegalStateException("boom");

    final InvalidReadingException e =
        new InvalidReadingException(Reason.MALFORMED_AVRO, "truncated", cause);

    assertThat(e.reason()).isEqualTo(Reason.MALFORMED_AVRO);
    assertThat(e).hasMessage("malformed-avro: truncated").hasCause(cause);
  }
}
