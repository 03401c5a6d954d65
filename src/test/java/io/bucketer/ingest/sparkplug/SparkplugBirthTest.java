package io.bucketer.ingest.sparkplug;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bucketer.ingest.InvalidReadingException;
import io.bucketer.ingest.InvalidReadingException.Reason;
import io.bucketer.ingest.sparkplug.SparkplugMessages.PayloadWriter;
import java.util.List;
import org.junit.jupiter.api.Test;

class SparkplugBirthTest {

  private static final SparkplugTopic NBIRTH = SparkplugReadingsTest.topic("spBv1.0/g/NBIRTH/e");

  private final SparkplugPayloads payloads = new SparkplugPayloads();

  @Test
  void shouldMapEachAliasAndNameToItsDefinition() throws Exception {
    final SparkplugBirth birth =
        of(
            SparkplugMessages.payload()
                .metric(m -> m.name("bdSeq").value(SparkplugDataType.INT64, 3))
                .metric(m -> m.name("temperature").alias(7).value(SparkplugDataType.FLOAT, 20)));

    assertThat(birth.byAlias(7)).isEqualTo(new SparkplugBirth.Metric("temperature", 7L, 9));
    assertThat(birth.byName("bdSeq")).isEqualTo(new SparkplugBirth.Metric("bdSeq", null, 4));
    assertThat(birth.byAlias(8)).isNull();
    assertThat(birth.metrics()).hasSize(2);
  }

  @Test
  void shouldBeReplacedWholeByTheNextBirth() throws Exception {
    final SparkplugBirth first =
        of(
            SparkplugMessages.payload()
                .metric(m -> m.name("a").alias(1).value(SparkplugDataType.DOUBLE, 0)));
    final SparkplugBirth second =
        of(
            SparkplugMessages.payload()
                .metric(m -> m.name("b").alias(2).value(SparkplugDataType.DOUBLE, 0)));

    assertThat(second).isNotEqualTo(first);
    assertThat(second.byAlias(1)).as("the first birth's alias").isNull();
    assertThat(second.byName("a")).isNull();
  }

  @Test
  void shouldRejectABirthThatCannotDefineItsMetrics() {
    assertBadBirth(
        SparkplugMessages.payload().metric(m -> m.alias(1).value(SparkplugDataType.DOUBLE, 0)),
        "no name");
    assertBadBirth(
        SparkplugMessages.payload().metric(m -> m.name("a").alias(1).doubleValue(0)),
        "no datatype");
    assertBadBirth(
        SparkplugMessages.payload()
            .metric(m -> m.name("a").alias(1).value(SparkplugDataType.DOUBLE, 0))
            .metric(m -> m.name("b").alias(1).value(SparkplugDataType.DOUBLE, 0)),
        "share the alias 1");
    assertBadBirth(
        SparkplugMessages.payload()
            .metric(m -> m.name("a").alias(1).value(SparkplugDataType.DOUBLE, 0))
            .metric(m -> m.name("a").alias(2).value(SparkplugDataType.DOUBLE, 0)),
        "two metrics are named a");
  }

  @Test
  void shouldBeEqualToItsOwnDefinitionsSoThatTheStoreCanRebuildIt() throws Exception {
    final SparkplugBirth birth =
        of(
            SparkplugMessages.payload()
                .metric(m -> m.name("a").alias(1).value(SparkplugDataType.DOUBLE, 0)));

    assertThat(new SparkplugBirth(birth.timestamp(), List.copyOf(birth.metrics())))
        .isEqualTo(birth);
  }

  @Test
  void shouldTellADeviceBirthOfTheNodesSessionByItsTimestamp() throws Exception {
    final SparkplugBirth device =
        of(
            SparkplugMessages.payload()
                .timestamp(1_000)
                .metric(m -> m.name("a").alias(1).value(SparkplugDataType.DOUBLE, 0)));
    final SparkplugBirth untimed =
        of(SparkplugMessages.payload().metric(m -> m.name("a").value(SparkplugDataType.DOUBLE, 0)));

    assertThat(device.timestamp()).isEqualTo(1_000);
    assertThat(device.isOfSessionStartedAt(1_000)).as("sent with its node's birth").isTrue();
    assertThat(device.isOfSessionStartedAt(900)).as("sent after it").isTrue();
    assertThat(device.isOfSessionStartedAt(1_001)).as("sent before: an earlier session").isFalse();
    assertThat(device.isOfSessionStartedAt(SparkplugBirth.NO_TIMESTAMP)).isFalse();
    assertThat(untimed.timestamp()).isEqualTo(SparkplugBirth.NO_TIMESTAMP);
    assertThat(untimed.isOfSessionStartedAt(0)).isFalse();
  }

  private SparkplugBirth of(final PayloadWriter birth) throws Exception {
    return SparkplugBirth.of(NBIRTH, payloads.read(birth.toByteArray()));
  }

  private void assertBadBirth(final PayloadWriter birth, final String detail) {
    assertThatThrownBy(() -> of(birth))
        .isInstanceOfSatisfying(
            InvalidReadingException.class,
            e -> {
              assertThat(e.reason()).isEqualTo(Reason.SPARKPLUG_BAD_BIRTH);
              assertThat(e.detail()).contains(detail);
            });
  }
}
