package io.bucketer.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import io.bucketer.avro.Reading;
import io.bucketer.embedded.InProcessSchemaRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.time.Instant;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class EncoderDecoderRoundTripTest {

  private final InProcessSchemaRegistry registry = InProcessSchemaRegistry.start();
  private final ReadingEncoder encoder =
      new ReadingEncoder(new SchemaRegistryClient(registry.url()), "readings");
  // A separate client, as in a separate consumer process: its schemas come from the registry.
  private final ReadingDecoder decoder =
      new ReadingDecoder(new SchemaRegistryClient(registry.url()));

  @AfterEach
  void stopRegistry() {
    registry.close();
  }

  @Test
  void shouldKeepAReadingThroughTheRoundTrip() throws Exception {
    final Reading reading =
        new Reading("boiler-7", Instant.parse("2025-01-02T03:04:05.678Z"), 71.25, "temp", 120);

    assertThat(decoder.decode(encoder.encode(reading))).isEqualTo(reading);
  }

  @Test
  void shouldEncodeTheSameBytesAsTheHandEncoding() {
    final byte[] framed = encoder.encode(HandEncoded.FULL_READING);

    assertThat(framed).startsWith(0, 0, 0, 0, 1);
    assertThat(ByteBuffer.wrap(framed, 5, framed.length - 5).slice())
        .isEqualTo(ByteBuffer.wrap(HandEncoded.FULL_BODY));
  }

  @Test
  void shouldRegisterTheWriterSchemaUnderTheTopicValueSubject() throws Exception {
    encoder.encode(HandEncoded.NULLS_READING);

    assertThat(encoder.subject()).isEqualTo("readings-value");
    assertThat(get("/subjects")).isEqualTo("[\"readings-value\"]");
  }

  @Test
  void shouldRegisterANewerWriterSchemaAsVersionTwoAndStillDecodeIt() throws Exception {
    encoder.encode(HandEncoded.FULL_READING);
    final GenericRecord v2 =
        WriterSchemas.record(WriterSchemas.V2_WITH_FIRMWARE, "s3", 9L, 3.5, "fw-2", null, 60);

    final byte[] framed = encoder.encode(v2, WriterSchemas.V2_WITH_FIRMWARE);

    assertThat(ConfluentWireFormat.parse(framed).schemaId()).isEqualTo(2);
    assertThat(get("/subjects/readings-value/versions")).isEqualTo("[1,2]");
    assertThat(decoder.decode(framed))
        .isEqualTo(new Reading("s3", Instant.ofEpochMilli(9), 3.5, null, 60));
  }

  private String get(final String path) throws Exception {
    return HttpClient.newHttpClient()
        .send(
            HttpRequest.newBuilder(URI.create(registry.url() + path)).build(),
            HttpResponse.BodyHandlers.ofString())
        .body();
  }
}
