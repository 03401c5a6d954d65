package io.bucketer.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bucketer.buckets.ExpectedIntervals;
import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.IntegralUnits;
import io.bucketer.buckets.Interpolation;
import io.bucketer.buckets.Retention;
import io.bucketer.buckets.SeriesKey;
import io.bucketer.buckets.SketchAccuracies;
import io.bucketer.buckets.TimeWeighting;
import io.bucketer.buckets.TimeWeightings;
import io.bucketer.buckets.WindowComputations;
import io.bucketer.ingest.FieldPath;
import io.bucketer.ingest.InputFormat;
import io.bucketer.ingest.ReadingMapping;
import io.bucketer.ingest.SensorIdSource;
import io.bucketer.ingest.senml.SenmlEncoding;
import io.bucketer.ingest.senml.SenmlMetric;
import io.bucketer.ingest.senml.SenmlOptions;
import io.bucketer.ingest.sparkplug.SparkplugSettings;
import io.bucketer.ingest.sparkplug.SparkplugTopicSource;
import io.bucketer.windows.DuplicateTimestamps;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BucketerConfigTest {

  private static Map<String, Object> required() {
    final Map<String, Object> settings = new HashMap<>();
    settings.put("bootstrap.servers", "broker-1:9092,broker-2:9092");
    settings.put("schema.registry.url", "http://registry:8081");
    settings.put("mongodb.uri", "mongodb://user:s3cret@mongo:27017/?tls=true");
    return settings;
  }

  @Test
  void shouldApplyDocumentedDefaults() {
    final BucketerConfig config = new BucketerConfig(required());

    assertThat(config.granularities()).extracting(g -> g.label()).containsExactly("1m", "1h");
    assertThat(config.grace()).isEqualTo(Duration.ofSeconds(10));
    assertThat(config.inputTopic()).isEqualTo("iot.readings");
    assertThat(config.seriesPartitions()).isEqualTo(6);
    assertThat(config.kafkaProperties())
        .containsEntry("bootstrap.servers", "broker-1:9092,broker-2:9092");
  }

  @Test
  void shouldKeepTheLastValueOfAReadingSentTwiceUnlessToldToKeepTheFirst() {
    final Map<String, Object> keepFirst = required();
    keepFirst.put(WindowSettings.DUPLICATE_TIMESTAMPS, "keep-first");
    final Map<String, Object> unknown = required();
    unknown.put(WindowSettings.DUPLICATE_TIMESTAMPS, "keep-both");

    assertThat(new BucketerConfig(required()).duplicateTimestamps())
        .isEqualTo(DuplicateTimestamps.KEEP_LAST);
    assertThat(new BucketerConfig(keepFirst).duplicateTimestamps())
        .isEqualTo(DuplicateTimestamps.KEEP_FIRST);
    assertThatThrownBy(() -> new BucketerConfig(unknown))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining(WindowSettings.DUPLICATE_TIMESTAMPS);
  }

  @Test
  void shouldReadSparkplugInputsTopicSourceAndBooleansAndNeedNoRegistry() {
    final Map<String, Object> byKey = required();
    byKey.remove("schema.registry.url");
    byKey.put(InputSettings.FORMAT, "sparkplug-b");
    final Map<String, Object> byHeader = new HashMap<>(byKey);
    byHeader.put(InputSettings.SPARKPLUG_TOPIC_FROM, "header:mqtt_topic");
    byHeader.put(InputSettings.SPARKPLUG_BOOLEANS, "true");

    assertThat(new BucketerConfig(byKey).inputFormat()).isEqualTo(InputFormat.SPARKPLUG_B);
    assertThat(new BucketerConfig(byKey).input().sparkplug())
        .isEqualTo(new SparkplugSettings(new SparkplugTopicSource.Key(), false));
    assertThat(new BucketerConfig(byHeader).input().sparkplug())
        .isEqualTo(new SparkplugSettings(new SparkplugTopicSource.Header("mqtt_topic"), true));
  }

  @Test
  void shouldRefuseATopicSourceThatIsNeitherKeyNorAHeaderAndSparkplugInputKeyedBySensor() {
    final Map<String, Object> noHeaderName = required();
    noHeaderName.put(InputSettings.FORMAT, "sparkplug-b");
    noHeaderName.put(InputSettings.SPARKPLUG_TOPIC_FROM, "header:");
    final Map<String, Object> value = new HashMap<>(noHeaderName);
    value.put(InputSettings.SPARKPLUG_TOPIC_FROM, "value");
    final Map<String, Object> bySensor = required();
    bySensor.put(InputSettings.FORMAT, "sparkplug-b");
    bySensor.put(KafkaSettings.INPUT_PARTITIONING, "by-sensor");

    assertThatThrownBy(() -> new BucketerConfig(noHeaderName))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining(InputSettings.SPARKPLUG_TOPIC_FROM);
    assertThatThrownBy(() -> new BucketerConfig(value))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining(InputSettings.SPARKPLUG_TOPIC_FROM);
    assertThatThrownBy(() -> new BucketerConfig(bySensor))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining(KafkaSettings.INPUT_PARTITIONING)
        .hasMessageContaining("sparkplug-b");
  }

  @Test
  void shouldPassKafkaSettingsThroughWithoutThePrefix() {
    final Map<String, Object> settings = required();
    settings.put("kafka.security.protocol", "SASL_SSL");
    settings.put("kafka.num.stream.threads", "2");

    assertThat(new BucketerConfig(settings).kafkaProperties())
        .containsEntry("security.protocol", "SASL_SSL")
        .containsEntry("num.stream.threads", "2")
        .doesNotContainKey("kafka.security.protocol");
  }

  @Test
  void shouldNameTheSettingThatIsWrong() {
    final Map<String, Object> unknownGranularity = required();
    unknownGranularity.put("granularities", "1m,1w");
    final Map<String, Object> negativeGrace = required();
    negativeGrace.put("grace", "-5s");
    final Map<String, Object> badUri = required();
    badUri.put("mongodb.uri", "postgres://user:s3cret@db");
    final Map<String, Object> missing = required();
    missing.remove("schema.registry.url");

    assertThatThrownBy(() -> new BucketerConfig(unknownGranularity))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("granularities");
    assertThatThrownBy(() -> new BucketerConfig(negativeGrace)).hasMessageContaining("grace");
    assertThatThrownBy(() -> new BucketerConfig(badUri))
        .hasMessageContaining("mongodb.uri")
        .hasMessageNotContaining("s3cret");
    assertThatThrownBy(() -> new BucketerConfig(missing))
        .hasMessageContaining("schema.registry.url");
  }

  @Test
  void shouldNeedNoRegistryForJsonInput() {
    final Map<String, Object> json = required();
    json.remove("schema.registry.url");
    json.put("input.format", "json");

    assertThat(new BucketerConfig(json).inputFormat()).isEqualTo(InputFormat.JSON);
  }

  @Test
  void shouldReadSenmlInputWithoutARegistryAndCheckItsSettings() {
    final Map<String, Object> senml = required();
    senml.remove("schema.registry.url");
    senml.put("input.format", "senml");
    senml.put("input.senml.encoding", "cbor");
    senml.put("input.senml.metric", "power");
    final Map<String, Object> blankMetric = required();
    blankMetric.put("input.senml.metric", " ");
    final Map<String, Object> unknownEncoding = required();
    unknownEncoding.put("input.senml.encoding", "xml");

    final BucketerConfig config = new BucketerConfig(senml);

    assertThat(config.inputFormat()).isEqualTo(InputFormat.SENML);
    assertThat(config.input().senml().encoding()).isEqualTo(SenmlEncoding.CBOR);
    assertThat(config.input().senml().metric()).isEqualTo(SenmlMetric.parse("power"));
    assertThat(new BucketerConfig(required()).input().senml()).isEqualTo(SenmlOptions.DEFAULT);
    assertThatThrownBy(() -> new BucketerConfig(blankMetric))
        .hasMessageContaining("input.senml.metric");
    assertThatThrownBy(() -> new BucketerConfig(unknownEncoding))
        .hasMessageContaining("input.senml.encoding");
  }

  @Test
  void shouldReadTheBucketLayoutAndRetentionAndNameAGranularityThatIsNotConfigured() {
    final BucketerConfig defaults = new BucketerConfig(required());
    final Map<String, Object> set = required();
    set.put("bucket.measurements.granularities", "1h");
    set.put("retention", "1m=30d,1h=400d");
    final Map<String, Object> unconfigured = required();
    unconfigured.put("retention", "1m=30d,1d=500d");
    final Map<String, Object> malformed = required();
    malformed.put("retention", "1m:30d");
    final Map<String, Object> keepUnconfigured = required();
    keepUnconfigured.put("bucket.measurements.granularities", "5m");

    assertThat(defaults.bucketLayout().keepMeasurements()).isEmpty();
    assertThat(defaults.retention()).isEqualTo(Retention.NONE);
    final BucketerConfig config = new BucketerConfig(set);
    assertThat(config.bucketLayout().keepMeasurements())
        .extracting(g -> g.label())
        .containsExactly("1h");
    assertThat(config.retention().of(Granularity.parse("1h"))).contains(Duration.ofDays(400));
    assertThatThrownBy(() -> new BucketerConfig(unconfigured).retention())
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("retention");
    assertThatThrownBy(() -> new BucketerConfig(malformed))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("retention")
        .hasMessageContaining("<granularity>=<span>");
    assertThatThrownBy(() -> new BucketerConfig(keepUnconfigured).bucketLayout())
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("5m is not one of the granularities");
  }

  @Test
  void shouldReadEachMetricsMaxGapWhateverTheLatenessHorizon() {
    final Map<String, Object> set = required();
    set.put("max.gap", "2m");
    set.put("max.gap.metrics", "door=23h,power=15m");
    final Map<String, Object> noMerging = required();
    noMerging.put("lateness.horizon", "0s");
    noMerging.put("max.gap.metrics", "power=1h");
    final Map<String, Object> malformed = required();
    malformed.put("max.gap.metrics", "door:1d");

    final TimeWeightings defaults = new BucketerConfig(required()).windows().timeWeightings();
    final TimeWeightings weightings = new BucketerConfig(set).windows().timeWeightings();

    assertThat(defaults.of(new SeriesKey("s", "door"))).isEqualTo(new TimeWeighting(300_000));
    assertThat(weightings.of(new SeriesKey("s", "door"))).isEqualTo(new TimeWeighting(82_800_000));
    assertThat(weightings.of(new SeriesKey("s", "power"))).isEqualTo(new TimeWeighting(900_000));
    assertThat(weightings.of(new SeriesKey("s", "flow"))).isEqualTo(new TimeWeighting(120_000));
    assertThat(weightings.of(new SeriesKey("s", null))).isEqualTo(new TimeWeighting(120_000));
    // late merging off: the finest windows are kept for the max gap alone
    assertThat(
            new BucketerConfig(noMerging)
                .windows()
                .timeWeightings()
                .of(new SeriesKey("s", "power")))
        .isEqualTo(new TimeWeighting(3_600_000));
    assertThatThrownBy(() -> new BucketerConfig(malformed))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("max.gap.metrics")
        .hasMessageContaining("<metric>=<span>");
  }

  @Test
  void shouldReadEachMetricsInterpolationWithItsOwnMaxGap() {
    final Map<String, Object> set = required();
    set.put("max.gap", "2m");
    set.put("max.gap.metrics", "door=23h,flow=15m");
    set.put("interpolation.metrics", "flow=linear,pressure=linear");
    final Map<String, Object> allLinear = required();
    allLinear.put("interpolation", "linear");
    allLinear.put("interpolation.metrics", "door=step");
    final Map<String, Object> unknown = required();
    unknown.put("interpolation", "spline");
    final Map<String, Object> unknownForAMetric = required();
    unknownForAMetric.put("interpolation.metrics", "flow=cubic");

    final TimeWeightings weightings = new BucketerConfig(set).windows().timeWeightings();
    final TimeWeightings linear = new BucketerConfig(allLinear).windows().timeWeightings();

    assertThat(
            new BucketerConfig(required()).windows().timeWeightings().of(new SeriesKey("s", "x")))
        .isEqualTo(new TimeWeighting(300_000, Interpolation.STEP));
    assertThat(weightings.of(new SeriesKey("s", "flow")))
        .isEqualTo(new TimeWeighting(900_000, Interpolation.LINEAR));
    assertThat(weightings.of(new SeriesKey("s", "pressure")))
        .isEqualTo(new TimeWeighting(120_000, Interpolation.LINEAR));
    assertThat(weightings.of(new SeriesKey("s", "door")))
        .isEqualTo(new TimeWeighting(82_800_000, Interpolation.STEP));
    assertThat(linear.of(new SeriesKey("s", "flow")))
        .isEqualTo(new TimeWeighting(300_000, Interpolation.LINEAR));
    assertThat(linear.of(new SeriesKey("s", "door")))
        .isEqualTo(new TimeWeighting(300_000, Interpolation.STEP));
    assertThatThrownBy(() -> new BucketerConfig(unknown))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("interpolation")
        .hasMessageContaining("spline");
    assertThatThrownBy(() -> new BucketerConfig(unknownForAMetric))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("interpolation.metrics")
        .hasMessageContaining("step or linear");
  }

  @Test
  void shouldReadEachMetricsExpectedIntervalAndExpectNothingByDefault() {
    final Map<String, Object> set = required();
    set.put("expected.interval", "10s");
    set.put("expected.interval.metrics", "temperature=5s,meter=15m");
    final Map<String, Object> onlyNamed = required();
    onlyNamed.put("expected.interval.metrics", "meter=15m");
    final Map<String, Object> zero = required();
    zero.put("expected.interval", "0s");
    final Map<String, Object> malformed = required();
    malformed.put("expected.interval.metrics", "meter:15m");
    final Map<String, Object> learned = required();
    learned.put("expected.interval", "learned");
    learned.put("expected.interval.metrics", "meter=15m,door=learned");
    final Map<String, Object> learnedForAMetric = required();
    learnedForAMetric.put("expected.interval.metrics", "door=learned");

    final ExpectedIntervals intervals = new BucketerConfig(set).windows().expectedIntervals();
    final ExpectedIntervals named = new BucketerConfig(onlyNamed).windows().expectedIntervals();

    assertThat(new BucketerConfig(required()).windows().expectedIntervals())
        .isEqualTo(ExpectedIntervals.NONE);
    assertThat(intervals.of(new SeriesKey("s", "temperature"))).hasValue(5_000);
    assertThat(intervals.of(new SeriesKey("s", "meter"))).hasValue(900_000);
    assertThat(intervals.of(new SeriesKey("s", "flow"))).hasValue(10_000);
    assertThat(intervals.of(new SeriesKey("s", null))).hasValue(10_000);
    assertThat(intervals.expected(new SeriesKey("s", "temperature"), 0, 60_000)).hasValue(12.0);
    assertThat(intervals.expected(new SeriesKey("s", "meter"), 0, 3_600_000)).hasValue(4.0);
    assertThat(named.of(new SeriesKey("s", "flow"))).isEmpty();
    assertThat(named.expected(new SeriesKey("s", "flow"), 0, 60_000)).isEmpty();
    final ExpectedIntervals learning = new BucketerConfig(learned).windows().expectedIntervals();
    final ExpectedIntervals learningDoors =
        new BucketerConfig(learnedForAMetric).windows().expectedIntervals();
    assertThat(learning.learns(new SeriesKey("s", "flow"))).isTrue();
    assertThat(learning.of(new SeriesKey("s", "flow"))).isEmpty();
    assertThat(learning.learns(new SeriesKey("s", "door"))).isTrue();
    assertThat(learning.learns(new SeriesKey("s", "meter"))).isFalse();
    assertThat(learning.of(new SeriesKey("s", "meter"))).hasValue(900_000);
    assertThat(learningDoors.learns(new SeriesKey("s", "door"))).isTrue();
    assertThat(learningDoors.learns(new SeriesKey("s", "flow"))).isFalse();
    assertThat(intervals.learns(new SeriesKey("s", "flow"))).isFalse();
    assertThatThrownBy(() -> new BucketerConfig(zero))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("expected.interval")
        .hasMessageContaining("positive");
    assertThatThrownBy(() -> new BucketerConfig(malformed))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("expected.interval.metrics")
        .hasMessageContaining("<metric>=<span>");
  }

  @Test
  void shouldReadEachMetricsSketchAccuracyAndRefuseOnesASketchCannotHave() {
    final Map<String, Object> set = required();
    set.put("quantiles.relative.accuracy", "0.02");
    set.put("quantiles.relative.accuracy.metrics", "pressure=0.0001");
    final Map<String, Object> off = required();
    off.put("quantiles.enabled", "false");
    final Map<String, Object> tooCoarse = required();
    tooCoarse.put("quantiles.relative.accuracy", "0.7");
    final Map<String, Object> tooFine = required();
    tooFine.put("quantiles.relative.accuracy.metrics", "pressure=0.0000001");

    final SketchAccuracies defaults = new BucketerConfig(required()).windows().sketchAccuracies();
    final SketchAccuracies accuracies = new BucketerConfig(set).windows().sketchAccuracies();

    assertThat(defaults).isEqualTo(SketchAccuracies.DEFAULT);
    assertThat(accuracies.of(new SeriesKey("s", "pressure"))).hasValue(0.0001);
    assertThat(accuracies.of(new SeriesKey("s", "power"))).hasValue(0.02);
    assertThat(accuracies.of(new SeriesKey("s", null))).hasValue(0.02);
    assertThat(new BucketerConfig(off).windows().sketchAccuracies().of(new SeriesKey("s", "power")))
        .isEmpty();
    assertThatThrownBy(() -> new BucketerConfig(tooCoarse))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("quantiles.relative.accuracy")
        .hasMessageContaining("0.7");
    assertThatThrownBy(() -> new BucketerConfig(tooFine))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("quantiles.relative.accuracy.metrics")
        .hasMessageContaining("whole millionths");
  }

  @Test
  void shouldGiveTheWindowsComputationsAsTheirThreeSettingsSayThem() {
    final Map<String, Object> set = required();
    set.put("max.gap.metrics", "door=23h");
    set.put("quantiles.relative.accuracy.metrics", "pressure=0.0001");
    set.put("expected.interval.metrics", "temperature=5s");

    final WindowComputations computations = new BucketerConfig(set).windows().computations();

    assertThat(computations.timeWeightings().of(new SeriesKey("s", "door")))
        .isEqualTo(new TimeWeighting(82_800_000));
    assertThat(computations.sketchAccuracies().of(new SeriesKey("s", "pressure"))).hasValue(0.0001);
    assertThat(computations.expectedIntervals().of(new SeriesKey("s", "temperature")))
        .hasValue(5_000);
    assertThat(new BucketerConfig(required()).windows().computations().expectedIntervals())
        .isEqualTo(ExpectedIntervals.NONE);
  }

  @Test
  void shouldReadWhichMetricsIntegrateToHours() {
    final Map<String, Object> set = required();
    set.put("integral.unit.metrics", "power=hours, energy=hours");
    final Map<String, Object> seconds = required();
    seconds.put("integral.unit.metrics", "power=seconds");
    final Map<String, Object> twice = required();
    twice.put("integral.unit.metrics", "power=hours,power=hours");

    final IntegralUnits units = new BucketerConfig(set).windows().integralUnits();

    assertThat(
            new BucketerConfig(required())
                .windows()
                .integralUnits()
                .of(new SeriesKey("s", "power")))
        .isEqualTo(IntegralUnits.Unit.SECONDS);
    assertThat(units.of(new SeriesKey("s", "power"))).isEqualTo(IntegralUnits.Unit.HOURS);
    assertThat(units.of(new SeriesKey("s", "energy"))).isEqualTo(IntegralUnits.Unit.HOURS);
    assertThat(units.of(new SeriesKey("s", "flow"))).isEqualTo(IntegralUnits.Unit.SECONDS);
    assertThat(units.of(new SeriesKey("s", null))).isEqualTo(IntegralUnits.Unit.SECONDS);
    assertThatThrownBy(() -> new BucketerConfig(seconds))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("integral.unit.metrics")
        .hasMessageContaining("<metric>=hours");
    assertThatThrownBy(() -> new BucketerConfig(twice))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("power is given twice");
  }

  @Test
  void shouldReadTheBadInputSettingsWithTheirDefaults() {
    final BucketerConfig defaults = new BucketerConfig(required());
    final Map<String, Object> settings = required();
    settings.put("timestamp.floor", "2020-03-01T00:00:00Z");
    settings.put("max.future.skew", "5m");
    settings.put("max.reading.bytes", "1024");
    settings.put("schema.registry.retry.timeout", "2s");
    final BucketerConfig set = new BucketerConfig(settings);

    assertThat(defaults.timestampFloor()).isEqualTo(Instant.parse("2000-01-01T00:00:00Z"));
    assertThat(defaults.maxFutureSkew()).isEqualTo(Duration.ofHours(1));
    assertThat(defaults.maxReadingBytes()).isEqualTo(65_536);
    assertThat(defaults.schemaRegistryRetryTimeout()).isEqualTo(Duration.ofSeconds(30));
    assertThat(set.timestampFloor()).isEqualTo(Instant.parse("2020-03-01T00:00:00Z"));
    assertThat(set.maxFutureSkew()).isEqualTo(Duration.ofMinutes(5));
    assertThat(set.maxReadingBytes()).isEqualTo(1024);
    assertThat(set.schemaRegistryRetryTimeout()).isEqualTo(Duration.ofSeconds(2));
  }

  @Test
  void shouldNameABadInputSettingThatIsWrong() {
    assertThatThrownBy(() -> new BucketerConfig(with("timestamp.floor", "2000-01-01")))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("timestamp.floor");
    assertThatThrownBy(() -> new BucketerConfig(with("max.future.skew", "1 hour")))
        .hasMessageContaining("max.future.skew");
    assertThatThrownBy(() -> new BucketerConfig(with("max.reading.bytes", "10")))
        .hasMessageContaining("max.reading.bytes");
    // The retry budget's backoff starts at 100 ms: a shorter budget could not retry at all.
    assertThatThrownBy(() -> new BucketerConfig(with("schema.registry.retry.timeout", "500ms")))
        .hasMessageContaining("schema.registry.retry.timeout")
        .hasMessageContaining("at least 1s");
  }

  @Test
  void shouldReadTheInstanceIdWhenSetAndRefuseOneKafkaWouldNotTake() {
    assertThat(new BucketerConfig(required()).instanceId()).isEmpty();
    assertThat(new BucketerConfig(with("instance.id", "bucketer-0")).instanceId())
        .contains("bucketer-0");
    assertThatThrownBy(() -> new BucketerConfig(with("instance.id", "pod 0")))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("instance.id");
  }

  private static Map<String, Object> with(final String name, final String value) {
    final Map<String, Object> settings = required();
    settings.put(name, value);
    return settings;
  }

  @Test
  void shouldNeverPrintTheMongoDbPassword() {
    final BucketerConfig config = new BucketerConfig(required());
    assertThat(config.values().toString()).doesNotContain("s3cret");
    assertThat(config.mongoUri()).contains("s3cret");
  }

  @Test
  void shouldLetFlagsOverrideEnvironmentOverrideFile(@TempDir final Path dir) throws Exception {
    final Path file = dir.resolve("bucketer.properties");
    Files.writeString(file, "grace=1s\nidle.timeout=1m\ninput.topic=from-file\n");
    final Map<String, String> merged =
        ConfigSources.merge(
            file,
            Map.of("BUCKETER_IDLE_TIMEOUT", "2m", "BUCKETER_GRACE", "2s", "PATH", "/bin"),
            Map.of("grace", "3s"));

    assertThat(merged)
        .containsEntry("grace", "3s")
        .containsEntry("idle.timeout", "2m")
        .containsEntry("input.topic", "from-file")
        .doesNotContainKey("path");
  }

  @Test
  void shouldReadTodaysReadingSchemaInAvroByDefault() {
    final BucketerConfig defaults = new BucketerConfig(required());

    assertThat(defaults.inputFormat()).isEqualTo(InputFormat.AVRO);
    assertThat(defaults.readingMapping()).isEqualTo(ReadingMapping.DEFAULT);
  }

  @Test
  void shouldMapAGatewaysFieldsWithoutAMetricField() {
    final Map<String, Object> gateway = required();
    gateway.put("input.format", "json");
    gateway.put("input.sensor.id.field", "meta.deviceId");
    gateway.put("input.time.field", "ts");
    gateway.put("input.metric.field", "");
    gateway.put("input.utc.offset.field", "");
    gateway.put("input.value.fields", "temperature, humidity,battery");

    final BucketerConfig config = new BucketerConfig(gateway);

    assertThat(config.inputFormat()).isEqualTo(InputFormat.JSON);
    assertThat(config.readingMapping())
        .isEqualTo(
            new ReadingMapping(
                FieldPath.parse("meta.deviceId"),
                FieldPath.parse("ts"),
                Optional.empty(),
                Optional.empty(),
                List.of(
                    FieldPath.parse("temperature"),
                    FieldPath.parse("humidity"),
                    FieldPath.parse("battery"))));
  }

  @Test
  void shouldTakeTheSensorIdFromOutsideThePayloadAndEveryNumericFieldAsAValue() {
    final Map<String, Object> bridge = required();
    bridge.put("input.format", "json");
    bridge.put("input.sensor.id.from", "header:mqtt_topic");
    bridge.put("input.sensor.id.prefix", "plant/");
    bridge.put("input.metric.field", "");
    bridge.put("input.value.fields", "*");

    final ReadingMapping mapping = new BucketerConfig(bridge).readingMapping();

    assertThat(mapping.sensorIdSource())
        .isEqualTo(SensorIdSource.parse("header:mqtt_topic", "plant/"));
    assertThat(mapping.allNumericValues()).isTrue();
    assertThat(mapping.values()).isEmpty();
  }

  @Test
  void shouldRefuseAFieldMappingForFormatsThatNameTheirOwnSensorsAndMetrics() {
    for (final String format : List.of("senml", "sparkplug-b")) {
      for (final String mapping : List.of("input.value.fields", "input.sensor.id.from")) {
        final Map<String, Object> settings = required();
        settings.put("input.format", format);
        settings.put(mapping, mapping.endsWith("from") ? "key" : "*");

        assertThatThrownBy(() -> new BucketerConfig(settings))
            .isInstanceOf(ConfigException.class)
            .hasMessageContaining(mapping)
            .hasMessageContaining("unused with input.format=" + format);
      }
    }
  }

  @Test
  void shouldRefuseAPrefixWithBySensorInputAndEveryNumericFieldWithAMetricField() {
    final Map<String, Object> prefixBySensor = required();
    prefixBySensor.put("input.sensor.id.from", "key");
    prefixBySensor.put("input.sensor.id.prefix", "dev/");
    prefixBySensor.put("input.partitioning", "by-sensor");
    final Map<String, Object> allWithMetric = required();
    allWithMetric.put("input.value.fields", "*");
    final Map<String, Object> prefixInPayload = required();
    prefixInPayload.put("input.sensor.id.prefix", "dev/");
    final Map<String, Object> badSource = required();
    badSource.put("input.sensor.id.from", "topic");

    assertThatThrownBy(() -> new BucketerConfig(prefixBySensor))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("input.sensor.id.prefix")
        .hasMessageContaining("no prefix can be stripped");
    assertThatThrownBy(() -> new BucketerConfig(allWithMetric))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("no metric field (metric): set it empty");
    assertThatThrownBy(() -> new BucketerConfig(prefixInPayload))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining(
            "a prefix is stripped only from an id taken from the key or a header");
    assertThatThrownBy(() -> new BucketerConfig(badSource))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("input.sensor.id.from")
        .hasMessageContaining("expected field, key or header:<name>");
  }

  @Test
  void shouldRefuseSeveralValueFieldsWithAMetricFieldAndNameBothSettings() {
    final Map<String, Object> ambiguous = required();
    ambiguous.put("input.value.fields", "temperature,humidity");
    final Map<String, Object> emptyPath = required();
    emptyPath.put("input.sensor.id.field", "meta..id");
    final Map<String, Object> noValues = required();
    noValues.put("input.value.fields", "");
    final Map<String, Object> unknownFormat = required();
    unknownFormat.put("input.format", "xml");

    assertThatThrownBy(() -> new BucketerConfig(ambiguous))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("input.value.fields")
        .hasMessageContaining("input.metric.field=metric")
        .hasMessageContaining("exactly one value field");
    assertThatThrownBy(() -> new BucketerConfig(emptyPath))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("input.sensor.id.field");
    assertThatThrownBy(() -> new BucketerConfig(noValues))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("input.value.fields");
    assertThatThrownBy(() -> new BucketerConfig(unknownFormat))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("input.format");
  }

  @Test
  void shouldComposeEachConcernsSettingsOnceEachInTheirOrder() {
    final List<String> concerns =
        Stream.of(
                KafkaSettings.DEFINITION,
                InputSettings.DEFINITION,
                WindowSettings.DEFINITION,
                MongoSettings.DEFINITION,
                HttpSettings.DEFINITION,
                RescaleSettings.DEFINITION)
            .flatMap(definition -> definition.configKeys().keySet().stream())
            .toList();

    assertThat(BucketerConfig.DEFINITION.configKeys().keySet()).containsExactlyElementsOf(concerns);
    assertThat(HttpSettings.DEFINITION.names())
        .allMatch(name -> name.startsWith("http.") || name.startsWith("query."));
  }

  /** The README's one configuration is meant to be copied: every name in it must be a setting. */
  @Test
  void shouldNameOnlyKnownSettingsInTheReadmeConfiguration() throws Exception {
    final String readme = Files.readString(Path.of("README.md"));
    final int start = readme.indexOf("```properties\n");
    assertThat(start).as("README has a properties block").isPositive();
    final String block = readme.substring(start, readme.indexOf("\n```", start + 1));
    final List<String> names =
        block
            .lines()
            .skip(1)
            .filter(line -> !line.isBlank() && !line.startsWith("#"))
            .map(line -> line.substring(0, line.indexOf('=')))
            .toList();
    assertThat(names).hasSizeGreaterThan(10);
    for (final String name : names) {
      assertThat(
              BucketerConfig.DEFINITION.names().contains(name)
                  || name.startsWith("kafka.")
                      && KafkaClientNames.isKnown(name.substring("kafka.".length())))
          .as("README's configuration names a setting bucketer knows: %s", name)
          .isTrue();
    }
  }

  @Test
  void shouldDocumentEverySettingInTheConfigurationPage() throws Exception {
    final String readme = Files.readString(Path.of("docs/configuration.md"));
    assertThat(readme)
        .as(
            "docs/configuration.md's configuration reference; regenerate it with `bucketer config-reference`")
        .contains(ConfigReference.markdownRows());
    for (final String name : BucketerConfig.DEFINITION.names()) {
      assertThat(readme).as("docs/configuration.md documents %s", name).contains("`" + name + "`");
    }
  }
}
