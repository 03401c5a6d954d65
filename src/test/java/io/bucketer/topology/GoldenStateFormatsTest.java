package io.bucketer.topology;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.bucketer.avro.Reading;
import io.bucketer.buckets.BucketStats;
import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.Measurement;
import io.bucketer.buckets.SeriesKey;
import io.bucketer.buckets.WindowQuality;
import io.bucketer.ingest.sparkplug.SparkplugBirth;
import io.bucketer.testing.GoldenFiles;
import io.bucketer.windows.ReadingRun;
import io.bucketer.windows.WindowState;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.kafka.common.utils.ByteUtils;
import org.apache.kafka.common.utils.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Golden files of the topology's formats ({@link GoldenFiles}): the state stores' values and keys
 * (windows, sealed runs, series clocks, Sparkplug births) and the repartition topics' records
 * (batches of readings by series, Sparkplug envelopes), which a new version reads from an old one
 * during a rolling upgrade; and the too-late reading that bucketer writes as a dead letter. Today's
 * encoders must write the current files byte for byte; every file, the older formats' included,
 * must decode to the values written out here. The values are chosen to exercise each layout's
 * branches (a UTC offset and none, readings packed as decimals and as raw doubles, a shift that is
 * and is not the first value), not computed from readings.
 *
 * <p>Missing golden files are written, once, by {@link #shouldWriteTheGoldenFilesThatAreMissing}
 * with {@code -Dbucketer.golden.write=true}; the normal build writes none.
 */
class GoldenStateFormatsTest {

  /** 2023-11-14T22:14:00Z. */
  private static final long T0 = 1_700_000_040_000L;

  private static final SeriesKey SERIES = new SeriesKey("sensor-1", "temperature");

  private static final Granularity MINUTE = Granularity.parse("1m");

  /** No metric, a slash and a letter beyond ASCII: the series key's strings are length-prefixed. */
  private static final SeriesKey SERIES_WITHOUT_METRIC = new SeriesKey("gw-7/vanne-é", null);

  /**
   * An open minute, UTC+1, two runs sealed off and three readings (two decimals) in its tail; two
   * resends collapsed.
   */
  private static final WindowState OPEN_MINUTE =
      new WindowState(
          new BucketStats(
              131,
              2_815.25,
              20.5,
              22.75,
              new Measurement(T0, 21.25),
              new Measurement(T0 + 59_500, 22.0),
              21.25,
              0.240_458_015_267_175_6,
              12.5,
              60),
          false,
          0,
          2,
          ReadingRun.of(
              new long[] {T0 + 58_500, T0 + 59_000, T0 + 59_500}, new double[] {21.5, 21.75, 22.0}),
          new WindowQuality(2, 0));

  /**
   * A closed minute at revision 2, no offset, readings that only raw doubles hold; one resend and
   * 200 late readings (a varlong of two bytes).
   */
  private static final WindowState CLOSED_MINUTE =
      new WindowState(
          new BucketStats(
              3,
              0.30000000000000004,
              -0.0,
              0.30000000000000004,
              new Measurement(T0 + 1_000, 0.30000000000000004),
              new Measurement(T0 + 3_000, 1e-300),
              0.25,
              -0.15,
              0.06,
              null),
          true,
          2,
          0,
          ReadingRun.of(
              new long[] {T0 + 1_000, T0 + 2_000, T0 + 3_000},
              new double[] {0.30000000000000004, -0.0, 1e-300}),
          new WindowQuality(1, 200));

  /** An open hour of sums only, UTC-5. */
  private static final WindowState OPEN_HOUR =
      new WindowState(
          new BucketStats(
              3_600,
              77_000.5,
              19.0,
              23.5,
              new Measurement(T0 - 840_000, 21.0),
              new Measurement(T0 + 2_759_000, 20.0),
              21.0,
              0.388_75,
              1_234.5,
              -300),
          false,
          0,
          0,
          ReadingRun.EMPTY,
          WindowQuality.NONE);

  private static final ReadingRun SEALED_RUN =
      ReadingRun.of(
          new long[] {T0, T0 + 1_000, T0 + 2_000, T0 + 3_000},
          new double[] {21.37, 21.4, 21.41, 21.39});

  private static final SparkplugBirth BIRTH =
      new SparkplugBirth(
          1_700_000_000_123L,
          List.of(
              new SparkplugBirth.Metric("Temperature", 1L, 9),
              new SparkplugBirth.Metric("Node Control/Rebirth", null, 11)));

  private static final SparkplugEnvelope ENVELOPE =
      new SparkplugEnvelope(
          "spBv1.0/plant/DDATA/edge-1/pump-3",
          null,
          new byte[] {8, 1, 18, 3},
          "iot.sparkplug",
          3,
          42L);

  /** Today's encodings: each must equal its golden file. */
  private static Map<String, byte[]> current() {
    final Map<String, byte[]> files = new LinkedHashMap<>();
    files.put("window-state-v4-open-minute.bin", WindowStateCodec.encode(OPEN_MINUTE));
    files.put("window-state-v4-closed-minute.bin", WindowStateCodec.encode(CLOSED_MINUTE));
    files.put("window-state-v4-open-hour.bin", WindowStateCodec.encode(OPEN_HOUR));
    files.put("sealed-run-v3.bin", WindowStateCodec.encodeRun(SEALED_RUN));
    files.put("window-store-key.bin", StoreKeys.of(SERIES, T0).get());
    files.put("sealed-run-store-key.bin", StoreKeys.of(SERIES, T0, 1).get());
    files.put("series-key.bin", SeriesKeySerde.toBytes(SERIES));
    files.put("series-key-without-metric.bin", SeriesKeySerde.toBytes(SERIES_WITHOUT_METRIC));
    files.put("series-clock-v1.bin", SeriesClockSerde.encode(T0 + 61_000));
    files.put("window-log-entry-v2.bin", windowLogEntry());
    files.put(
        "window-log-entry-key.bin",
        WindowLogKeys.entry(new WindowLogKeys.Group(MINUTE, T0), 42, 1).get());
    files.put("reading-batch-v4.bin", ReadingBatchSerde.encode(batch()));
    files.put("partition-batch-v5.bin", PartitionBatchSerde.encode(partitionBatch()));
    files.put(
        "partition-batch-v5-written.bin",
        new PartitionBatchSerde().serializer().serialize("", writtenPartitionBatch()));
    files.put(
        "sparkplug-birth-v1.json", new SparkplugBirthSerde().serializer().serialize("", BIRTH));
    files.put(
        "sparkplug-envelope-v1.bin",
        new SparkplugEnvelopeSerde().serializer().serialize("", ENVELOPE));
    files.put(
        "dead-letter-too-late-reading.json",
        UnplacedReadings.toJson(
            new Reading("sensor-1", Instant.ofEpochMilli(T0 + 500), 21.5, "temperature", 60)));
    return files;
  }

  /** Formats no longer written, built as their builds wrote them. */
  private static Map<String, byte[]> older() {
    final Map<String, byte[]> files = new LinkedHashMap<>();
    files.put("window-state-v1.bin", windowStateFormatOne());
    files.put("window-state-v2.bin", windowStateFormatTwo());
    files.put("window-state-v3-open-minute.bin", formatThree(OPEN_MINUTE));
    files.put("window-state-v3-closed-minute.bin", formatThree(CLOSED_MINUTE));
    files.put("window-state-v3-open-hour.bin", formatThree(OPEN_HOUR));
    files.put("sealed-run-unversioned.bin", sealedRunWithoutFormat());
    files.put("series-clock-unversioned.bin", ByteBuffer.allocate(8).putLong(T0 + 61_000).array());
    files.put("window-log-entry-v1.bin", windowLogEntryFormatOne());
    files.put("reading-v1-avro.bin", readingFormatOne());
    files.put("reading-v2.bin", readingFormatTwo());
    files.put("reading-v3.bin", readingFormatThree());
    files.put(
        "sparkplug-birth-unversioned.json",
        utf8(
            "{\"timestamp\":1700000000123,\"metrics\":["
                + "{\"name\":\"Temperature\",\"alias\":1,\"datatype\":9},"
                + "{\"name\":\"Node Control/Rebirth\",\"alias\":null,\"datatype\":11}]}"));
    return files;
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
  void shouldReadTheGoldenWindowStatesOfFormatFour() {
    assertSameState(
        WindowStateCodec.decode(GoldenFiles.read("window-state-v4-open-minute.bin")), OPEN_MINUTE);
    assertSameState(
        WindowStateCodec.decode(GoldenFiles.read("window-state-v4-closed-minute.bin")),
        CLOSED_MINUTE);
    assertSameState(
        WindowStateCodec.decode(GoldenFiles.read("window-state-v4-open-hour.bin")), OPEN_HOUR);
  }

  /** Format 3 kept no quality: its windows are read as having collapsed and taken nothing late. */
  @Test
  void shouldReadTheGoldenWindowStatesOfFormatThree() {
    assertSameState(
        WindowStateCodec.decode(GoldenFiles.read("window-state-v3-open-minute.bin")),
        withoutQuality(OPEN_MINUTE));
    assertSameState(
        WindowStateCodec.decode(GoldenFiles.read("window-state-v3-closed-minute.bin")),
        withoutQuality(CLOSED_MINUTE));
    assertSameState(
        WindowStateCodec.decode(GoldenFiles.read("window-state-v3-open-hour.bin")), OPEN_HOUR);
  }

  /** Format 4 without flag 8 is format 3's layout: a window without quality costs no byte more. */
  @Test
  void shouldWriteAWindowWithoutQualityInFormatThreesLayout() {
    for (final String name : List.of("open-minute", "closed-minute", "open-hour")) {
      final byte[] three = GoldenFiles.read("window-state-v3-" + name + ".bin");
      final byte[] four = WindowStateCodec.encode(withoutQuality(WindowStateCodec.decode(three)));

      assertThat(four[0]).as(name).isEqualTo((byte) 4);
      assertThat(Arrays.copyOfRange(four, 1, four.length))
          .as(name)
          .isEqualTo(Arrays.copyOfRange(three, 1, three.length));
    }
  }

  private static WindowState withoutQuality(final WindowState state) {
    return new WindowState(
        state.stats(),
        state.closed(),
        state.revision(),
        state.sealedRuns(),
        state.tail(),
        WindowQuality.NONE);
  }

  /**
   * Format 3 as its build wrote it: format 4's layout without flag 8 and its two counts, under
   * version byte 3.
   */
  private static byte[] formatThree(final WindowState state) {
    final byte[] bytes = WindowStateCodec.encode(withoutQuality(state));
    bytes[0] = 3;
    return bytes;
  }

  @Test
  void shouldReadTheGoldenWindowStatesOfTheFixedWidthFormats() {
    final WindowState one = WindowStateCodec.decode(GoldenFiles.read("window-state-v1.bin"));
    assertSameState(
        one,
        new WindowState(
            new BucketStats(
                1,
                4.5,
                4.5,
                4.5,
                new Measurement(1_000, Double.NaN),
                new Measurement(1_000, Double.NaN),
                0,
                4.5,
                Double.NaN,
                null),
            true,
            2,
            0,
            ReadingRun.of(new long[] {1_000}, new double[] {4.5}),
            WindowQuality.NONE));

    final WindowState two = WindowStateCodec.decode(GoldenFiles.read("window-state-v2.bin"));
    assertSameState(
        two,
        new WindowState(
            new BucketStats(
                2,
                9,
                4,
                5,
                new Measurement(1_000, 4),
                new Measurement(2_000, 5),
                4,
                0.5,
                0.5,
                -300),
            false,
            0,
            0,
            ReadingRun.of(new long[] {1_000, 2_000}, new double[] {4, 5}),
            WindowQuality.NONE));
  }

  @Test
  void shouldReadTheGoldenSealedRunsOfBothFormats() {
    assertThat(WindowStateCodec.decodeRun(GoldenFiles.read("sealed-run-v3.bin")).measurements())
        .containsExactly(
            new Measurement(T0, 21.37),
            new Measurement(T0 + 1_000, 21.4),
            new Measurement(T0 + 2_000, 21.41),
            new Measurement(T0 + 3_000, 21.39));
    assertThat(
            WindowStateCodec.decodeRun(GoldenFiles.read("sealed-run-unversioned.bin"))
                .measurements())
        .containsExactly(new Measurement(3_000, -1.5));
  }

  /**
   * A window log entry of each kind of change: a window whole, readings appended (UTC+1, closing
   * it), a window deleted, a run sealed and a run deleted.
   */
  private static byte[] windowLogEntry() {
    final byte[] series = SeriesKeySerde.toBytes(SERIES);
    final byte[] other = SeriesKeySerde.toBytes(SERIES_WITHOUT_METRIC);
    final WindowLogCodec.Writer entry = new WindowLogCodec.Writer(T0);
    entry.add(new WindowChange.Whole(series, OPEN_MINUTE));
    entry.add(
        new WindowChange.Appended(
            other, true, 60, new long[] {T0 + 59_000, T0 + 59_999}, new double[] {21.5, -0.0}));
    entry.add(new WindowChange.Deleted(other));
    entry.add(new WindowChange.RunSealed(series, 2, SEALED_RUN));
    entry.add(new WindowChange.RunDeleted(other, 0));
    return entry.toBytes();
  }

  /**
   * Format 1, written by the window log's first build, kept appended readings unpacked; the rest of
   * its layout is format 2's, which this writes with the same changes.
   */
  private static byte[] windowLogEntryFormatOne() {
    final byte[] series = SeriesKeySerde.toBytes(SERIES);
    final byte[] other = SeriesKeySerde.toBytes(SERIES_WITHOUT_METRIC);
    final byte[] state = WindowStateCodec.encode(OPEN_MINUTE);
    final byte[] run = WindowStateCodec.encodeRun(SEALED_RUN);
    final ByteBuffer entry = ByteBuffer.allocate(1024);
    entry.put((byte) 1);
    ByteUtils.writeVarint(5, entry);
    entry.put((byte) 1).put(series);
    ByteUtils.writeVarint(state.length, entry);
    entry.put(state);
    entry.put((byte) 2).put(other).put((byte) 3);
    ByteUtils.writeVarint(60, entry);
    ByteUtils.writeVarint(2, entry);
    ByteUtils.writeVarlong(59_000, entry);
    entry.putDouble(21.5);
    ByteUtils.writeVarlong(999, entry);
    entry.putDouble(-0.0);
    entry.put((byte) 3).put(other);
    entry.put((byte) 4).put(series);
    ByteUtils.writeVarint(2, entry);
    ByteUtils.writeVarint(run.length, entry);
    entry.put(run);
    entry.put((byte) 5).put(other);
    ByteUtils.writeVarint(0, entry);
    return Arrays.copyOf(entry.array(), entry.position());
  }

  @Test
  void shouldReadTheGoldenWindowLogEntriesOfBothFormats() {
    for (final String name : List.of("window-log-entry-v2.bin", "window-log-entry-v1.bin")) {
      final List<WindowChange> changes = WindowLogCodec.decode(GoldenFiles.read(name), T0);

      assertThat(changes).as(name).hasSize(5);
      final WindowChange.Whole whole = (WindowChange.Whole) changes.get(0);
      assertThat(SeriesKeySerde.read(ByteBuffer.wrap(whole.series()))).isEqualTo(SERIES);
      assertSameState(whole.state(), OPEN_MINUTE);
      final WindowChange.Appended appended = (WindowChange.Appended) changes.get(1);
      assertThat(SeriesKeySerde.read(ByteBuffer.wrap(appended.series())))
          .isEqualTo(SERIES_WITHOUT_METRIC);
      assertThat(appended.closes()).isTrue();
      assertThat(appended.utcOffsetMinutes()).isEqualTo(60);
      assertThat(appended.timestamps()).containsExactly(T0 + 59_000, T0 + 59_999);
      assertThat(appended.values()).containsExactly(21.5, -0.0);
      assertThat(changes.get(2)).isInstanceOf(WindowChange.Deleted.class);
      final WindowChange.RunSealed sealed = (WindowChange.RunSealed) changes.get(3);
      assertThat(sealed.number()).isEqualTo(2);
      assertThat(sealed.run().measurements()).isEqualTo(SEALED_RUN.measurements());
      assertThat(((WindowChange.RunDeleted) changes.get(4)).number()).isZero();
    }
  }

  @Test
  void shouldReadTheGoldenWindowLogEntryKey() {
    final Bytes key = Bytes.wrap(GoldenFiles.read("window-log-entry-key.bin"));
    assertThat(WindowLogKeys.sizeOf(key)).isEqualTo(MINUTE.sizeMillis());
    assertThat(WindowLogKeys.startOf(key)).isEqualTo(T0);
    assertThat(WindowLogKeys.sequenceOf(key)).isEqualTo(42);
  }

  @Test
  void shouldReadTheGoldenStoreKeys() {
    final Bytes windowKey = Bytes.wrap(GoldenFiles.read("window-store-key.bin"));
    assertThat(StoreKeys.seriesOf(windowKey)).isEqualTo(SERIES);
    assertThat(StoreKeys.timeOf(windowKey)).isEqualTo(T0);

    final Bytes runKey = Bytes.wrap(GoldenFiles.read("sealed-run-store-key.bin"));
    assertThat(StoreKeys.seriesOf(runKey)).isEqualTo(SERIES);
    assertThat(StoreKeys.timeOfSuffixed(runKey)).isEqualTo(T0);
    assertThat(StoreKeys.suffixOf(runKey)).isEqualTo(1);
  }

  @Test
  void shouldReadTheGoldenSeriesKeysOfTheRepartitionTopicAndTheStores() {
    final SeriesKeySerde serde = new SeriesKeySerde();

    assertThat(serde.deserializer().deserialize("", GoldenFiles.read("series-key.bin")))
        .isEqualTo(SERIES);
    assertThat(
            serde.deserializer().deserialize("", GoldenFiles.read("series-key-without-metric.bin")))
        .isEqualTo(SERIES_WITHOUT_METRIC);
  }

  @Test
  void shouldReadTheGoldenSeriesClocksOfBothFormats() {
    final SeriesClockSerde serde = new SeriesClockSerde();

    assertThat(serde.deserializer().deserialize("", GoldenFiles.read("series-clock-v1.bin")))
        .isEqualTo(T0 + 61_000);
    assertThat(
            serde.deserializer().deserialize("", GoldenFiles.read("series-clock-unversioned.bin")))
        .isEqualTo(T0 + 61_000);
  }

  @Test
  void shouldReadTheGoldenBatchOfReadingsOnTheRepartitionTopic() {
    final ReadingBatch decoded =
        new ReadingBatchSerde()
            .deserializer()
            .deserialize("", GoldenFiles.read("reading-batch-v4.bin"));

    assertThat(decoded.size()).isEqualTo(3);
    assertReading(decoded, 0, T0, 21.5, 60);
    assertReading(decoded, 1, T0 + 1_000, -3.25, null);
    assertReading(decoded, 2, T0 + 2_000, 1e9 + 0.001, -300);
  }

  @Test
  void shouldReadTheGoldenBatchOfSeveralSeriesOnTheRepartitionTopic() {
    final PartitionBatch decoded = goldenBatch("partition-batch-v5.bin");
    final List<SeriesKey> series = new ArrayList<>();
    final List<ReadingBatch> readings = new ArrayList<>();
    decoded.forEach((key, batch) -> series.add(key));
    decoded.forEach((key, batch) -> readings.add(batch));

    assertThat(decoded.partition()).isEqualTo(7);
    assertThat(series).containsExactly(SERIES, SERIES_WITHOUT_METRIC);
    assertThat(readings.get(0).size()).isEqualTo(3);
    assertReading(readings.get(0), 0, T0, 21.5, 60);
    assertReading(readings.get(0), 1, T0 + 1_000, -3.25, null);
    assertReading(readings.get(0), 2, T0 + 2_000, 1e9 + 0.001, -300);
    assertThat(readings.get(1).size()).isEqualTo(1);
    assertReading(readings.get(1), 0, T0 + 500, 7.0, null);
  }

  /**
   * A batch written as its readings came: a series may come in several parts, each kept in its
   * place (a reader that kept one part per series would lose readings).
   */
  @Test
  void shouldReadTheGoldenBatchWrittenAsItsReadingsCameEveryPartInPlace() {
    final PartitionBatch decoded = goldenBatch("partition-batch-v5-written.bin");
    final List<SeriesKey> series = new ArrayList<>();
    final List<ReadingBatch> readings = new ArrayList<>();
    decoded.forEach((key, batch) -> series.add(key));
    decoded.forEach((key, batch) -> readings.add(batch));

    assertThat(decoded.partition()).isEqualTo(7);
    assertThat(decoded.readings()).isEqualTo(3);
    assertThat(series).containsExactly(SERIES, SERIES_WITHOUT_METRIC, SERIES);
    assertThat(readings).allSatisfy(part -> assertThat(part.size()).isEqualTo(1));
    assertReading(readings.get(0), 0, T0, 21.5, 60);
    assertReading(readings.get(1), 0, T0 + 500, 7.0, null);
    assertReading(readings.get(2), 0, T0 + 1_000, -3.25, null);
  }

  /** Records of one reading each, which builds before batches left on the repartition topic. */
  @Test
  void shouldReadTheGoldenSingleReadingsOfEarlierRepartitionFormats() {
    for (final String name : List.of("reading-v1-avro.bin", "reading-v2.bin", "reading-v3.bin")) {
      final ReadingBatch decoded =
          new ReadingBatchSerde().deserializer().deserialize("", GoldenFiles.read(name));

      assertThat(decoded.size()).as(name).isEqualTo(1);
      assertReading(decoded, 0, T0, 21.5, 60);
    }
  }

  @Test
  void shouldReadTheGoldenSparkplugBirthsOfBothLayouts() {
    final SparkplugBirthSerde serde = new SparkplugBirthSerde();

    assertThat(serde.deserializer().deserialize("", GoldenFiles.read("sparkplug-birth-v1.json")))
        .isEqualTo(BIRTH);
    assertThat(
            serde
                .deserializer()
                .deserialize("", GoldenFiles.read("sparkplug-birth-unversioned.json")))
        .isEqualTo(BIRTH);
  }

  @Test
  void shouldReadTheGoldenSparkplugEnvelope() {
    final SparkplugEnvelope decoded =
        new SparkplugEnvelopeSerde()
            .deserializer()
            .deserialize("", GoldenFiles.read("sparkplug-envelope-v1.bin"));

    assertThat(decoded.mqttTopic()).isEqualTo("spBv1.0/plant/DDATA/edge-1/pump-3");
    assertThat(decoded.originalKey()).isNull();
    assertThat(decoded.originalValue()).containsExactly(8, 1, 18, 3);
    assertThat(decoded.sourceTopic()).isEqualTo("iot.sparkplug");
    assertThat(decoded.sourcePartition()).isEqualTo(3);
    assertThat(decoded.sourceOffset()).isEqualTo(42L);
  }

  @Test
  void shouldKeepTheGoldenTooLateReadingOfTheDeadLetterTopic() throws IOException {
    final JsonNode reading =
        new ObjectMapper().readTree(GoldenFiles.read("dead-letter-too-late-reading.json"));

    assertThat(reading.get("sensor_id").asText()).isEqualTo("sensor-1");
    assertThat(reading.get("metric").asText()).isEqualTo("temperature");
    assertThat(reading.get("timestamp").asText()).isEqualTo("2023-11-14T22:14:00.500Z");
    assertThat(reading.get("value").asDouble()).isEqualTo(21.5);
    assertThat(reading.get("utc_offset_minutes").asInt()).isEqualTo(60);
    assertThat(reading.size()).isEqualTo(5);
  }

  @Test
  @EnabledIfSystemProperty(named = GoldenFiles.WRITE_PROPERTY, matches = "true")
  void shouldWriteTheGoldenFilesThatAreMissing() {
    GoldenFiles.writeMissing(current());
    GoldenFiles.writeMissing(older());
  }

  /** WindowState compares its tail by identity: compare each part. */
  private static void assertSameState(final WindowState actual, final WindowState expected) {
    assertThat(actual.stats()).isEqualTo(expected.stats());
    assertThat(actual.closed()).isEqualTo(expected.closed());
    assertThat(actual.revision()).isEqualTo(expected.revision());
    assertThat(actual.sealedRuns()).isEqualTo(expected.sealedRuns());
    assertThat(actual.tail().measurements()).isEqualTo(expected.tail().measurements());
    assertThat(actual.quality()).isEqualTo(expected.quality());
  }

  private static void assertReading(
      final ReadingBatch batch,
      final int index,
      final long timestamp,
      final double value,
      final Integer utcOffsetMinutes) {
    assertThat(batch.timestamp(index)).isEqualTo(timestamp);
    assertThat(batch.value(index)).isEqualTo(value);
    assertThat(batch.utcOffsetMinutes(index)).isEqualTo(utcOffsetMinutes);
  }

  /** A batch of format 5: three readings of one series, one of another, for partition 7. */
  private static PartitionBatch partitionBatch() {
    final PartitionBatch batch = new PartitionBatch(7, 8, 2);
    batch.put(SERIES, batch());
    batch.add(batch.startSeries(SERIES_WITHOUT_METRIC), T0 + 500, 7.0, null);
    return batch;
  }

  private static PartitionBatch goldenBatch(final String name) {
    return new PartitionBatchSerde().deserializer().deserialize("", GoldenFiles.read(name));
  }

  /** A batch of format 5 written as its readings came: a series, another, the first again. */
  private static PartitionBatch writtenPartitionBatch() {
    final PartitionBatchWriter writer = new PartitionBatchWriter(7, 8, 0);
    final byte[] series = SeriesKeySerde.toBytes(SERIES);
    writer.add(SERIES, series, T0, 21.5, 60);
    writer.add(
        SERIES_WITHOUT_METRIC, SeriesKeySerde.toBytes(SERIES_WITHOUT_METRIC), T0 + 500, 7.0, null);
    writer.add(SERIES, series, T0 + 1_000, -3.25, null);
    return writer.finish();
  }

  private static ReadingBatch batch() {
    final ReadingBatch batch = new ReadingBatch(3);
    batch.add(T0, 21.5, 60);
    batch.add(T0 + 1_000, -3.25, null);
    batch.add(T0 + 2_000, 1e9 + 0.001, -300);
    return batch;
  }

  /** Format 1: fixed width, without the first and last values and the spread. */
  private static byte[] windowStateFormatOne() {
    final ByteBuffer old = ByteBuffer.allocate(1 + 8 * 6 + 1 + 4 + 1 + 4 + 4 + 4 + 16);
    old.put((byte) 1);
    old.putLong(1).putDouble(4.5).putDouble(4.5).putDouble(4.5).putLong(1_000).putLong(1_000);
    old.put((byte) 0).putInt(0);
    old.put((byte) 1).putInt(2).putInt(0);
    old.putInt(1).putLong(1_000).putDouble(4.5);
    return old.array();
  }

  /** Format 2: fixed width, with them. */
  private static byte[] windowStateFormatTwo() {
    final ByteBuffer old = ByteBuffer.allocate(1 + 8 * 11 + 1 + 4 + 1 + 4 + 4 + 4 + 32);
    old.put((byte) 2);
    old.putLong(2).putDouble(9).putDouble(4).putDouble(5);
    old.putLong(1_000).putDouble(4).putLong(2_000).putDouble(5);
    old.putDouble(4).putDouble(0.5).putDouble(0.5);
    old.put((byte) 1).putInt(-300);
    old.put((byte) 0).putInt(0).putInt(0);
    old.putInt(2).putLong(1_000).putDouble(4).putLong(2_000).putDouble(5);
    return old.array();
  }

  /** A run sealed before format 3: its size and fixed-width readings, no format byte. */
  private static byte[] sealedRunWithoutFormat() {
    return ByteBuffer.allocate(4 + 16).putInt(1).putLong(3_000).putDouble(-1.5).array();
  }

  /** Format 1 of a repartitioned reading: a format byte and the Avro binary of a Reading. */
  private static byte[] readingFormatOne() {
    final ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(1);
    final BinaryEncoder encoder = EncoderFactory.get().directBinaryEncoder(out, null);
    try {
      new SpecificDatumWriter<>(Reading.class)
          .write(
              new Reading("sensor-1", Instant.ofEpochMilli(T0), 21.5, "temperature", 60), encoder);
      encoder.flush();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }

  /** Format 2: fixed width with the series in the value (flags: 1 a metric, 2 an offset). */
  private static byte[] readingFormatTwo() {
    final byte[] sensor = utf8("sensor-1");
    final byte[] metric = utf8("temperature");
    return ByteBuffer.allocate(1 + 8 + 8 + 1 + 4 + sensor.length + 4 + metric.length + 4)
        .put((byte) 2)
        .putLong(T0)
        .putDouble(21.5)
        .put((byte) 3)
        .putInt(sensor.length)
        .put(sensor)
        .putInt(metric.length)
        .put(metric)
        .putInt(60)
        .array();
  }

  /** Format 3: one reading without its series, which the record's key carries. */
  private static byte[] readingFormatThree() {
    return ByteBuffer.allocate(1 + 8 + 8 + 1 + 4)
        .put((byte) 3)
        .putLong(T0)
        .putDouble(21.5)
        .put((byte) 2)
        .putInt(60)
        .array();
  }

  private static byte[] utf8(final String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
