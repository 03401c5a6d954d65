package io.bucketer.topics;

import static io.bucketer.buckets.TestBuckets.START;
import static io.bucketer.buckets.TestBuckets.minute;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bucketer.buckets.ClosedBucket;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.serialization.Serdes;
import org.junit.jupiter.api.Test;

class BucketerTopicsTest {

  private static final ClosedBucket BUCKET = minute("sensor-1", START);

  /** Not a reading in any format: the input and dead-letter topics take any bytes. */
  private static final byte[] NOT_A_READING = {0, 1, (byte) 0xff, 'x'};

  @Test
  void shouldRoundTripABucketAndItsKeyThroughTheClosedBucketsTopic() {
    final TypedTopic<String, ClosedBucket> buckets = BucketerTopics.closedBuckets("iot.buckets");

    final byte[] key = buckets.keySerializer().serialize(buckets.name(), BucketKey.of(BUCKET));
    final byte[] value = buckets.valueSerializer().serialize(buckets.name(), BUCKET);

    assertThat(buckets.keyDeserializer().deserialize(buckets.name(), key))
        .isEqualTo(BucketKey.of(BUCKET));
    assertThat(buckets.valueDeserializer().deserialize(buckets.name(), value)).isEqualTo(BUCKET);
  }

  @Test
  void shouldWriteTheClosedBucketsTopicAsUtf8KeysAndTheBucketFormat() {
    final TypedTopic<String, ClosedBucket> buckets = BucketerTopics.closedBuckets("iot.buckets");

    assertThat(buckets.keySerializer().serialize(buckets.name(), BucketKey.of(BUCKET)))
        .isEqualTo(BucketKey.of(BUCKET).getBytes(StandardCharsets.UTF_8));
    assertThat(buckets.valueSerializer().serialize(buckets.name(), BUCKET))
        .isEqualTo(ClosedBucketSerde.encode(BUCKET));
    // a tombstone stays one
    assertThat(buckets.valueSerializer().serialize(buckets.name(), null)).isNull();
    assertThat(buckets.valueDeserializer().deserialize(buckets.name(), null)).isNull();
  }

  @Test
  void shouldKeepADeadLetterByteForByte() {
    final TypedTopic<byte[], byte[]> deadLetters = BucketerTopics.deadLetters("iot.readings.dlq");

    assertThat(deadLetters.keySerializer().serialize(deadLetters.name(), NOT_A_READING))
        .isEqualTo(NOT_A_READING);
    assertThat(deadLetters.valueSerializer().serialize(deadLetters.name(), NOT_A_READING))
        .isEqualTo(NOT_A_READING);
    assertThat(deadLetters.keySerializer().serialize(deadLetters.name(), null)).isNull();
    assertThat(deadLetters.valueDeserializer().deserialize(deadLetters.name(), NOT_A_READING))
        .isEqualTo(NOT_A_READING);
  }

  @Test
  void shouldReadABucketsRecordSetAsideAsTheClosedBucketsTopicWroteIt() {
    final TypedTopic<String, ClosedBucket> buckets = BucketerTopics.closedBuckets("iot.buckets");
    final TypedTopic<byte[], byte[]> deadLetters = BucketerTopics.deadLetters("iot.readings.dlq");
    final byte[] key = buckets.keySerializer().serialize(buckets.name(), BucketKey.of(BUCKET));
    final byte[] value = buckets.valueSerializer().serialize(buckets.name(), BUCKET);

    // What the sink does with a bucket MongoDB rejected: it passes the record's bytes on.
    final byte[] letterKey = deadLetters.keySerializer().serialize(deadLetters.name(), key);
    final byte[] letterValue = deadLetters.valueSerializer().serialize(deadLetters.name(), value);

    assertThat(buckets.keyDeserializer().deserialize(deadLetters.name(), letterKey))
        .isEqualTo(BucketKey.of(BUCKET));
    assertThat(buckets.valueDeserializer().deserialize(deadLetters.name(), letterValue))
        .isEqualTo(BUCKET);
  }

  @Test
  void shouldWriteTheSameDeadLettersKeyedByStringAsKeyedByBytes() {
    final TypedTopic<String, byte[]> byString =
        BucketerTopics.deadLettersKeyedByString("iot.readings.dlq");
    final TypedTopic<byte[], byte[]> deadLetters = BucketerTopics.deadLetters("iot.readings.dlq");
    final byte[] json = "{\"sensor_id\":\"sensor-1\"}".getBytes(StandardCharsets.UTF_8);

    assertThat(byString.name()).isEqualTo(deadLetters.name());
    // a too-late reading has no key
    assertThat(byString.keySerializer().serialize(byString.name(), null))
        .isEqualTo(deadLetters.keySerializer().serialize(deadLetters.name(), null))
        .isNull();
    assertThat(byString.keySerializer().serialize(byString.name(), "sensor-1/é"))
        .isEqualTo("sensor-1/é".getBytes(StandardCharsets.UTF_8));
    assertThat(byString.valueSerializer().serialize(byString.name(), json))
        .isEqualTo(deadLetters.valueSerializer().serialize(deadLetters.name(), json));
  }

  @Test
  void shouldTakeInputAsTheGatewaysSentItForTheProcessorToDecode() {
    final TypedTopic<byte[], byte[]> input = BucketerTopics.input("iot.readings");

    assertThat(input.name()).isEqualTo("iot.readings");
    assertThat(input.valueSerializer().serialize(input.name(), NOT_A_READING))
        .isEqualTo(NOT_A_READING);
    assertThat(input.valueDeserializer().deserialize(input.name(), NOT_A_READING))
        .isEqualTo(NOT_A_READING);
  }

  @Test
  void shouldLeaveTheSameTopicsRecordsAsBytesForAClientThatDecodesThemItself() {
    final TypedTopic<String, ClosedBucket> buckets = BucketerTopics.closedBuckets("iot.buckets");
    final TypedTopic<byte[], byte[]> raw = buckets.asBytes();
    final byte[] value = buckets.valueSerializer().serialize(buckets.name(), BUCKET);

    assertThat(raw.name()).isEqualTo(buckets.name());
    assertThat(raw.valueDeserializer().deserialize(raw.name(), value)).isEqualTo(value);
    assertThat(buckets.valueDeserializer().deserialize(raw.name(), value)).isEqualTo(BUCKET);
  }

  @Test
  void shouldRefuseATopicWithoutANameOrASerde() {
    assertThatThrownBy(() -> BucketerTopics.input(null))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("name");
    assertThatThrownBy(() -> new TypedTopic<>("t", Serdes.String(), null))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("valueSerde");
  }
}
