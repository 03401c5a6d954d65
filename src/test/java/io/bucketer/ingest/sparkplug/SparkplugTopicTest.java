package io.bucketer.ingest.sparkplug;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bucketer.ingest.InvalidReadingException;
import io.bucketer.ingest.InvalidReadingException.Reason;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SparkplugTopicTest {

  @Test
  void shouldReadAnEdgeNodesTopic() throws Exception {
    final SparkplugTopic topic = SparkplugTopic.parse("spBv1.0/plant-1/NDATA/press-4");

    assertThat(topic)
        .isEqualTo(new SparkplugTopic("plant-1", SparkplugMessageType.NDATA, "press-4", null));
    assertThat(topic.edgeNodeId()).isEqualTo("plant-1/press-4");
    assertThat(topic.sensorId()).isEqualTo("plant-1/press-4");
    assertThat(topic).hasToString("spBv1.0/plant-1/NDATA/press-4");
  }

  @Test
  void shouldReadADevicesTopicWhoseSensorIsTheDeviceAndWhoseEdgeNodeIsItsNode() throws Exception {
    final SparkplugTopic topic = SparkplugTopic.parse("spBv1.0/plant-1/DDATA/press-4/motor");

    assertThat(topic.type()).isEqualTo(SparkplugMessageType.DDATA);
    assertThat(topic.edgeNodeId()).isEqualTo("plant-1/press-4");
    assertThat(topic.sensorId()).isEqualTo("plant-1/press-4/motor");
    assertThat(topic).hasToString("spBv1.0/plant-1/DDATA/press-4/motor");
  }

  @Test
  void shouldReadEveryMessageTypeAndAHostApplicationsState() throws Exception {
    assertThat(SparkplugTopic.parse("spBv1.0/g/NBIRTH/e").type().isBirth()).isTrue();
    assertThat(SparkplugTopic.parse("spBv1.0/g/DBIRTH/e/d").type().isBirth()).isTrue();
    assertThat(SparkplugTopic.parse("spBv1.0/g/NDEATH/e").type())
        .isEqualTo(SparkplugMessageType.NDEATH);
    assertThat(SparkplugTopic.parse("spBv1.0/g/DDEATH/e/d").type())
        .isEqualTo(SparkplugMessageType.DDEATH);
    assertThat(SparkplugTopic.parse("spBv1.0/g/NCMD/e").type())
        .isEqualTo(SparkplugMessageType.NCMD);
    assertThat(SparkplugTopic.parse("spBv1.0/g/DCMD/e/d").type())
        .isEqualTo(SparkplugMessageType.DCMD);
    assertThat(SparkplugTopic.parse("spBv1.0/STATE/scada-1"))
        .isEqualTo(new SparkplugTopic("", SparkplugMessageType.STATE, "scada-1", null));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "spAv1.0/g/NDATA/e",
        "g/NDATA/e",
        "spBv1.0/g/NDATA",
        "spBv1.0/g/NDATA/e/d/extra",
        "spBv1.0//NDATA/e",
        "spBv1.0/g/NDATA/e/",
        "spBv1.0/g/NDATA/+",
        "spBv1.0/g/NDATA/e/d",
        "spBv1.0/g/DDATA/e",
        "spBv1.0/g/STATE/e",
        ""
      })
  void shouldRejectWhatIsNoSparkplugTopicAsABadTopic(final String topic) {
    assertThatThrownBy(() -> SparkplugTopic.parse(topic))
        .isInstanceOfSatisfying(
            InvalidReadingException.class,
            e -> assertThat(e.reason()).isEqualTo(Reason.SPARKPLUG_BAD_TOPIC));
  }

  @Test
  void shouldRejectAnUnknownMessageTypeNamingIt() {
    assertThatThrownBy(() -> SparkplugTopic.parse("spBv1.0/g/NRECORD/e"))
        .isInstanceOfSatisfying(
            InvalidReadingException.class,
            e -> {
              assertThat(e.reason()).isEqualTo(Reason.SPARKPLUG_UNKNOWN_MESSAGE_TYPE);
              assertThat(e.detail()).contains("NRECORD");
            });
  }
}
