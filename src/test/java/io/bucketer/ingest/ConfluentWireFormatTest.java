package io.bucketer.ingest;

import static io.bucketer.ingest.HandEncoded.FULL_BODY;
import static io.bucketer.ingest.HandEncoded.FULL_READING;
import static io.bucketer.ingest.HandEncoded.NULLS_BODY;
import static io.bucketer.ingest.HandEncoded.NULLS_READING;
import static io.bucketer.ingest.HandEncoded.framedAs42;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bucketer.avro.Reading;
import io.bucketer.ingest.ConfluentWireFormat.Frame;
import io.bucketer.ingest.InvalidReadingException.Reason;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class ConfluentWireFormatTest {

  private final ReadingDecoder decoder =
      new ReadingDecoder(new MapSchemaLookup().with(42, Reading.getClassSchema()));

  @Test
  void shouldFrameTheMagicByteThenTheBigEndianIdThenTheBody() {
    assertThat(ConfluentWireFormat.frame(42, FULL_BODY)).isEqualTo(framedAs42(FULL_BODY));
    assertThat(ConfluentWireFormat.frame(0x01020304, new byte[] {7}))
        .containsExactly(0, 1, 2, 3, 4, 7);
    assertThat(ConfluentWireFormat.frame(256, new byte[0])).containsExactly(0, 0, 0, 1, 0);
  }

  @Test
  void shouldWriteTheHeaderThatFrameWritesBeforeTheBody() {
    for (final int schemaId : new int[] {0, 42, 256, 0x01020304, Integer.MAX_VALUE, -1}) {
      final ByteArrayOutputStream out = new ByteArrayOutputStream();
      ConfluentWireFormat.writeHeader(out, schemaId);
      out.writeBytes(FULL_BODY);

      assertThat(out.toByteArray()).isEqualTo(ConfluentWireFormat.frame(schemaId, FULL_BODY));
    }
  }

  @Test
  void shouldParseTheIdAndPointAtTheBodyWithoutCopying() throws Exception {
    final byte[] framed = framedAs42(FULL_BODY);

    final Frame frame = ConfluentWireFormat.parse(framed);

    assertThat(frame.schemaId()).isEqualTo(42);
    assertThat(frame.data()).isSameAs(framed);
    assertThat(frame.bodyOffset()).isEqualTo(5);
    assertThat(frame.bodyLength()).isEqualTo(FULL_BODY.length);
    final ByteBuffer body = frame.body();
    final byte[] copied = new byte[body.remaining()];
    body.get(copied);
    assertThat(copied).isEqualTo(FULL_BODY);
  }

  @Test
  void shouldParseLargeIdsBigEndian() throws Exception {
    assertThat(ConfluentWireFormat.parse(new byte[] {0, 0x7F, (byte) 0xFF, 0, 1}).schemaId())
        .isEqualTo(0x7FFF0001);
    assertThat(ConfluentWireFormat.parse(new byte[] {0, 0, 0, 1, 0}).schemaId()).isEqualTo(256);
  }

  @Test
  void shouldTakeAHeaderAloneAsAFrameWithAnEmptyBody() throws Exception {
    assertThat(ConfluentWireFormat.parse(new byte[] {0, 0, 0, 0, 9}).bodyLength()).isZero();
  }

  @Test
  void shouldDecodeHandEncodedReadings() throws Exception {
    assertThat(decoder.decode(framedAs42(FULL_BODY))).isEqualTo(FULL_READING);
    assertThat(decoder.decode(framedAs42(NULLS_BODY))).isEqualTo(NULLS_READING);
  }

  @Test
  void shouldDecodeFieldsThatMatchTheHandEncoding() throws Exception {
    final Reading reading = decoder.decode(framedAs42(FULL_BODY));

    assertThat(reading.getSensorId()).isEqualTo("s1");
    assertThat(reading.getTimestamp().toEpochMilli()).isEqualTo(300L);
    assertThat(reading.getValue()).isEqualTo(1.5);
    assertThat(reading.getMetric()).isEqualTo("t");
    assertThat(reading.getUtcOffsetMinutes()).isEqualTo(-60);
  }

  @Test
  void shouldRejectAWrongMagicByteAsNotWireFormat() {
    final byte[] framed = framedAs42(FULL_BODY);
    framed[0] = 1;

    assertRejected(framed).hasMessageContaining("0x01");
  }

  @Test
  void shouldRejectJsonAsNotWireFormat() {
    assertRejected("{\"sensor_id\":\"s1\"}".getBytes(StandardCharsets.UTF_8))
        .hasMessageContaining("0x7b");
  }

  @Test
  void shouldRejectFewerThanFiveBytesAsNotWireFormat() {
    assertRejected(new byte[] {0, 0, 0, 42}).hasMessageContaining("4 bytes");
    assertRejected(new byte[0]).hasMessageContaining("0 bytes");
  }

  @Test
  void shouldRejectNullAsNotWireFormat() {
    assertRejected(null).hasMessageContaining("null");
  }

  @Test
  void shouldRejectWhatIsNotWireFormatBeforeAnyLookup() {
    final MapSchemaLookup lookup = new MapSchemaLookup();
    final byte[] plainAvro = Arrays.copyOf(FULL_BODY, FULL_BODY.length);

    assertThatThrownBy(() -> new ReadingDecoder(lookup).decode(plainAvro))
        .isInstanceOfSatisfying(
            InvalidReadingException.class,
            e -> assertThat(e.reason()).isEqualTo(Reason.NOT_WIRE_FORMAT));
    assertThat(lookup.calls()).isZero();
  }

  private static org.assertj.core.api.AbstractThrowableAssert<?, ? extends Throwable>
      assertRejected(final byte[] framed) {
    return assertThatThrownBy(() -> ConfluentWireFormat.parse(framed))
        .isInstanceOfSatisfying(
            InvalidReadingException.class,
            e -> assertThat(e.reason()).isEqualTo(Reason.NOT_WIRE_FORMAT));
  }
}
