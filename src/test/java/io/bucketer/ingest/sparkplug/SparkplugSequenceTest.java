package io.bucketer.ingest.sparkplug;

import static io.bucketer.ingest.sparkplug.SparkplugMessageType.DBIRTH;
import static io.bucketer.ingest.sparkplug.SparkplugMessageType.DDATA;
import static io.bucketer.ingest.sparkplug.SparkplugMessageType.DDEATH;
import static io.bucketer.ingest.sparkplug.SparkplugMessageType.NBIRTH;
import static io.bucketer.ingest.sparkplug.SparkplugMessageType.NDATA;
import static io.bucketer.ingest.sparkplug.SparkplugMessageType.NDEATH;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class SparkplugSequenceTest {

  private final SparkplugSequence sequence = new SparkplugSequence();

  @Test
  void shouldSeeNoGapInAnUnbrokenSessionAcrossTheNodesAndDevicesMessages() {
    assertThat(sequence.isGap("g/e", NBIRTH, seq(0))).isFalse();
    assertThat(sequence.isGap("g/e", DBIRTH, seq(1))).isFalse();
    assertThat(sequence.isGap("g/e", NDATA, seq(2))).isFalse();
    assertThat(sequence.isGap("g/e", DDATA, seq(3))).isFalse();
    assertThat(sequence.isGap("g/e", DDEATH, seq(4))).isFalse();
  }

  @Test
  void shouldWrapFrom255To0WithoutAGap() {
    sequence.isGap("g/e", NDATA, seq(254));

    assertThat(sequence.isGap("g/e", NDATA, seq(255))).isFalse();
    assertThat(sequence.isGap("g/e", NDATA, seq(0))).isFalse();
    assertThat(sequence.isGap("g/e", NDATA, seq(1))).isFalse();
  }

  @Test
  void shouldSeeAGapWhenAMessageIsMissingAlsoAcrossTheWrap() {
    sequence.isGap("g/e", NDATA, seq(5));
    assertThat(sequence.isGap("g/e", NDATA, seq(7))).isTrue();
    assertThat(sequence.isGap("g/e", NDATA, seq(8))).isFalse();

    sequence.isGap("g/e", NDATA, seq(255));
    assertThat(sequence.isGap("g/e", NDATA, seq(1))).as("0 is missing").isTrue();
  }

  @Test
  void shouldStartAgainAtEveryNodeBirthAndKeepEachEdgeNodeApart() {
    sequence.isGap("g/a", NDATA, seq(17));
    sequence.isGap("g/b", NDATA, seq(40));

    assertThat(sequence.isGap("g/a", NBIRTH, seq(0))).as("a new session").isFalse();
    assertThat(sequence.isGap("g/a", NDATA, seq(1))).isFalse();
    assertThat(sequence.isGap("g/b", NDATA, seq(41))).isFalse();
  }

  @Test
  void shouldIgnoreMessagesThatCarryNoSequenceNumber() {
    sequence.isGap("g/e", NDATA, seq(3));

    assertThat(sequence.isGap("g/e", NDEATH, seq(99))).isFalse();
    assertThat(sequence.isGap("g/e", NDATA, new SparkplugPayload(true, 1L, false, 0L, List.of())))
        .isFalse();
    assertThat(sequence.isGap("g/e", NDATA, seq(4))).as("the count went on from 3").isFalse();
  }

  @Test
  void shouldStartAfreshAfterClear() {
    sequence.isGap("g/e", NDATA, seq(3));
    sequence.clear();

    assertThat(sequence.isGap("g/e", NDATA, seq(9))).isFalse();
  }

  private static SparkplugPayload seq(final long seq) {
    return new SparkplugPayload(true, 1L, true, seq, List.of());
  }
}
