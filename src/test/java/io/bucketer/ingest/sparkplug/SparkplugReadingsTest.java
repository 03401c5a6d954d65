package io.bucketer.ingest.sparkplug;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bucketer.avro.Reading;
import io.bucketer.ingest.InvalidReadingException;
import io.bucketer.ingest.InvalidReadingException.Reason;
import io.bucketer.ingest.sparkplug.SparkplugMessages.PayloadWriter;
import io.bucketer.ingest.sparkplug.SparkplugReadings.Skipped;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Payloads written with {@link SparkplugMessages}, read back with {@link SparkplugPayloads}. */
class SparkplugReadingsTest {

  private static final long T = Instant.parse("2025-06-01T09:00:00Z").toEpochMilli();
  private static final SparkplugTopic NDATA = topic("spBv1.0/plant/NDATA/press");
  private static final SparkplugTopic DDATA = topic("spBv1.0/plant/DDATA/press/motor");

  private final SparkplugPayloads payloads = new SparkplugPayloads();
  private final SparkplugReadings readings = new SparkplugReadings(false);

  @Test
  void shouldNameEachReadingThroughItsAliasWithTheSensorOfTheNodeOrDevice() throws Exception {
    final SparkplugBirth birth =
        birth(
            payload()
                .metric(m -> m.name("temperature").alias(1).value(SparkplugDataType.DOUBLE, 20))
                .metric(m -> m.name("rpm").alias(2).value(SparkplugDataType.UINT32, 0)));
    final PayloadWriter data =
        payload()
            .timestamp(T)
            .metric(m -> m.alias(1).doubleValue(21.5))
            .metric(m -> m.alias(2).longValue(1500));

    assertThat(decode(NDATA, data, birth).readings())
        .containsExactly(
            new Reading("plant/press", Instant.ofEpochMilli(T), 21.5, "temperature", null),
            new Reading("plant/press", Instant.ofEpochMilli(T), 1500.0, "rpm", null));
    assertThat(decode(DDATA, data, birth).readings())
        .extracting(Reading::getSensorId)
        .containsOnly("plant/press/motor");
  }

  @Test
  void shouldConvertEachIntegerDatatypeByItsWidthAndSignedness() throws Exception {
    assertThat(value(SparkplugDataType.INT8, m -> m.intValue(-5))).isEqualTo(-5);
    assertThat(value(SparkplugDataType.INT8, m -> m.intValue(0xFB)))
        .as("two's complement")
        .isEqualTo(-5);
    assertThat(value(SparkplugDataType.INT16, m -> m.intValue(-300))).isEqualTo(-300);
    assertThat(value(SparkplugDataType.INT32, m -> m.intValue(Integer.MIN_VALUE)))
        .isEqualTo(Integer.MIN_VALUE);
    assertThat(value(SparkplugDataType.INT64, m -> m.longValue(-7_000_000_000L)))
        .isEqualTo(-7_000_000_000.0);
    assertThat(value(SparkplugDataType.UINT8, m -> m.intValue(250))).isEqualTo(250);
    assertThat(value(SparkplugDataType.UINT16, m -> m.intValue(65_535))).isEqualTo(65_535);
    assertThat(value(SparkplugDataType.UINT32, m -> m.intValue(-1)))
        .as("in int_value, as some encoders send it")
        .isEqualTo(4_294_967_295.0);
    assertThat(value(SparkplugDataType.UINT32, m -> m.longValue(4_294_967_295L)))
        .isEqualTo(4_294_967_295.0);
    assertThat(value(SparkplugDataType.UINT64, m -> m.longValue(-1L)))
        .as("2^64 - 1")
        .isEqualTo(18_446_744_073_709_551_615.0);
  }

  @Test
  void shouldReadFloatsAndDoubles() throws Exception {
    assertThat(value(SparkplugDataType.FLOAT, m -> m.floatValue(1.5f))).isEqualTo(1.5);
    assertThat(value(SparkplugDataType.DOUBLE, m -> m.doubleValue(-0.125))).isEqualTo(-0.125);
  }

  @Test
  void shouldSkipBooleansUnlessTakenAsOneAndZero() throws Exception {
    final SparkplugBirth birth =
        birth(
            payload().metric(m -> m.name("running").alias(1).value(SparkplugDataType.BOOLEAN, 1)));
    final PayloadWriter data = payload().timestamp(T).metric(m -> m.alias(1).booleanValue(true));

    final SparkplugReadings.Decoded skipped = decode(NDATA, data, birth);
    assertThat(skipped.readings()).isEmpty();
    assertThat(skipped.skipped()).isEqualTo(Map.of(Skipped.BOOLEAN, 1));

    final SparkplugReadings.Decoded taken =
        new SparkplugReadings(true).of(NDATA, payloads.read(data.toByteArray()), birth);
    assertThat(taken.readings()).extracting(Reading::getValue).containsExactly(1.0);
    assertThat(taken.skipped()).isEmpty();
  }

  @Test
  void shouldSkipNullMetricsAndMetricsOfOtherDatatypesCountingThem() throws Exception {
    final SparkplugBirth birth =
        birth(
            payload()
                .metric(m -> m.name("mode").alias(1).datatype(12).stringValue("auto"))
                .metric(m -> m.name("temperature").alias(2).value(SparkplugDataType.DOUBLE, 1)));
    final PayloadWriter data =
        payload()
            .timestamp(T)
            .metric(m -> m.alias(1).stringValue("manual"))
            .metric(m -> m.alias(2).isNull())
            .metric(m -> m.alias(2).doubleValue(3.0));

    final SparkplugReadings.Decoded decoded = decode(NDATA, data, birth);
    assertThat(decoded.readings()).extracting(Reading::getValue).containsExactly(3.0);
    assertThat(decoded.skipped()).isEqualTo(Map.of(Skipped.NOT_NUMERIC, 1, Skipped.NULL, 1));
  }

  @Test
  void shouldTakeTheMetricsOwnTimeElseThePayloadsAndHistoricalMetricsAsReadings() throws Exception {
    final SparkplugBirth birth =
        birth(payload().metric(m -> m.name("t").alias(1).value(SparkplugDataType.DOUBLE, 0)));
    final PayloadWriter data =
        payload()
            .timestamp(T)
            .metric(m -> m.alias(1).timestamp(T - 60_000).historical().doubleValue(1))
            .metric(m -> m.alias(1).doubleValue(2));

    assertThat(decode(NDATA, data, birth).readings())
        .extracting(Reading::getTimestamp)
        .containsExactly(Instant.ofEpochMilli(T - 60_000), Instant.ofEpochMilli(T));
  }

  @Test
  void shouldReadMetricsSentByNameThroughTheBirthOrTheirOwnDatatype() throws Exception {
    final SparkplugBirth birth =
        birth(payload().metric(m -> m.name("level").value(SparkplugDataType.UINT8, 0)));
    final PayloadWriter data =
        payload()
            .timestamp(T)
            .metric(m -> m.name("level").intValue(200))
            .metric(m -> m.name("extra").value(SparkplugDataType.INT16, -2));

    assertThat(decode(NDATA, data, birth).readings())
        .extracting(Reading::getMetric, Reading::getValue)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("level", 200.0),
            org.assertj.core.groups.Tuple.tuple("extra", -2.0));
  }

  @Test
  void shouldRejectTheMessageWholeForAnAliasNoBirthDefined() throws Exception {
    final SparkplugBirth birth =
        birth(payload().metric(m -> m.name("t").alias(1).value(SparkplugDataType.DOUBLE, 0)));
    final PayloadWriter data =
        payload()
            .timestamp(T)
            .metric(m -> m.alias(1).doubleValue(1))
            .metric(m -> m.alias(9).doubleValue(2));

    assertRejected(NDATA, data, birth, Reason.UNKNOWN_ALIAS, "alias 9");
    assertRejected(NDATA, data, SparkplugBirth.NONE, Reason.UNKNOWN_ALIAS, "alias 1");
  }

  @Test
  void shouldRejectWhatCannotBeRead() throws Exception {
    final SparkplugBirth birth =
        birth(payload().metric(m -> m.name("t").alias(1).value(SparkplugDataType.DOUBLE, 0)));

    assertRejected(
        NDATA,
        payload().timestamp(T).metric(m -> m.name("unborn").doubleValue(1)),
        birth,
        Reason.SPARKPLUG_UNKNOWN_METRIC,
        "unborn");
    assertRejected(
        NDATA,
        payload().timestamp(T).metric(m -> m.doubleValue(1)),
        birth,
        Reason.SPARKPLUG_MALFORMED_PAYLOAD,
        "neither name nor alias");
    assertRejected(
        NDATA,
        payload().timestamp(T).metric(m -> m.alias(1).stringValue("1.5")),
        birth,
        Reason.SPARKPLUG_VALUE_TYPE_MISMATCH,
        "DOUBLE");
    assertRejected(
        NDATA,
        payload().timestamp(T).metric(m -> m.alias(1)),
        birth,
        Reason.SPARKPLUG_VALUE_TYPE_MISMATCH,
        "no value");
    assertRejected(
        NDATA,
        payload().metric(m -> m.alias(1).doubleValue(1)),
        birth,
        Reason.SPARKPLUG_NO_TIMESTAMP,
        "t");
  }

  @Test
  void shouldRejectAValueThatIsNoPayload() {
    assertThatThrownBy(() -> payloads.read(new byte[] {(byte) 0xff, 0x01}))
        .isInstanceOfSatisfying(
            InvalidReadingException.class,
            e -> assertThat(e.reason()).isEqualTo(Reason.SPARKPLUG_MALFORMED_PAYLOAD));
    assertThatThrownBy(() -> payloads.read(null))
        .isInstanceOfSatisfying(
            InvalidReadingException.class,
            e -> assertThat(e.reason()).isEqualTo(Reason.SPARKPLUG_MALFORMED_PAYLOAD));
  }

  @Test
  void shouldReadThePayloadsSequenceNumberAndTimestamp() throws Exception {
    final SparkplugPayload payload = payloads.read(payload().timestamp(T).seq(255).toByteArray());

    assertThat(payload.hasSeq()).isTrue();
    assertThat(payload.seq()).isEqualTo(255);
    assertThat(payload.timestamp()).isEqualTo(T);
    assertThat(payloads.read(new byte[0]).hasSeq()).as("an empty payload").isFalse();
  }

  private double value(
      final SparkplugDataType type,
      final java.util.function.Consumer<SparkplugMessages.MetricWriter> value)
      throws Exception {
    final SparkplugBirth birth =
        birth(payload().metric(m -> m.name("m").alias(1).datatype(type.code()).intValue(0)));
    final List<Reading> read =
        decode(NDATA, payload().timestamp(T).metric(m -> value.accept(m.alias(1))), birth)
            .readings();
    assertThat(read).hasSize(1);
    return read.get(0).getValue();
  }

  private SparkplugBirth birth(final PayloadWriter birth) throws Exception {
    return SparkplugBirth.of(
        topic("spBv1.0/plant/NBIRTH/press"), payloads.read(birth.timestamp(T).toByteArray()));
  }

  private SparkplugReadings.Decoded decode(
      final SparkplugTopic topic, final PayloadWriter data, final SparkplugBirth birth)
      throws Exception {
    return readings.of(topic, payloads.read(data.toByteArray()), birth);
  }

  private void assertRejected(
      final SparkplugTopic topic,
      final PayloadWriter data,
      final SparkplugBirth birth,
      final Reason reason,
      final String detail) {
    assertThatThrownBy(() -> decode(topic, data, birth))
        .isInstanceOfSatisfying(
            InvalidReadingException.class,
            e -> {
              assertThat(e.reason()).isEqualTo(reason);
              assertThat(e.detail()).contains(detail);
            });
  }

  private static PayloadWriter payload() {
    return SparkplugMessages.payload();
  }

  static SparkplugTopic topic(final String topic) {
    try {
      return SparkplugTopic.parse(topic);
    } catch (InvalidReadingException e) {
      throw new AssertionError(e);
    }
  }
}
