package io.bucketer.config;

import static io.bucketer.config.SettingValidators.parsedBy;
import static io.bucketer.config.SettingValidators.span;
import static io.bucketer.config.SettingValidators.spanOfAtLeast;

import io.bucketer.buckets.BucketLayout;
import io.bucketer.buckets.BucketLimits;
import io.bucketer.buckets.ExpectedIntervals;
import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.IntegralUnits;
import io.bucketer.buckets.Interpolation;
import io.bucketer.buckets.Retention;
import io.bucketer.buckets.SketchAccuracies;
import io.bucketer.buckets.TimeSpans;
import io.bucketer.buckets.TimeWeightings;
import io.bucketer.buckets.WindowComputations;
import io.bucketer.tenants.TenantLimits;
import io.bucketer.windows.DuplicateTimestamps;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigException;

/**
 * What the windows are and how long they stay open ({@code granularities}, {@code grace}, idle and
 * lateness), what a bucket document holds ({@code bucket.*}), how long it is kept ({@code
 * retention}) and how much heap the open windows may take; and their typed values, read through
 * {@link BucketerConfig#windows()}.
 */
public final class WindowSettings {

  public static final String GRANULARITIES = "granularities";
  public static final String GRACE = "grace";
  public static final String IDLE_TIMEOUT = "idle.timeout";
  public static final String READINGS_HOLD = "readings.hold";
  public static final String LATENESS_HORIZON = "lateness.horizon";
  public static final String DUPLICATE_TIMESTAMPS = "duplicate.timestamps";
  public static final String BUCKET_MAX_MEASUREMENTS = "bucket.max.measurements";
  public static final String BUCKET_MAX_BYTES = "bucket.max.bytes";
  public static final String RETENTION = "retention";
  public static final String BUCKET_MEASUREMENTS_GRANULARITIES =
      "bucket.measurements.granularities";
  public static final String WINDOW_CACHE_MAX_BYTES = "window.cache.max.bytes";
  public static final String MAX_GAP = "max.gap";
  public static final String MAX_GAP_METRICS = "max.gap.metrics";
  public static final String INTERPOLATION = "interpolation";
  public static final String INTERPOLATION_METRICS = "interpolation.metrics";
  public static final String QUANTILES_ENABLED = "quantiles.enabled";
  public static final String QUANTILES_RELATIVE_ACCURACY = "quantiles.relative.accuracy";
  public static final String QUANTILES_RELATIVE_ACCURACY_METRICS =
      "quantiles.relative.accuracy.metrics";
  public static final String INTEGRAL_UNIT_METRICS = "integral.unit.metrics";
  public static final String EXPECTED_INTERVAL = "expected.interval";
  public static final String EXPECTED_INTERVAL_METRICS = "expected.interval.metrics";
  public static final String SERIES_LIMIT_ACTIVE = "series.limit.active";
  public static final String SERIES_LIMIT_NEW_PER_MINUTE = "series.limit.new.per.minute";
  public static final String SERIES_LIMIT_TENANTS = "series.limit.tenants";

  static final ConfigDef DEFINITION =
      new ConfigDef()
          .define(
              GRANULARITIES,
              Type.STRING,
              "1m,1h",
              parsedBy(Granularity::parseList, "comma-separated spans, e.g. 1m,1h"),
              Importance.HIGH,
              "Window sizes, comma-separated (units ms, s, m, h, d). Each size gets a"
                  + " collection; a coarser size is rolled up from a finer one that divides it.")
          .define(
              GRACE,
              Type.STRING,
              "10s",
              span(),
              Importance.HIGH,
              "How long after a window's end (in event time) readings are still accepted;"
                  + " the bucket is written when event time passes end + grace.")
          .define(
              IDLE_TIMEOUT,
              Type.STRING,
              "30s",
              span(),
              Importance.MEDIUM,
              "When a series has sent no reading for this long (wall clock), its windows whose"
                  + " end + grace has passed on the wall clock are closed; later readings for them"
                  + " are too late.")
          .define(
              READINGS_HOLD,
              Type.STRING,
              "5s",
              SettingValidators.spanOfAtMost(60_000),
              Importance.MEDIUM,
              "How long the processor holds readings before it adds them to their windows,"
                  + " then adds each series' readings one after another: at live traffic (a"
                  + " reading of each series a second) the series' state is then fetched from"
                  + " memory once for several readings: at 100,000 live sensors a quarter off"
                  + " the window code's CPU per reading, a tenth off the processor's"
                  + " (docs/benchmarks.md). The cost is latency:"
                  + " windows close, buckets reach MongoDB, open windows show readings in queries"
                  + " and idle.timeout closes quiet series up to this much later. Held readings"
                  + " are logged with each commit, so a crash or a rebalance loses none. 0s adds"
                  + " each reading as it comes.")
          .define(
              LATENESS_HORIZON,
              Type.STRING,
              "24h",
              span(),
              Importance.HIGH,
              "How long after a window closes (in its series' event time) a late reading is"
                  + " still merged in: the window is written again, whole, with a higher revision."
                  + " Later readings go to the dead-letter topic (too-late). Closed windows and"
                  + " their readings stay in the state store this long; 0s turns merging off.")
          .define(
              DUPLICATE_TIMESTAMPS,
              Type.STRING,
              DuplicateTimestamps.KEEP_LAST.label(),
              ConfigDef.ValidString.in(
                  DuplicateTimestamps.KEEP_LAST.label(), DuplicateTimestamps.KEEP_FIRST.label()),
              Importance.MEDIUM,
              "A series and an event time identify a reading. A reading whose series already"
                  + " holds one at its time with the same value is a resend (MQTT QoS 1, a gateway"
                  + " replaying its buffer): it counts once, and a closed window is not written"
                  + " again. With another value: keep-last replaces the earlier value, and a"
                  + " closed window is written again with a higher revision (InfluxDB's rule for a"
                  + " point written twice); keep-first keeps the earlier value and drops the later"
                  + " reading (an insert under a unique index). Either holds within the lateness"
                  + " horizon, across restarts. Counted in bucketer_readings_total"
                  + " (outcome=resent|replaced|kept-first).")
          .define(
              BUCKET_MAX_MEASUREMENTS,
              Type.INT,
              1000,
              ConfigDef.Range.between(1, 100_000),
              Importance.MEDIUM,
              "Most measurements in one bucket document; a fuller window is written as several"
                  + " documents (seq 0, 1, ...), each with its own computed fields and the"
                  + " window's totals.")
          .define(
              BUCKET_MAX_BYTES,
              Type.INT,
              BucketLimits.DEFAULT_MAX_BYTES,
              ConfigDef.Range.between(16_384, 8_388_608),
              Importance.LOW,
              "Approximate largest bucket document in bytes (MongoDB's own buckets stop near"
                  + " 125 KiB); lowers the measurements per document when it binds.")
          .define(
              RETENTION,
              Type.STRING,
              "",
              new RetentionList(),
              Importance.MEDIUM,
              "How long MongoDB keeps each granularity's documents after their window ends,"
                  + " comma-separated, such as 1m=30d,1h=400d; a granularity not named keeps them"
                  + " for ever. Each named one gets a TTL index on end_date (expireAfterSeconds),"
                  + " created at start and changed in place (collMod) when this changes; one no"
                  + " longer named loses it. The query API refuses a range that reaches past what"
                  + " is kept.")
          .define(
              BUCKET_MEASUREMENTS_GRANULARITIES,
              Type.STRING,
              "",
              parsedBy(
                  text -> {
                    if (!text.isBlank()) {
                      Granularity.parseList(text);
                    }
                  },
                  "empty, or comma-separated spans, e.g. 1m,1h"),
              Importance.MEDIUM,
              "Granularities whose documents keep every raw measurement, comma-separated; empty"
                  + " (the default) means the finest only. The documents of the others hold a"
                  + " summary (count, sum, min, max, first, last, spread) of each finer window"
                  + " they are rolled up from: 60 per hour document at any reading rate. A"
                  + " granularity that no finer one divides keeps its measurements, having no"
                  + " finer windows.")
          .define(
              WINDOW_CACHE_MAX_BYTES,
              Type.LONG,
              256L * 1024 * 1024,
              ConfigDef.Range.atLeast(0),
              Importance.MEDIUM,
              "Heap the open windows of all tasks may take as objects, each charged its largest"
                  + " size: 1.1 KiB for a window that holds readings, 320 bytes for one of sums,"
                  + " so 1.4 KiB per series with 1m and 1h windows (the default fits 190,000"
                  + " series). A cached window's change reaches the window log once per commit,"
                  + " however many readings it took, and the window RocksDB once, when it closes."
                  + " Windows that find it spent are written and read back for every reading, as"
                  + " without the cache. Count it in -Xmx.")
          .define(
              SERIES_LIMIT_ACTIVE,
              Type.LONG,
              TenantLimits.DEFAULT.defaults().activeSeries(),
              ConfigDef.Range.atLeast(1),
              Importance.MEDIUM,
              "Series a tenant may hold at once, for the default tenant (sensor ids no"
                  + " series.limit.tenants prefix matches) and every tenant named without limits:"
                  + " a series holds state until it has been silent for lateness.horizon. A"
                  + " reading of a new series past it goes to the dead-letter topic"
                  + " (series-limit), naming the tenant. Shared evenly between the series"
                  + " partitions, each share rounded up, so a tenant near it may be refused a"
                  + " little early. The default is generous, not unbounded: about six times the"
                  + " series the default window cache holds, past which windows are read from and"
                  + " written to RocksDB for every reading.")
          .define(
              SERIES_LIMIT_NEW_PER_MINUTE,
              Type.LONG,
              TenantLimits.DEFAULT.defaults().newSeriesPerMinute(),
              ConfigDef.Range.atLeast(1),
              Importance.LOW,
              "New series a tenant may start a minute, on the wall clock, for the default tenant"
                  + " and every tenant named without limits; a minute's worth may start at once."
                  + " Readings of new series past it are dead-lettered (series-limit). Shared"
                  + " between the series partitions as series.limit.active is. Keep it at least"
                  + " the largest fleet that starts at once: a first run over a backlog starts"
                  + " every series in its first minute.")
          .define(
              SERIES_LIMIT_TENANTS,
              Type.STRING,
              "",
              parsedBy(
                  TenantLimits::parseTenants,
                  "empty, or <prefix>=<active>/<new a minute> pairs, e.g. acme-=50000/5000"),
              Importance.MEDIUM,
              "Tenants with limits of their own, comma-separated <prefix>=<active series>/<new"
                  + " series a minute> pairs, such as acme-=50000/5000,globex-=200000/20000. A"
                  + " sensor id belongs to the tenant of the longest prefix it starts with; the"
                  + " rest share the default tenant's limits (series.limit.active and"
                  + " series.limit.new.per.minute), named * in meters and dead letters.")
          .define(
              MAX_GAP,
              Type.STRING,
              TimeSpans.format(TimeWeightings.DEFAULT_MAX_GAP.toMillis()),
              spanOfAtLeast(1),
              Importance.MEDIUM,
              "Longest time a reading stands for in a window's time-weighted average, integral"
                  + " and coverage: its value holds until the next reading, or for this long at"
                  + " most; a longer silence is a gap, uncovered time. The finest windows of a"
                  + " series are kept this long past lateness.horizon, for the reading a window"
                  + " starts from.")
          .define(
              MAX_GAP_METRICS,
              Type.STRING,
              "",
              parsedBy(
                  TimeWeightings::parseMaxGaps,
                  "empty, or <metric>=<span> pairs, e.g. door=1d,power=15m"),
              Importance.LOW,
              "The max.gap of named metrics, comma-separated <metric>=<span> pairs, such as"
                  + " door=1d,power=15m; a metric not named has max.gap.")
          .define(
              INTERPOLATION,
              Type.STRING,
              Interpolation.STEP.label(),
              ConfigDef.ValidString.in(Interpolation.STEP.label(), Interpolation.LINEAR.label()),
              Importance.MEDIUM,
              "How a window's time-weighted average and integral fill the time between two"
                  + " readings: step holds each reading's value until the next one (a gauge,"
                  + " a state); linear draws a straight line to the next reading within max.gap"
                  + " (a flow, a temperature sampled now and then). A reading covers the same"
                  + " time either way. With linear, a reading that opens a window revises the"
                  + " window before it if that one was already emitted: a series whose readings"
                  + " are further apart than idle.timeout, and within max.gap, has each window"
                  + " written twice, as the wall clock closes it before its next reading.")
          .define(
              INTERPOLATION_METRICS,
              Type.STRING,
              "",
              parsedBy(
                  TimeWeightings::parseInterpolations,
                  "empty, or <metric>=<interpolation> pairs, e.g. flow=linear"),
              Importance.LOW,
              "The interpolation of named metrics, comma-separated <metric>=<interpolation>"
                  + " pairs, such as flow=linear; a metric not named has interpolation.")
          .define(
              INTEGRAL_UNIT_METRICS,
              Type.STRING,
              "",
              parsedBy(IntegralUnits::parse, "empty, or <metric>=hours pairs, e.g. power=hours"),
              Importance.LOW,
              "Metrics whose integral the query API gives in value·hours, comma-separated"
                  + " <metric>=hours pairs, such as power=hours (kW integrate to kWh); a metric"
                  + " not named has value·seconds, the unit documents always store.")
          .define(
              EXPECTED_INTERVAL,
              Type.STRING,
              "",
              parsedBy(ExpectedIntervals::parseDefault, "empty, a span such as 5s, or learned"),
              Importance.LOW,
              "How often a series is expected to send: a span such as 5s, or learned (each"
                  + " window's median time between its readings, so an hour of 12 readings sent 5 s"
                  + " apart expects 720). Each window then says how many readings it should have"
                  + " had, and the query API answers the readings expected in any range and the"
                  + " fraction received. Empty (the default): nothing is expected.")
          .define(
              EXPECTED_INTERVAL_METRICS,
              Type.STRING,
              "",
              parsedBy(
                  ExpectedIntervals::parseMetrics,
                  "empty, or <metric>=<span> or <metric>=learned pairs, e.g. temperature=5s"),
              Importance.LOW,
              "The expected.interval of named metrics, comma-separated pairs, such as"
                  + " temperature=5s,door=learned; a metric not named has expected.interval.")
          .define(
              QUANTILES_ENABLED,
              Type.BOOLEAN,
              true,
              Importance.MEDIUM,
              "Whether each window and summary keeps a quantile sketch of its values (DDSketch),"
                  + " from which the query API answers p50, p95 or any quantile of any range."
                  + " It adds tens to hundreds of bytes to a document, more for a signal spread"
                  + " over orders of magnitude (docs/quantiles.md).")
          .define(
              QUANTILES_RELATIVE_ACCURACY,
              Type.DOUBLE,
              SketchAccuracies.DEFAULT_RELATIVE_ACCURACY,
              parsedBy(
                  text -> SketchAccuracies.checkAccuracy(Double.parseDouble(text)),
                  "a number in (0, 0.5] in whole millionths, e.g. 0.01"),
              Importance.LOW,
              "How close a quantile is to the exact one: within this fraction of its value."
                  + " Finer costs bins: about ln(max/min)/(2·accuracy) for values of one sign."
                  + " Sketches of different accuracies do not merge: a range across a change"
                  + " answers no quantiles.")
          .define(
              QUANTILES_RELATIVE_ACCURACY_METRICS,
              Type.STRING,
              "",
              parsedBy(
                  SketchAccuracies::parseAccuracies,
                  "empty, or <metric>=<accuracy> pairs, e.g. pressure=0.0001"),
              Importance.LOW,
              "The quantiles.relative.accuracy of named metrics, comma-separated"
                  + " <metric>=<accuracy> pairs, such as pressure=0.0001 (a signal on a large"
                  + " offset); a metric not named has quantiles.relative.accuracy.");

  private final AbstractConfig values;

  WindowSettings(final AbstractConfig values) {
    this.values = values;
  }

  public List<Granularity> granularities() {
    return Granularity.parseList(values.getString(GRANULARITIES));
  }

  public Duration grace() {
    return TimeSpans.parse(values.getString(GRACE));
  }

  public Duration idleTimeout() {
    return TimeSpans.parse(values.getString(IDLE_TIMEOUT));
  }

  public Duration readingsHold() {
    return TimeSpans.parse(values.getString(READINGS_HOLD));
  }

  public Duration latenessHorizon() {
    return TimeSpans.parse(values.getString(LATENESS_HORIZON));
  }

  public DuplicateTimestamps duplicateTimestamps() {
    return DuplicateTimestamps.parse(values.getString(DUPLICATE_TIMESTAMPS));
  }

  /** Measurements per bucket document under both caps. */
  public int measurementsPerBucket() {
    return BucketLimits.measurementsPerBucket(
        values.getInt(BUCKET_MAX_MEASUREMENTS), values.getInt(BUCKET_MAX_BYTES));
  }

  /**
   * What the documents of each granularity hold, and how many entries one may.
   *
   * @throws ConfigException when a granularity named to keep measurements is not configured
   */
  public BucketLayout bucketLayout() {
    final String named = values.getString(BUCKET_MEASUREMENTS_GRANULARITIES);
    final Set<Granularity> keep = new HashSet<>();
    if (!named.isBlank()) {
      final List<Granularity> configured = granularities();
      for (final Granularity granularity : Granularity.parseList(named)) {
        final Granularity same =
            configured.stream()
                .filter(g -> g.sizeMillis() == granularity.sizeMillis())
                .findFirst()
                .orElseThrow(
                    () ->
                        new ConfigException(
                            BUCKET_MEASUREMENTS_GRANULARITIES,
                            named,
                            granularity + " is not one of the granularities " + configured));
        keep.add(same);
      }
    }
    return new BucketLayout(
        measurementsPerBucket(),
        BucketLimits.summariesPerBucket(values.getInt(BUCKET_MAX_BYTES)),
        keep);
  }

  /**
   * How long each granularity's documents are kept.
   *
   * @throws ConfigException when it names a granularity that is not configured
   */
  public Retention retention() {
    try {
      return Retention.parse(values.getString(RETENTION), granularities());
    } catch (IllegalArgumentException e) {
      throw new ConfigException(RETENTION, values.getString(RETENTION), e.getMessage());
    }
  }

  /** Each tenant's series limits. */
  public TenantLimits seriesLimits() {
    return new TenantLimits(
        new TenantLimits.Limits(
            values.getLong(SERIES_LIMIT_ACTIVE), values.getLong(SERIES_LIMIT_NEW_PER_MINUTE)),
        TenantLimits.parseTenants(values.getString(SERIES_LIMIT_TENANTS)));
  }

  public long windowCacheMaxBytes() {
    return values.getLong(WINDOW_CACHE_MAX_BYTES);
  }

  /**
   * Each series' max gap and interpolation. Any max gap can be kept: the finest windows holding the
   * reading a window carries in are kept that long past the horizon ({@code WindowExpiry}).
   */
  public TimeWeightings timeWeightings() {
    return TimeWeightings.of(
        TimeSpans.parse(values.getString(MAX_GAP)),
        TimeWeightings.parseMaxGaps(values.getString(MAX_GAP_METRICS)),
        Interpolation.ofLabel(values.getString(INTERPOLATION)),
        TimeWeightings.parseInterpolations(values.getString(INTERPOLATION_METRICS)));
  }

  /** Each series' quantile sketch accuracy, or none when quantiles are off. */
  public SketchAccuracies sketchAccuracies() {
    return new SketchAccuracies(
        values.getBoolean(QUANTILES_ENABLED),
        values.getDouble(QUANTILES_RELATIVE_ACCURACY),
        SketchAccuracies.parseAccuracies(values.getString(QUANTILES_RELATIVE_ACCURACY_METRICS)));
  }

  /** How often each series is expected to send, where configured. */
  public ExpectedIntervals expectedIntervals() {
    return new ExpectedIntervals(
        ExpectedIntervals.parseDefault(values.getString(EXPECTED_INTERVAL)),
        ExpectedIntervals.parseMetrics(values.getString(EXPECTED_INTERVAL_METRICS)));
  }

  /**
   * What every window computes per series beyond its counts: {@link #timeWeightings()}, {@link
   * #sketchAccuracies()} and {@link #expectedIntervals()}, as the processor computes documents and
   * the query API reads them.
   */
  public WindowComputations computations() {
    return new WindowComputations(timeWeightings(), sketchAccuracies(), expectedIntervals());
  }

  /** The unit of each metric's integral in the query API. */
  public IntegralUnits integralUnits() {
    return IntegralUnits.parse(values.getString(INTEGRAL_UNIT_METRICS));
  }

  private static final class RetentionList implements ConfigDef.Validator {
    @Override
    public void ensureValid(final String name, final Object value) {
      final String text = String.valueOf(value);
      try {
        // The granularities are checked against the configured ones by retention(): here, the form.
        final List<Granularity> named = new ArrayList<>();
        for (final String part : text.split(",")) {
          if (part.contains("=")) {
            named.add(Granularity.parse(part.split("=", 2)[0].trim()));
          }
        }
        Retention.parse(text, named);
      } catch (IllegalArgumentException | ArithmeticException e) {
        throw new ConfigException(name, value, e.getMessage());
      }
    }

    @Override
    public String toString() {
      return "empty, or <granularity>=<span> pairs, e.g. 1m=30d,1h=400d";
    }
  }
}
