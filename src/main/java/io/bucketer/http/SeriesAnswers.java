package io.bucketer.http;

import io.bucketer.buckets.Measurement;
import io.bucketer.buckets.SeriesKey;
import io.bucketer.buckets.TimeWeighted;
import io.bucketer.buckets.WindowQuality;
import io.bucketer.query.ChartPoint;
import io.bucketer.query.Quantiles;
import io.bucketer.query.ReadingQuality;
import io.bucketer.query.SeriesQueries.Points;
import io.bucketer.query.SeriesQueries.RangeSketch;
import io.bucketer.query.SeriesQueries.Statistics;
import io.bucketer.query.SeriesQueries.TimeWeight;
import io.bucketer.query.WindowTotals;
import io.bucketer.sketch.ValueSketch;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The query API's answers as JSON bodies, field by field in the order the README documents them:
 * what {@link SeriesApi} returns once it has the series' statistics or windows.
 */
final class SeriesAnswers {

  private SeriesAnswers() {}

  /** {@code GET .../statistics}: the range's computed fields; null ones for an empty range. */
  static Map<String, Object> statistics(
      final SeriesKey series,
      final Instant from,
      final Instant to,
      final Quantiles quantiles,
      final Statistics found) {
    final Map<String, Object> body = header(series, from, to);
    final boolean empty = found.count() == 0;
    body.put("count", found.count());
    body.put("sum", empty ? null : found.sum());
    body.put("avg", empty ? null : found.average());
    body.put("min", empty ? null : found.min());
    body.put("max", empty ? null : found.max());
    body.put("stddev", known(found.standardDeviation()));
    body.put("first", found.first().map(SeriesAnswers::reading).orElse(null));
    body.put("last", found.last().map(SeriesAnswers::reading).orElse(null));
    timeWeight(body, found.timeWeight());
    quantiles(body, quantiles, found.sketch());
    quality(body, found.quality());
    body.put("documents_read", found.documentsRead());
    body.put("state_windows_read", found.stateWindowsRead());
    return body;
  }

  /**
   * The range's time-weighted fields, exact; all null, and {@code time_weighted_complete} false
   * with the reason in {@code time_weighted_missing}, when a window read lacks its part.
   */
  private static void timeWeight(final Map<String, Object> body, final TimeWeight found) {
    final TimeWeighted part = found.part();
    body.put("twa", part == null ? null : known(found.twa()));
    if (part == null) {
      body.put("integral", null);
    } else {
      final Map<String, Object> integral = new LinkedHashMap<>();
      integral.put("value", found.integral());
      integral.put("unit", found.integralUnit().label());
      body.put("integral", integral);
    }
    body.put("covered_ms", part == null ? null : part.coveredMillis());
    body.put("coverage", part == null ? null : found.coverage());
    body.put("gaps", part == null ? null : part.gaps());
    body.put("longest_gap_ms", part == null ? null : part.longestGapMillis());
    body.put("max_gap_ms", found.weighting().maxGapMillis());
    body.put("interpolation", found.weighting().interpolation().label());
    body.put("time_weighted_complete", part != null);
    body.put("time_weighted_missing", found.missing());
  }

  /**
   * The range's quantiles by name ({@code p95}), each null for an empty range; {@code quantiles}
   * null with the reason in {@code quantiles_missing} when a window read lacks its sketch.
   */
  private static void quantiles(
      final Map<String, Object> body, final Quantiles asked, final RangeSketch found) {
    body.put("quantiles", found.sketch() == null ? null : asked.of(found.sketch()));
    body.put(
        "quantile_relative_accuracy",
        found.relativeAccuracy().isPresent() ? found.relativeAccuracy().getAsDouble() : null);
    body.put("quantiles_missing", found.missing());
  }

  /**
   * How the readings arrived: {@code resends} and {@code late_readings} of the windows read (null
   * when a window read does not know them), the configured {@code expected_interval_ms} and, for a
   * metric that learns its interval, the {@code learned_interval_ms} of the windows read (each null
   * otherwise), and, where either is known, the readings {@code expected} and the {@code
   * completeness} (null otherwise).
   */
  private static void quality(final Map<String, Object> body, final ReadingQuality found) {
    final WindowQuality counts = found.counts();
    body.put("resends", counts == null ? null : counts.resends());
    body.put("late_readings", counts == null ? null : counts.lateReadings());
    body.put(
        "expected_interval_ms",
        found.expectedIntervalMillis().isPresent()
            ? found.expectedIntervalMillis().getAsLong()
            : null);
    body.put(
        "learned_interval_ms",
        found.learnedIntervalMillis().isPresent()
            ? found.learnedIntervalMillis().getAsLong()
            : null);
    body.put("expected", found.expected().isPresent() ? found.expected().getAsDouble() : null);
    body.put(
        "completeness",
        found.completeness().isPresent() ? found.completeness().getAsDouble() : null);
  }

  /**
   * {@code GET .../buckets}: the points over the range, open ones marked, filled ones saying by
   * which rule; {@code granularity} is the points' width, {@code resolution} what was read for
   * them.
   */
  static Map<String, Object> points(
      final SeriesKey series,
      final Instant from,
      final Instant to,
      final Quantiles quantiles,
      final Points found) {
    final Map<String, Object> body = header(series, from, to);
    body.put("granularity", found.resolution().point().label());
    body.put(
        "buckets",
        found.points().stream()
            .map(point -> point(point, quantiles, found.quality(point)))
            .toList());
    final Map<String, Object> resolution = new LinkedHashMap<>();
    resolution.put("granularity", found.resolution().read().label());
    resolution.put("read_from", found.readFrom());
    resolution.put("point_ms", found.resolution().pointMillis());
    resolution.put("widened", found.resolution().widened());
    body.put("resolution", resolution);
    body.put("documents_read", found.documentsRead());
    body.put("state_windows_read", found.stateWindowsRead());
    return body;
  }

  private static Map<String, Object> header(
      final SeriesKey series, final Instant from, final Instant to) {
    final Map<String, Object> body = new LinkedHashMap<>();
    body.put("sensor_id", series.sensorId());
    body.put("metric", series.metric());
    body.put("from", from.toString());
    body.put("to", to.toString());
    return body;
  }

  private static Map<String, Object> point(
      final ChartPoint point, final Quantiles quantiles, final ReadingQuality quality) {
    return point instanceof ChartPoint.Measured measured
        ? window(measured.totals(), quantiles, quality)
        : filled((ChartPoint.Filled) point, quality);
  }

  /**
   * A point without readings: its avg, min and max the value its fill rule gives, or null; its
   * counts 0 and its completeness 0 where readings are expected, as they are, not filled.
   */
  private static Map<String, Object> filled(
      final ChartPoint.Filled point, final ReadingQuality quality) {
    final Map<String, Object> fields = new LinkedHashMap<>();
    fields.put("start", Instant.ofEpochMilli(point.start()).toString());
    fields.put("end", Instant.ofEpochMilli(point.end()).toString());
    fields.put("count", 0);
    fields.put("sum", null);
    fields.put("avg", known(point.value()));
    fields.put("min", known(point.value()));
    fields.put("max", known(point.value()));
    fields.put("stddev", null);
    fields.put("first", null);
    fields.put("last", null);
    fields.put("quantiles", null);
    quality(fields, quality);
    fields.put("open", false);
    fields.put("filled", point.rule().label());
    return fields;
  }

  private static Map<String, Object> window(
      final WindowTotals window, final Quantiles quantiles, final ReadingQuality quality) {
    final Map<String, Object> fields = new LinkedHashMap<>();
    fields.put("start", Instant.ofEpochMilli(window.start()).toString());
    fields.put("end", Instant.ofEpochMilli(window.end()).toString());
    fields.put("count", window.count());
    fields.put("sum", window.sum());
    fields.put("avg", window.average());
    fields.put("min", window.min());
    fields.put("max", window.max());
    fields.put("stddev", known(window.stats().standardDeviation()));
    fields.put("first", reading(window.stats().first()));
    fields.put("last", reading(window.stats().last()));
    // The time-weighted average and covered fraction, from the window's stored part; null where
    // none is stored (documents of an older version, windows read from the processor's state).
    final TimeWeighted part = window.timeWeighted();
    fields.put("twa", part == null || part.twa().isEmpty() ? null : part.twa().getAsDouble());
    fields.put("coverage", part == null ? null : part.coverage(window.end() - window.start()));
    // The quantiles of the point's windows' stored sketches merged; null where one has none
    // (documents written before sketches were kept or with them off, windows of the state).
    final ValueSketch sketch = window.sketch();
    fields.put("quantiles", sketch == null ? null : quantiles.of(sketch));
    // Its windows' resends and late readings, and the readings expected over its whole span.
    quality(fields, quality);
    fields.put("open", window.open());
    return fields;
  }

  /**
   * {@code {timestamp, value}}; null when the value is unknown (a document of an older version).
   */
  private static Map<String, Object> reading(final Measurement reading) {
    if (Double.isNaN(reading.value())) {
      return null;
    }
    final Map<String, Object> fields = new LinkedHashMap<>();
    fields.put("timestamp", Instant.ofEpochMilli(reading.timestamp()).toString());
    fields.put("value", reading.value());
    return fields;
  }

  /** Null for NaN: an empty range, or a field that documents of an older version lack. */
  private static Double known(final double value) {
    return Double.isNaN(value) ? null : value;
  }
}
