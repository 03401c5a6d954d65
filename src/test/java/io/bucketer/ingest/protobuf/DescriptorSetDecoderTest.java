package io.bucketer.ingest.protobuf;

import static io.bucketer.ingest.protobuf.TestSchemas.mapping;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.DynamicMessage;
import com.google.protobuf.FloatValue;
import com.google.protobuf.Timestamp;
import io.bucketer.avro.Reading;
import io.bucketer.ingest.InputRecord;
import io.bucketer.ingest.InvalidReadingException;
import io.bucketer.ingest.InvalidReadingException.Reason;
import java.time.Instant;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** Registry-less Protobuf: bare binary of the message type a protoc descriptor set names. */
class DescriptorSetDecoderTest {

  private static final Instant TIME = Instant.parse("2025-06-01T09:00:00Z");
  private static final Descriptor FROM_PROTOC =
      DescriptorSetFile.message(TestSchemas.descriptorSet(), "test.gateway.GatewayReading");

  private final DescriptorSetDecoder decoder =
      new DescriptorSetDecoder(
          FROM_PROTOC, mapping("device_id", "time", null, "temperature", "battery"));

  @Test
  void shouldReadTheBareBinaryOfTheNamedMessage() throws Exception {
    final byte[] value =
        TestSchemas.message(
                FROM_PROTOC,
                "device_id",
                "gw-1",
                "time",
                Timestamp.newBuilder().setSeconds(TIME.getEpochSecond()).build(),
                "temperature",
                21.5,
                "battery",
                FloatValue.of(3.75f))
            .toByteArray();

    assertThat(decoder.readings(value))
        .containsExactly(
            new Reading("gw-1", TIME, 21.5, "temperature", null),
            new Reading("gw-1", TIME, 3.75, "battery", null));
  }

  @Test
  void shouldFindNestedMessagesAndSayWhichMessagesTheSetHas() {
    assertThat(
            DescriptorSetFile.message(TestSchemas.descriptorSet(), "test.gateway.Batch.Sample")
                .getFullName())
        .isEqualTo("test.gateway.Batch.Sample");
    assertThatThrownBy(
            () -> DescriptorSetFile.message(TestSchemas.descriptorSet(), "test.gateway.Nothing"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("test.gateway.GatewayReading.Status")
        .hasMessageContaining("test.units.Calibration");
  }

  @Test
  void shouldRefuseAtConstructionAMappingTheMessageCannotServe() {
    assertThatThrownBy(
            () ->
                new DescriptorSetDecoder(FROM_PROTOC, mapping("device_id", "time", null, "label")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("the value field label is string");
  }

  @Test
  void shouldDeadLetterANullOrTruncatedValue() {
    assertThatThrownBy(() -> decoder.readings(InputRecord.ofValue(null)))
        .isInstanceOfSatisfying(
            InvalidReadingException.class,
            e -> assertThat(e.reason()).isEqualTo(Reason.MALFORMED_PROTOBUF));
    final byte[] whole =
        DynamicMessage.newBuilder(FROM_PROTOC)
            .setField(FROM_PROTOC.findFieldByName("device_id"), "gateway-number-one")
            .build()
            .toByteArray();
    assertThatThrownBy(() -> decoder.readings(Arrays.copyOf(whole, 6)))
        .isInstanceOfSatisfying(
            InvalidReadingException.class,
            e -> assertThat(e.reason()).isEqualTo(Reason.MALFORMED_PROTOBUF))
        .hasMessageContaining("test.gateway.GatewayReading");
  }
}
