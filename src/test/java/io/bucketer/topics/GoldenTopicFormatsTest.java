package io.bucketer.topics;

import static io.bucketer.testing.GoldenBuckets.DAY_BUCKET;
import static io.bucketer.testing.GoldenBuckets.HOUR_BUCKET;
import static io.bucketer.testing.GoldenBuckets.HOUR_BUCKET_V3;
import static io.bucketer.testing.GoldenBuckets.HOUR_BUCKET_V4;
import static io.bucketer.testing.GoldenBuckets.HOUR_BUCKET_V5;
import static io.bucketer.testing.GoldenBuckets.HOUR_SKETCH;
import static io.bucketer.testing.GoldenBuckets.MINUTE;
import static io.bucketer.testing.GoldenBuckets.MINUTE_BEFORE_SKETCH;
import static io.bucketer.testing.GoldenBuckets.MINUTE_BUCKET;
import static io.bucketer.testing.GoldenBuckets.MINUTE_BUCKET_V3;
import static io.bucketer.testing.GoldenBuckets.MINUTE_BUCKET_V4;
import static io.bucketer.testing.GoldenBuckets.MINUTE_BUCKET_V5;
import static io.bucketer.testing.GoldenBuckets.MINUTE_LEARNED_BUCKET_V5;
import static io.bucketer.testing.GoldenBuckets.MINUTE_PART_BUCKET;
import static io.bucketer.testing.GoldenBuckets.MINUTE_PART_BUCKET_V3;
import static io.bucketer.testing.GoldenBuckets.MINUTE_PART_BUCKET_V4;
import static io.bucketer.testing.GoldenBuckets.MINUTE_PART_BUCKET_V5;
import static io.bucketer.testing.GoldenBuckets.MINUTE_PART_SKETCH;
import static io.bucketer.testing.GoldenBuckets.MINUTE_SKETCH;
import static io.bucketer.testing.GoldenBuckets.T0;
import static org.assertj.core.api.Assertions.assertThat;

import io.bucketer.avro.v1.ClosedBucketRecord;
import io.bucketer.avro.v1.MeasurementRecord;
import io.bucketer.buckets.BucketStats;
import io.bucketer.buckets.ClosedBucket;
import io.bucketer.buckets.Measurement;
import io.bucketer.buckets.SeriesKey;
import io.bucketer.buckets.WindowQuality;
import io.bucketer.buckets.WindowSummary;
import io.bucketer.deadletters.DeadLetter;
import io.bucketer.sketch.ValueSketch;
import io.bucketer.testing.GoldenFiles;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Golden files of the topics bucketer writes ({@link GoldenFiles}): the buckets topic's values
 * (format 5, a minute, an hour and a part of a window written as two, with their time-weighted
 * parts, quantile sketches, resends, late readings and expected interval; formats 4, the same
 * without the last three, 3, without sketches, 2, a bucket of each granularity, and 1, read only),
 * its keys and close-time header, and the headers of the dead letters bucketer writes. Today's
 * encoders must write the current files byte for byte, and every file must decode to the values
 * written out in {@link io.bucketer.testing.GoldenBuckets} or here.
 *
 * <p>Missing golden files are written, once, by {@link #shouldWriteTheGoldenFilesThatAreMissing}
 * with {@code -Dbucketer.golden.write=true}; the normal build writes none.
 */
class GoldenTopicFormatsTest {

  /** Today's encodings: each must equal its golden file. */
  private static Map<String, byte[]> current() {
    final Map<String, byte[]> files = new LinkedHashMap<>();
    files.put("closed-bucket-v5-1m.bin", ClosedBucketSerde.encode(MINUTE_BUCKET_V5));
    files.put("closed-bucket-v5-1h.bin", ClosedBucketSerde.encode(HOUR_BUCKET_V5));
    files.put(
        "closed-bucket-v5-1m-part-2-of-2.bin", ClosedBucketSerde.encode(MINUTE_PART_BUCKET_V5));
    files.put(
        "closed-bucket-v5-1m-learned.bin", ClosedBucketSerde.encode(MINUTE_LEARNED_BUCKET_V5));
    files.put("bucket-keys.txt", utf8(String.join("\n", bucketKeys()) + "\n"));
    files.put("closed-at-header.bin", BucketHeaders.closedAt(T0 + 2_345).value());
    files.put("dead-letter-headers-v2.txt", utf8(headerLines(deadLetterHeaders())));
    return files;
  }

  /** Formats no longer written, built as their builds wrote them. */
  private static Map<String, byte[]> older() {
    return Map.ofEntries(
        Map.entry("closed-bucket-v4-1m.bin", formatFour(MINUTE_BUCKET_V5)),
        Map.entry("closed-bucket-v4-1h.bin", formatFour(HOUR_BUCKET_V5)),
        Map.entry("closed-bucket-v4-1m-part-2-of-2.bin", formatFour(MINUTE_PART_BUCKET_V5)),
        Map.entry("closed-bucket-v3-1m.bin", formatThree(MINUTE_BUCKET_V4)),
        Map.entry("closed-bucket-v3-1h.bin", formatThree(HOUR_BUCKET_V4)),
        Map.entry("closed-bucket-v3-1m-part-2-of-2.bin", formatThree(MINUTE_PART_BUCKET_V4)),
        Map.entry("closed-bucket-v1-1m.bin", closedBucketFormatOne()),
        Map.entry("closed-bucket-v2-1m.bin", formatTwo(MINUTE_BUCKET)),
        Map.entry("closed-bucket-v2-1h.bin", formatTwo(HOUR_BUCKET)),
        Map.entry("closed-bucket-v2-1d.bin", formatTwo(DAY_BUCKET)),
        Map.entry("closed-bucket-v2-1m-part-2-of-2.bin", formatTwo(MINUTE_PART_BUCKET)),
        Map.entry("dead-letter-headers-v1.txt", utf8(deadLetterHeaderLines("1"))));
  }

  @Test
  void shouldStillWriteFormatsTwoToFourAsTheirBuildsDid() {
    // The format 2, 3 and 4 files were written by those builds; writing them again as older() does
    // shows the fields each later format added come after the earlier ones' in every record.
    older().entrySet().stream()
        .filter(
            file ->
                file.getKey().startsWith("closed-bucket-v2-")
                    || file.getKey().startsWith("closed-bucket-v3-")
                    || file.getKey().startsWith("closed-bucket-v4-"))
        .forEach(
            file ->
                assertThat(file.getValue())
                    .as(file.getKey())
                    .isEqualTo(GoldenFiles.read(file.getKey())));
  }

  @Test
  void shouldWriteExactlyTheGoldenBytesOfTheCurrentFormats() {
    current()
        .forEach(
            (name, bytes) ->
                assertThat(bytes)
                    .as("%s: a changed format needs a new version (docs/upgrades.md)", name)
                    .isEqualTo(GoldenFiles.read(name)));
  }

  @Test
  void shouldReadTheGoldenClosedBucketsOfFormatFiveWithTheirQuality() {
    assertThat(ClosedBucketSerde.decode(GoldenFiles.read("closed-bucket-v5-1m.bin")))
        .isEqualTo(MINUTE_BUCKET_V5);
    final ClosedBucket hour = ClosedBucketSerde.decode(GoldenFiles.read("closed-bucket-v5-1h.bin"));
    assertThat(hour).isEqualTo(HOUR_BUCKET_V5);
    assertThat(hour.extras().quality()).isEqualTo(new WindowQuality(1, 1));
    assertThat(hour.extras().expectedIntervalMillis()).isEqualTo(1_000L);
    assertThat(hour.summaries())
        .extracting(WindowSummary::quality)
        .containsExactly(new WindowQuality(0, 1), new WindowQuality(1, 0));
    final ClosedBucket part =
        ClosedBucketSerde.decode(GoldenFiles.read("closed-bucket-v5-1m-part-2-of-2.bin"));
    assertThat(part).isEqualTo(MINUTE_PART_BUCKET_V5);
    assertThat(ClosedBucketSerde.decode(GoldenFiles.read("closed-bucket-v5-1m-learned.bin")))
        .isEqualTo(MINUTE_LEARNED_BUCKET_V5);
    assertThat(part.extras().quality()).isEqualTo(WindowQuality.NONE);
    assertThat(part.extras().expectedIntervalMillis()).isNull();
  }

  /** Format 4 buckets read as buckets whose quality is unknown and that expect no interval. */
  @Test
  void shouldReadTheGoldenClosedBucketsOfFormatFourWithTheirSketches() {
    assertThat(ClosedBucketSerde.decode(GoldenFiles.read("closed-bucket-v4-1m.bin")))
        .isEqualTo(MINUTE_BUCKET_V4);
    assertThat(ClosedBucketSerde.decode(GoldenFiles.read("closed-bucket-v4-1h.bin")))
        .isEqualTo(HOUR_BUCKET_V4);
    assertThat(ClosedBucketSerde.decode(GoldenFiles.read("closed-bucket-v4-1m-part-2-of-2.bin")))
        .isEqualTo(MINUTE_PART_BUCKET_V4);
  }

  /** The sketches written out in GoldenBuckets are those of the readings their comments give. */
  @Test
  void shouldHoldTheSketchesOfTheGoldenReadings() {
    assertThat(MINUTE_SKETCH).isEqualTo(ValueSketch.of(new double[] {21.5, 22.0, 21.75}, 0.01));
    assertThat(MINUTE_BEFORE_SKETCH).isEqualTo(ValueSketch.of(new double[] {20.0, 21.0}, 0.01));
    assertThat(HOUR_SKETCH)
        .isEqualTo(ValueSketch.of(new double[] {20.0, 21.0, 21.5, 22.0, 21.75}, 0.01))
        .isEqualTo(MINUTE_SKETCH.merge(MINUTE_BEFORE_SKETCH));
    assertThat(MINUTE_PART_SKETCH)
        .isEqualTo(ValueSketch.of(new double[] {1490.0, 1480.0, 1500.0, 1520.5}, 0.01));
  }

  /** Format 3 buckets read as buckets whose sketches are unknown. */
  @Test
  void shouldReadTheGoldenClosedBucketsOfFormatThreeWithTheirTimeWeightedParts() {
    assertThat(ClosedBucketSerde.decode(GoldenFiles.read("closed-bucket-v3-1m.bin")))
        .isEqualTo(MINUTE_BUCKET_V3);
    assertThat(ClosedBucketSerde.decode(GoldenFiles.read("closed-bucket-v3-1h.bin")))
        .isEqualTo(HOUR_BUCKET_V3);
    assertThat(ClosedBucketSerde.decode(GoldenFiles.read("closed-bucket-v3-1m-part-2-of-2.bin")))
        .isEqualTo(MINUTE_PART_BUCKET_V3);
  }

  /** Format 2 buckets read as buckets whose time-weighted parts are unknown. */
  @Test
  void shouldReadTheGoldenClosedBucketOfEachGranularity() {
    assertThat(ClosedBucketSerde.decode(GoldenFiles.read("closed-bucket-v2-1m.bin")))
        .isEqualTo(MINUTE_BUCKET);
    assertThat(ClosedBucketSerde.decode(GoldenFiles.read("closed-bucket-v2-1h.bin")))
        .isEqualTo(HOUR_BUCKET);
    assertThat(ClosedBucketSerde.decode(GoldenFiles.read("closed-bucket-v2-1d.bin")))
        .isEqualTo(DAY_BUCKET);
    assertThat(ClosedBucketSerde.decode(GoldenFiles.read("closed-bucket-v2-1m-part-2-of-2.bin")))
        .isEqualTo(MINUTE_PART_BUCKET);
  }

  @Test
  void shouldReadTheGoldenClosedBucketOfFormatOneWithoutTheLaterFields() {
    final ClosedBucket decoded =
        ClosedBucketSerde.decode(GoldenFiles.read("closed-bucket-v1-1m.bin"));

    final BucketStats withoutSpread =
        new BucketStats(
            2,
            3.0,
            1.0,
            2.0,
            new Measurement(T0, Double.NaN),
            new Measurement(T0 + 1, Double.NaN),
            0,
            1.5,
            Double.NaN,
            60);
    assertThat(decoded)
        .isEqualTo(
            new ClosedBucket(
                new SeriesKey("s", null),
                MINUTE,
                T0,
                withoutSpread,
                List.of(new Measurement(T0, 1.0), new Measurement(T0 + 1, 2.0)),
                List.of(),
                withoutSpread,
                0,
                1,
                4));
  }

  @Test
  void shouldKeepTheGoldenKeysAndHeadersOfTheBucketsTopic() {
    assertThat(new String(GoldenFiles.read("bucket-keys.txt"), StandardCharsets.UTF_8))
        .isEqualTo(
            """
            ["1m",1700000040000,"sensor-1","temperature",0]
            ["1h",1699999200000,"sensor-1","temperature",0]
            ["1d",1699920000000,"sensor-2",null,0]
            ["1m",1700000040000,"sensor-3","power",1]
            """);
    final RecordHeaders headers = new RecordHeaders();
    headers.add(BucketHeaders.CLOSED_AT, GoldenFiles.read("closed-at-header.bin"));
    assertThat(BucketHeaders.closedAt(headers)).isEqualTo(OptionalLong.of(T0 + 2_345));
  }

  @Test
  void shouldKeepTheGoldenHeadersOfADeadLetter() {
    assertThat(new String(GoldenFiles.read("dead-letter-headers-v2.txt"), StandardCharsets.UTF_8))
        .isEqualTo(deadLetterHeaderLines("2") + "bucketer.dlq.source.timestamp: 1748768400000\n");
    assertThat(new String(GoldenFiles.read("dead-letter-headers-v1.txt"), StandardCharsets.UTF_8))
        .isEqualTo(deadLetterHeaderLines("1"));
  }

  /**
   * A dead letter of format 1 kept its original's timestamp as its own, and said so by no header:
   * read today, that timestamp is its source's.
   */
  @Test
  void shouldReadTheSourceTimestampOfADeadLetterOfFormatOneFromTheRecord() {
    final DeadLetter formatOne =
        new DeadLetter(
            "bucketer.dlq",
            0,
            0,
            T0,
            null,
            new byte[0],
            headersOfLines(GoldenFiles.read("dead-letter-headers-v1.txt")));
    final DeadLetter formatTwo =
        new DeadLetter(
            "bucketer.dlq",
            0,
            1,
            T0 + 60_000,
            null,
            new byte[0],
            headersOfLines(GoldenFiles.read("dead-letter-headers-v2.txt")));

    assertThat(formatOne.sourceTimestamp()).isEqualTo(T0);
    assertThat(formatOne.source()).hasValueSatisfying(s -> assertThat(s.offset()).isEqualTo(1234));
    assertThat(formatTwo.sourceTimestamp()).isEqualTo(1_748_768_400_000L);
    assertThat(formatTwo.timestamp()).as("when it was set aside").isEqualTo(T0 + 60_000);
  }

  @Test
  @EnabledIfSystemProperty(named = GoldenFiles.WRITE_PROPERTY, matches = "true")
  void shouldWriteTheGoldenFilesThatAreMissing() {
    GoldenFiles.writeMissing(current());
    GoldenFiles.writeMissing(older());
  }

  private static List<String> bucketKeys() {
    return List.of(
        BucketKey.of(MINUTE_BUCKET),
        BucketKey.of(HOUR_BUCKET),
        BucketKey.of(DAY_BUCKET),
        BucketKey.of(MINUTE_PART_BUCKET));
  }

  private static RecordHeaders deadLetterHeaders() {
    final RecordHeaders headers = new RecordHeaders();
    DeadLetterHeaders.add(
        headers,
        "mongodb-rejected",
        "E11000 duplicate key",
        "bucketer.buckets",
        3,
        1234,
        Instant.parse("2025-06-01T09:00:00Z").toEpochMilli());
    return headers;
  }

  /**
   * The golden dead letter's headers up to its source offset, as format {@code format} wrote them:
   * all that format 1 wrote (no source timestamp, the record's own being the original's).
   */
  private static String deadLetterHeaderLines(final String format) {
    return "bucketer.dlq.format: "
        + format
        + "\n"
        + """
        bucketer.dlq.reason: mongodb-rejected
        bucketer.dlq.message: E11000 duplicate key
        bucketer.dlq.source.topic: bucketer.buckets
        bucketer.dlq.source.partition: 3
        bucketer.dlq.source.offset: 1234
        """;
  }

  /** {@link #headerLines} read back. */
  private static RecordHeaders headersOfLines(final byte[] lines) {
    final RecordHeaders headers = new RecordHeaders();
    for (final String line : new String(lines, StandardCharsets.UTF_8).split("\n")) {
      final int colon = line.indexOf(": ");
      headers.add(line.substring(0, colon), utf8(line.substring(colon + 2)));
    }
    return headers;
  }

  /** Headers as {@code name: value} lines, in order; dead-letter headers are UTF-8 text. */
  private static String headerLines(final RecordHeaders headers) {
    final StringBuilder lines = new StringBuilder();
    for (final Header header : headers) {
      lines
          .append(header.key())
          .append(": ")
          .append(new String(header.value(), StandardCharsets.UTF_8))
          .append('\n');
    }
    return lines.toString();
  }

  /** A bucket as format 4 wrote it: a version byte 4 and the Avro binary of its v4 record. */
  static byte[] formatFour(final ClosedBucket bucket) {
    return asWrittenBy(4, io.bucketer.avro.v4.ClosedBucketRecord.getClassSchema(), bucket);
  }

  /** A bucket as format 3 wrote it: a version byte 3 and the Avro binary of its v3 record. */
  static byte[] formatThree(final ClosedBucket bucket) {
    return asWrittenBy(3, io.bucketer.avro.v3.ClosedBucketRecord.getClassSchema(), bucket);
  }

  /**
   * A bucket as an older format wrote it: its version byte and the Avro binary of its record in
   * that format's schema. That record is today's read by Avro's schema resolution with the older
   * schema, which drops the fields added since (a nested record of today's namespace is not one of
   * the older schema's unions).
   */
  private static byte[] asWrittenBy(
      final int version, final Schema schema, final ClosedBucket bucket) {
    final ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(version);
    final BinaryEncoder encoder = EncoderFactory.get().directBinaryEncoder(out, null);
    try {
      final byte[] current = ClosedBucketSerde.encode(bucket);
      final Object old =
          new GenericDatumReader<>(io.bucketer.avro.ClosedBucketRecord.getClassSchema(), schema)
              .read(null, DecoderFactory.get().binaryDecoder(current, 1, current.length - 1, null));
      new GenericDatumWriter<>(schema).write(old, encoder);
      encoder.flush();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }

  /** A bucket as format 2 wrote it: a version byte 2 and the Avro binary of its v2 record. */
  private static byte[] formatTwo(final ClosedBucket bucket) {
    final ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(2);
    final BinaryEncoder encoder = EncoderFactory.get().directBinaryEncoder(out, null);
    try {
      // Today's record written by the v2 schema: its fields are the first of each record.
      new SpecificDatumWriter<Object>(io.bucketer.avro.v2.ClosedBucketRecord.getClassSchema())
          .write(ClosedBucketSerde.toRecord(bucket), encoder);
      encoder.flush();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }

  /** A minute as format 1 had it: a version byte 1 and the Avro binary of its v1 record. */
  private static byte[] closedBucketFormatOne() {
    final ClosedBucketRecord old =
        ClosedBucketRecord.newBuilder()
            .setSensorId("s")
            .setMetric(null)
            .setGranularity("1m")
            .setWindowStart(T0)
            .setWindowEnd(T0 + 60_000)
            .setCount(2)
            .setSum(3.0)
            .setMin(1.0)
            .setMax(2.0)
            .setFirstTimestamp(T0)
            .setLastTimestamp(T0 + 1)
            .setUtcOffsetMinutes(60)
            .setWindowCount(2)
            .setWindowSum(3.0)
            .setWindowMin(1.0)
            .setWindowMax(2.0)
            .setWindowFirstTimestamp(T0)
            .setWindowLastTimestamp(T0 + 1)
            .setSeq(0)
            .setBuckets(1)
            .setRevision(4)
            .setMeasurements(
                List.of(new MeasurementRecord(T0, 1.0), new MeasurementRecord(T0 + 1, 2.0)))
            .build();
    final ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(1);
    final BinaryEncoder encoder = EncoderFactory.get().directBinaryEncoder(out, null);
    try {
      new SpecificDatumWriter<>(ClosedBucketRecord.class).write(old, encoder);
      encoder.flush();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }

  private static byte[] utf8(final String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
