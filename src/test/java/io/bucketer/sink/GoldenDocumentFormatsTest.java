package io.bucketer.sink;

import static io.bucketer.testing.GoldenBuckets.HOUR_BUCKET;
import static io.bucketer.testing.GoldenBuckets.HOUR_BUCKET_V3;
import static io.bucketer.testing.GoldenBuckets.HOUR_BUCKET_V4;
import static io.bucketer.testing.GoldenBuckets.HOUR_BUCKET_V5;
import static io.bucketer.testing.GoldenBuckets.HOUR_SKETCH;
import static io.bucketer.testing.GoldenBuckets.MINUTE_BEFORE_SKETCH;
import static io.bucketer.testing.GoldenBuckets.MINUTE_BUCKET_V3;
import static io.bucketer.testing.GoldenBuckets.MINUTE_BUCKET_V4;
import static io.bucketer.testing.GoldenBuckets.MINUTE_BUCKET_V5;
import static io.bucketer.testing.GoldenBuckets.MINUTE_LEARNED_BUCKET_V5;
import static io.bucketer.testing.GoldenBuckets.MINUTE_PART_BUCKET_V3;
import static io.bucketer.testing.GoldenBuckets.MINUTE_PART_BUCKET_V4;
import static io.bucketer.testing.GoldenBuckets.MINUTE_PART_BUCKET_V5;
import static io.bucketer.testing.GoldenBuckets.MINUTE_SKETCH;
import static org.assertj.core.api.Assertions.assertThat;

import io.bucketer.buckets.ClosedBucket;
import io.bucketer.buckets.WindowSummary;
import io.bucketer.sketch.ValueSketch;
import io.bucketer.testing.GoldenFiles;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.bson.BsonBinary;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.ByteBuf;
import org.bson.RawBsonDocument;
import org.bson.codecs.BsonDocumentCodec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Golden files of the bucket documents in MongoDB ({@link GoldenFiles}), as BSON: a document of
 * each granularity and a part of a window written as two, at {@code schema_version} 4 (with the
 * resends, late readings and expected readings), 3 (with the time-weighted parts, and the quantile
 * sketches) and 2, and a document as builds before {@code schema_version} wrote it (version 1).
 * Today's sink must write the version 4 files byte for byte (field order included: MongoDB compares
 * sub-documents in order), and the version 3 files too for buckets whose counts are unknown; each
 * file must hold the document written out here as extended JSON.
 *
 * <p>Missing golden files are written, once, by {@link #shouldWriteTheGoldenFilesThatAreMissing}
 * with {@code -Dbucketer.golden.write=true}; the normal build writes none.
 */
class GoldenDocumentFormatsTest {

  private static final BsonDocumentCodec CODEC = new BsonDocumentCodec();

  /** A minute of measurements, UTC+1. */
  static final String MINUTE_DOCUMENT =
      """
      {
        "_id": {"sensor_id": "sensor-1", "metric": "temperature", "granularity": "1m",
                "start": {"$date": "2023-11-14T22:14:00Z"}, "seq": 0},
        "schema_version": 2,
        "sensor_id": "sensor-1",
        "metric": "temperature",
        "granularity": "1m",
        "start_date": {"$date": "2023-11-14T22:14:00Z"},
        "end_date": {"$date": "2023-11-14T22:15:00Z"},
        "seq": 0,
        "buckets": 1,
        "revision": 0,
        "utc_offset_minutes": 60,
        "count": {"$numberLong": "3"}, "sum": 65.25, "avg": 21.75, "min": 21.5, "max": 22.0,
        "first_timestamp": {"$date": "2023-11-14T22:14:00Z"}, "first_value": 21.5,
        "last_timestamp": {"$date": "2023-11-14T22:14:02Z"}, "last_value": 21.75,
        "stddev": 0.2041241452319315,
        "window": {
          "count": {"$numberLong": "3"}, "sum": 65.25, "avg": 21.75, "min": 21.5, "max": 22.0,
          "first_timestamp": {"$date": "2023-11-14T22:14:00Z"}, "first_value": 21.5,
          "last_timestamp": {"$date": "2023-11-14T22:14:02Z"}, "last_value": 21.75,
          "stddev": 0.2041241452319315
        },
        "measurements": [
          {"timestamp": {"$date": "2023-11-14T22:14:00Z"}, "value": 21.5},
          {"timestamp": {"$date": "2023-11-14T22:14:01Z"}, "value": 22.0},
          {"timestamp": {"$date": "2023-11-14T22:14:02Z"}, "value": 21.75}
        ]
      }
      """;

  /** An hour of its minutes' summaries, revision 1. */
  static final String HOUR_DOCUMENT =
      """
      {
        "_id": {"sensor_id": "sensor-1", "metric": "temperature", "granularity": "1h",
                "start": {"$date": "2023-11-14T22:00:00Z"}, "seq": 0},
        "schema_version": 2,
        "sensor_id": "sensor-1",
        "metric": "temperature",
        "granularity": "1h",
        "start_date": {"$date": "2023-11-14T22:00:00Z"},
        "end_date": {"$date": "2023-11-14T23:00:00Z"},
        "seq": 0,
        "buckets": 1,
        "revision": 1,
        "utc_offset_minutes": 60,
        "count": {"$numberLong": "5"}, "sum": 106.25, "avg": 21.25, "min": 20.0, "max": 22.0,
        "first_timestamp": {"$date": "2023-11-14T22:13:00Z"}, "first_value": 20.0,
        "last_timestamp": {"$date": "2023-11-14T22:14:02Z"}, "last_value": 21.75,
        "stddev": 0.7071067811865476,
        "window": {
          "count": {"$numberLong": "5"}, "sum": 106.25, "avg": 21.25, "min": 20.0, "max": 22.0,
          "first_timestamp": {"$date": "2023-11-14T22:13:00Z"}, "first_value": 20.0,
          "last_timestamp": {"$date": "2023-11-14T22:14:02Z"}, "last_value": 21.75,
          "stddev": 0.7071067811865476
        },
        "summary_granularity": "1m",
        "summaries": [
          {
            "start_date": {"$date": "2023-11-14T22:13:00Z"},
            "count": {"$numberLong": "2"}, "sum": 41.0, "avg": 20.5, "min": 20.0, "max": 21.0,
            "first_timestamp": {"$date": "2023-11-14T22:13:00Z"}, "first_value": 20.0,
            "last_timestamp": {"$date": "2023-11-14T22:13:01Z"}, "last_value": 21.0,
            "stddev": 0.5
          },
          {
            "start_date": {"$date": "2023-11-14T22:14:00Z"},
            "count": {"$numberLong": "3"}, "sum": 65.25, "avg": 21.75, "min": 21.5, "max": 22.0,
            "first_timestamp": {"$date": "2023-11-14T22:14:00Z"}, "first_value": 21.5,
            "last_timestamp": {"$date": "2023-11-14T22:14:02Z"}, "last_value": 21.75,
            "stddev": 0.2041241452319315
          }
        ]
      }
      """;

  /**
   * A day of its hours' summaries; no metric (BSON null in the _id, absent after it), no offset.
   */
  static final String DAY_DOCUMENT =
      """
      {
        "_id": {"sensor_id": "sensor-2", "metric": null, "granularity": "1d",
                "start": {"$date": "2023-11-14T00:00:00Z"}, "seq": 0},
        "schema_version": 2,
        "sensor_id": "sensor-2",
        "granularity": "1d",
        "start_date": {"$date": "2023-11-14T00:00:00Z"},
        "end_date": {"$date": "2023-11-15T00:00:00Z"},
        "seq": 0,
        "buckets": 1,
        "revision": 0,
        "count": {"$numberLong": "6"}, "sum": 125.75, "avg": 20.958333333333332, "min": 19.5,
        "max": 22.0,
        "first_timestamp": {"$date": "2023-11-14T21:10:00Z"}, "first_value": 19.5,
        "last_timestamp": {"$date": "2023-11-14T22:14:02Z"}, "last_value": 21.75,
        "stddev": 0.9176131477310516,
        "window": {
          "count": {"$numberLong": "6"}, "sum": 125.75, "avg": 20.958333333333332, "min": 19.5,
          "max": 22.0,
          "first_timestamp": {"$date": "2023-11-14T21:10:00Z"}, "first_value": 19.5,
          "last_timestamp": {"$date": "2023-11-14T22:14:02Z"}, "last_value": 21.75,
          "stddev": 0.9176131477310516
        },
        "summary_granularity": "1h",
        "summaries": [
          {
            "start_date": {"$date": "2023-11-14T21:00:00Z"},
            "count": {"$numberLong": "1"}, "sum": 19.5, "avg": 19.5, "min": 19.5, "max": 19.5,
            "first_timestamp": {"$date": "2023-11-14T21:10:00Z"}, "first_value": 19.5,
            "last_timestamp": {"$date": "2023-11-14T21:10:00Z"}, "last_value": 19.5,
            "stddev": 0.0
          },
          {
            "start_date": {"$date": "2023-11-14T22:00:00Z"},
            "count": {"$numberLong": "5"}, "sum": 106.25, "avg": 21.25, "min": 20.0, "max": 22.0,
            "first_timestamp": {"$date": "2023-11-14T22:13:00Z"}, "first_value": 20.0,
            "last_timestamp": {"$date": "2023-11-14T22:14:02Z"}, "last_value": 21.75,
            "stddev": 0.7071067811865476
          }
        ]
      }
      """;

  /** The second of two buckets of a minute, UTC-5: its own fields, and the window's totals. */
  static final String MINUTE_PART_DOCUMENT =
      """
      {
        "_id": {"sensor_id": "sensor-3", "metric": "power", "granularity": "1m",
                "start": {"$date": "2023-11-14T22:14:00Z"}, "seq": 1},
        "schema_version": 2,
        "sensor_id": "sensor-3",
        "metric": "power",
        "granularity": "1m",
        "start_date": {"$date": "2023-11-14T22:14:00Z"},
        "end_date": {"$date": "2023-11-14T22:15:00Z"},
        "seq": 1,
        "buckets": 2,
        "revision": 0,
        "utc_offset_minutes": -300,
        "count": {"$numberLong": "2"}, "sum": 3020.5, "avg": 1510.25, "min": 1500.0,
        "max": 1520.5,
        "first_timestamp": {"$date": "2023-11-14T22:14:30Z"}, "first_value": 1500.0,
        "last_timestamp": {"$date": "2023-11-14T22:14:45Z"}, "last_value": 1520.5,
        "stddev": 10.25,
        "window": {
          "count": {"$numberLong": "4"}, "sum": 5990.5, "avg": 1497.625, "min": 1480.0,
          "max": 1520.5,
          "first_timestamp": {"$date": "2023-11-14T22:14:00Z"}, "first_value": 1490.0,
          "last_timestamp": {"$date": "2023-11-14T22:14:45Z"}, "last_value": 1520.5,
          "stddev": 14.980716771903806
        },
        "measurements": [
          {"timestamp": {"$date": "2023-11-14T22:14:30Z"}, "value": 1500.0},
          {"timestamp": {"$date": "2023-11-14T22:14:45Z"}, "value": 1520.5}
        ]
      }
      """;

  /**
   * {@link #MINUTE_DOCUMENT} at {@code schema_version} 3: the window's time-weighted part, the
   * reading carried in from the minute before, and what they were computed with.
   */
  static final String MINUTE_DOCUMENT_V3 =
      """
      {
        "_id": {"sensor_id": "sensor-1", "metric": "temperature", "granularity": "1m",
                "start": {"$date": "2023-11-14T22:14:00Z"}, "seq": 0},
        "schema_version": 3,
        "sensor_id": "sensor-1",
        "metric": "temperature",
        "granularity": "1m",
        "start_date": {"$date": "2023-11-14T22:14:00Z"},
        "end_date": {"$date": "2023-11-14T22:15:00Z"},
        "seq": 0,
        "buckets": 1,
        "revision": 0,
        "utc_offset_minutes": 60,
        "count": {"$numberLong": "3"}, "sum": 65.25, "avg": 21.75, "min": 21.5, "max": 22.0,
        "first_timestamp": {"$date": "2023-11-14T22:14:00Z"}, "first_value": 21.5,
        "last_timestamp": {"$date": "2023-11-14T22:14:02Z"}, "last_value": 21.75,
        "stddev": 0.2041241452319315,
        "window": {
          "count": {"$numberLong": "3"}, "sum": 65.25, "avg": 21.75, "min": 21.5, "max": 22.0,
          "first_timestamp": {"$date": "2023-11-14T22:14:00Z"}, "first_value": 21.5,
          "last_timestamp": {"$date": "2023-11-14T22:14:02Z"}, "last_value": 21.75,
          "stddev": 0.2041241452319315,
          "covered_ms": {"$numberLong": "60000"}, "coverage": 1.0, "integral": 1305.0, "twa": 21.75,
          "carry_in": {"timestamp": {"$date": "2023-11-14T22:13:01Z"}, "value": 21.0},
          "max_gap_ms": {"$numberLong": "300000"}, "interpolation": "step"
        },
        "measurements": [
          {"timestamp": {"$date": "2023-11-14T22:14:00Z"}, "value": 21.5},
          {"timestamp": {"$date": "2023-11-14T22:14:01Z"}, "value": 22.0},
          {"timestamp": {"$date": "2023-11-14T22:14:02Z"}, "value": 21.75}
        ]
      }
      """;

  /**
   * {@link #HOUR_DOCUMENT} at {@code schema_version} 3: the hour's part, with a gap at each end,
   * and each minute's part in its summary; nothing carried in.
   */
  static final String HOUR_DOCUMENT_V3 =
      """
      {
        "_id": {"sensor_id": "sensor-1", "metric": "temperature", "granularity": "1h",
                "start": {"$date": "2023-11-14T22:00:00Z"}, "seq": 0},
        "schema_version": 3,
        "sensor_id": "sensor-1",
        "metric": "temperature",
        "granularity": "1h",
        "start_date": {"$date": "2023-11-14T22:00:00Z"},
        "end_date": {"$date": "2023-11-14T23:00:00Z"},
        "seq": 0,
        "buckets": 1,
        "revision": 1,
        "utc_offset_minutes": 60,
        "count": {"$numberLong": "5"}, "sum": 106.25, "avg": 21.25, "min": 20.0, "max": 22.0,
        "first_timestamp": {"$date": "2023-11-14T22:13:00Z"}, "first_value": 20.0,
        "last_timestamp": {"$date": "2023-11-14T22:14:02Z"}, "last_value": 21.75,
        "stddev": 0.7071067811865476,
        "window": {
          "count": {"$numberLong": "5"}, "sum": 106.25, "avg": 21.25, "min": 20.0, "max": 22.0,
          "first_timestamp": {"$date": "2023-11-14T22:13:00Z"}, "first_value": 20.0,
          "last_timestamp": {"$date": "2023-11-14T22:14:02Z"}, "last_value": 21.75,
          "stddev": 0.7071067811865476,
          "covered_ms": {"$numberLong": "362000"}, "coverage": 0.10055555555555555,
          "integral": 7827.5, "twa": 21.62292817679558,
          "gaps": 2, "longest_gap_ms": {"$numberLong": "2458000"},
          "gap_at_start_ms": {"$numberLong": "780000"},
          "gap_at_end_ms": {"$numberLong": "2458000"},
          "max_gap_ms": {"$numberLong": "300000"}, "interpolation": "step"
        },
        "summary_granularity": "1m",
        "summaries": [
          {
            "start_date": {"$date": "2023-11-14T22:13:00Z"},
            "count": {"$numberLong": "2"}, "sum": 41.0, "avg": 20.5, "min": 20.0, "max": 21.0,
            "first_timestamp": {"$date": "2023-11-14T22:13:00Z"}, "first_value": 20.0,
            "last_timestamp": {"$date": "2023-11-14T22:13:01Z"}, "last_value": 21.0,
            "stddev": 0.5,
            "covered_ms": {"$numberLong": "60000"}, "integral": 1259.0
          },
          {
            "start_date": {"$date": "2023-11-14T22:14:00Z"},
            "count": {"$numberLong": "3"}, "sum": 65.25, "avg": 21.75, "min": 21.5, "max": 22.0,
            "first_timestamp": {"$date": "2023-11-14T22:14:00Z"}, "first_value": 21.5,
            "last_timestamp": {"$date": "2023-11-14T22:14:02Z"}, "last_value": 21.75,
            "stddev": 0.2041241452319315,
            "covered_ms": {"$numberLong": "60000"}, "integral": 1305.0
          }
        ]
      }
      """;

  /**
   * {@link #MINUTE_PART_DOCUMENT} at {@code schema_version} 3: the whole window's part in the
   * second bucket's window, with the power's own max gap; none at the top.
   */
  static final String MINUTE_PART_DOCUMENT_V3 =
      """
      {
        "_id": {"sensor_id": "sensor-3", "metric": "power", "granularity": "1m",
                "start": {"$date": "2023-11-14T22:14:00Z"}, "seq": 1},
        "schema_version": 3,
        "sensor_id": "sensor-3",
        "metric": "power",
        "granularity": "1m",
        "start_date": {"$date": "2023-11-14T22:14:00Z"},
        "end_date": {"$date": "2023-11-14T22:15:00Z"},
        "seq": 1,
        "buckets": 2,
        "revision": 0,
        "utc_offset_minutes": -300,
        "count": {"$numberLong": "2"}, "sum": 3020.5, "avg": 1510.25, "min": 1500.0,
        "max": 1520.5,
        "first_timestamp": {"$date": "2023-11-14T22:14:30Z"}, "first_value": 1500.0,
        "last_timestamp": {"$date": "2023-11-14T22:14:45Z"}, "last_value": 1520.5,
        "stddev": 10.25,
        "window": {
          "count": {"$numberLong": "4"}, "sum": 5990.5, "avg": 1497.625, "min": 1480.0,
          "max": 1520.5,
          "first_timestamp": {"$date": "2023-11-14T22:14:00Z"}, "first_value": 1490.0,
          "last_timestamp": {"$date": "2023-11-14T22:14:45Z"}, "last_value": 1520.5,
          "stddev": 14.980716771903806,
          "covered_ms": {"$numberLong": "60000"}, "coverage": 1.0, "integral": 89857.5,
          "twa": 1497.625,
          "max_gap_ms": {"$numberLong": "900000"}, "interpolation": "step"
        },
        "measurements": [
          {"timestamp": {"$date": "2023-11-14T22:14:30Z"}, "value": 1500.0},
          {"timestamp": {"$date": "2023-11-14T22:14:45Z"}, "value": 1520.5}
        ]
      }
      """;

  /**
   * {@link #MINUTE_DOCUMENT_V3} at {@code schema_version} 4, with its sketch: one reading resent,
   * none late, one reading expected a second.
   */
  static final String MINUTE_DOCUMENT_V4 =
      """
      {
        "_id": {"sensor_id": "sensor-1", "metric": "temperature", "granularity": "1m",
                "start": {"$date": "2023-11-14T22:14:00Z"}, "seq": 0},
        "schema_version": 4,
        "sensor_id": "sensor-1",
        "metric": "temperature",
        "granularity": "1m",
        "start_date": {"$date": "2023-11-14T22:14:00Z"},
        "end_date": {"$date": "2023-11-14T22:15:00Z"},
        "seq": 0,
        "buckets": 1,
        "revision": 0,
        "utc_offset_minutes": 60,
        "count": {"$numberLong": "3"}, "sum": 65.25, "avg": 21.75, "min": 21.5, "max": 22.0,
        "first_timestamp": {"$date": "2023-11-14T22:14:00Z"}, "first_value": 21.5,
        "last_timestamp": {"$date": "2023-11-14T22:14:02Z"}, "last_value": 21.75,
        "stddev": 0.2041241452319315,
        "window": {
          "count": {"$numberLong": "3"}, "sum": 65.25, "avg": 21.75, "min": 21.5, "max": 22.0,
          "first_timestamp": {"$date": "2023-11-14T22:14:00Z"}, "first_value": 21.5,
          "last_timestamp": {"$date": "2023-11-14T22:14:02Z"}, "last_value": 21.75,
          "stddev": 0.2041241452319315,
          "covered_ms": {"$numberLong": "60000"}, "coverage": 1.0, "integral": 1305.0, "twa": 21.75,
          "carry_in": {"timestamp": {"$date": "2023-11-14T22:13:01Z"}, "value": 21.0},
          "max_gap_ms": {"$numberLong": "300000"}, "interpolation": "step",
          "quantile_sketch": {"$binary": {"base64": "AQGQTgUCsgIDAgI=", "subType": "00"}},
          "resends": {"$numberLong": "1"},
          "expected_interval_ms": {"$numberLong": "1000"}, "expected": 60.0
        },
        "measurements": [
          {"timestamp": {"$date": "2023-11-14T22:14:00Z"}, "value": 21.5},
          {"timestamp": {"$date": "2023-11-14T22:14:01Z"}, "value": 22.0},
          {"timestamp": {"$date": "2023-11-14T22:14:02Z"}, "value": 21.75}
        ]
      }
      """;

  /**
   * {@link #HOUR_DOCUMENT_V3} at {@code schema_version} 4, with its sketches: the minute before
   * took a late reading, the next one a resend, and the hour counts both; one reading expected a
   * second.
   */
  static final String HOUR_DOCUMENT_V4 =
      """
      {
        "_id": {"sensor_id": "sensor-1", "metric": "temperature", "granularity": "1h",
                "start": {"$date": "2023-11-14T22:00:00Z"}, "seq": 0},
        "schema_version": 4,
        "sensor_id": "sensor-1",
        "metric": "temperature",
        "granularity": "1h",
        "start_date": {"$date": "2023-11-14T22:00:00Z"},
        "end_date": {"$date": "2023-11-14T23:00:00Z"},
        "seq": 0,
        "buckets": 1,
        "revision": 1,
        "utc_offset_minutes": 60,
        "count": {"$numberLong": "5"}, "sum": 106.25, "avg": 21.25, "min": 20.0, "max": 22.0,
        "first_timestamp": {"$date": "2023-11-14T22:13:00Z"}, "first_value": 20.0,
        "last_timestamp": {"$date": "2023-11-14T22:14:02Z"}, "last_value": 21.75,
        "stddev": 0.7071067811865476,
        "window": {
          "count": {"$numberLong": "5"}, "sum": 106.25, "avg": 21.25, "min": 20.0, "max": 22.0,
          "first_timestamp": {"$date": "2023-11-14T22:13:00Z"}, "first_value": 20.0,
          "last_timestamp": {"$date": "2023-11-14T22:14:02Z"}, "last_value": 21.75,
          "stddev": 0.7071067811865476,
          "covered_ms": {"$numberLong": "362000"}, "coverage": 0.10055555555555555,
          "integral": 7827.5, "twa": 21.62292817679558,
          "gaps": 2, "longest_gap_ms": {"$numberLong": "2458000"},
          "gap_at_start_ms": {"$numberLong": "780000"},
          "gap_at_end_ms": {"$numberLong": "2458000"},
          "max_gap_ms": {"$numberLong": "300000"}, "interpolation": "step",
          "quantile_sketch": {"$binary": {"base64": "AQGQTgUEqgICBgICAwIC", "subType": "00"}},
          "resends": {"$numberLong": "1"}, "late_readings": {"$numberLong": "1"},
          "expected_interval_ms": {"$numberLong": "1000"}, "expected": 3600.0
        },
        "summary_granularity": "1m",
        "summaries": [
          {
            "start_date": {"$date": "2023-11-14T22:13:00Z"},
            "count": {"$numberLong": "2"}, "sum": 41.0, "avg": 20.5, "min": 20.0, "max": 21.0,
            "first_timestamp": {"$date": "2023-11-14T22:13:00Z"}, "first_value": 20.0,
            "last_timestamp": {"$date": "2023-11-14T22:13:01Z"}, "last_value": 21.0,
            "stddev": 0.5,
            "covered_ms": {"$numberLong": "60000"}, "integral": 1259.0,
            "quantile_sketch": {"$binary": {"base64": "AQGQTgUCqgICBgI=", "subType": "00"}},
            "late_readings": {"$numberLong": "1"}
          },
          {
            "start_date": {"$date": "2023-11-14T22:14:00Z"},
            "count": {"$numberLong": "3"}, "sum": 65.25, "avg": 21.75, "min": 21.5, "max": 22.0,
            "first_timestamp": {"$date": "2023-11-14T22:14:00Z"}, "first_value": 21.5,
            "last_timestamp": {"$date": "2023-11-14T22:14:02Z"}, "last_value": 21.75,
            "stddev": 0.2041241452319315,
            "covered_ms": {"$numberLong": "60000"}, "integral": 1305.0,
            "quantile_sketch": {"$binary": {"base64": "AQGQTgUCsgIDAgI=", "subType": "00"}},
            "resends": {"$numberLong": "1"}
          }
        ]
      }
      """;

  /**
   * {@link #MINUTE_PART_DOCUMENT_V3} at {@code schema_version} 4, with its sketch: nothing resent
   * or late and no interval expected, so no field more than version 3.
   */
  static final String MINUTE_PART_DOCUMENT_V4 =
      """
      {
        "_id": {"sensor_id": "sensor-3", "metric": "power", "granularity": "1m",
                "start": {"$date": "2023-11-14T22:14:00Z"}, "seq": 1},
        "schema_version": 4,
        "sensor_id": "sensor-3",
        "metric": "power",
        "granularity": "1m",
        "start_date": {"$date": "2023-11-14T22:14:00Z"},
        "end_date": {"$date": "2023-11-14T22:15:00Z"},
        "seq": 1,
        "buckets": 2,
        "revision": 0,
        "utc_offset_minutes": -300,
        "count": {"$numberLong": "2"}, "sum": 3020.5, "avg": 1510.25, "min": 1500.0,
        "max": 1520.5,
        "first_timestamp": {"$date": "2023-11-14T22:14:30Z"}, "first_value": 1500.0,
        "last_timestamp": {"$date": "2023-11-14T22:14:45Z"}, "last_value": 1520.5,
        "stddev": 10.25,
        "window": {
          "count": {"$numberLong": "4"}, "sum": 5990.5, "avg": 1497.625, "min": 1480.0,
          "max": 1520.5,
          "first_timestamp": {"$date": "2023-11-14T22:14:00Z"}, "first_value": 1490.0,
          "last_timestamp": {"$date": "2023-11-14T22:14:45Z"}, "last_value": 1520.5,
          "stddev": 14.980716771903806,
          "covered_ms": {"$numberLong": "60000"}, "coverage": 1.0, "integral": 89857.5,
          "twa": 1497.625,
          "max_gap_ms": {"$numberLong": "900000"}, "interpolation": "step",
          "quantile_sketch": {"$binary": {"base64": "AQGQTg0D2AUCAgMC", "subType": "00"}}
        },
        "measurements": [
          {"timestamp": {"$date": "2023-11-14T22:14:30Z"}, "value": 1500.0},
          {"timestamp": {"$date": "2023-11-14T22:14:45Z"}, "value": 1520.5}
        ]
      }
      """;

  /**
   * A minute as builds before {@code schema_version} wrote it, version 1: no version, and, from the
   * oldest of them, no first and last values, spread, or first and last times in the window.
   */
  static final String MINUTE_DOCUMENT_VERSION_ONE =
      """
      {
        "_id": {"sensor_id": "sensor-1", "metric": "temperature", "granularity": "1m",
                "start": {"$date": "2023-11-14T22:14:00Z"}, "seq": 0},
        "sensor_id": "sensor-1",
        "metric": "temperature",
        "granularity": "1m",
        "start_date": {"$date": "2023-11-14T22:14:00Z"},
        "end_date": {"$date": "2023-11-14T22:15:00Z"},
        "seq": 0,
        "buckets": 1,
        "revision": 0,
        "utc_offset_minutes": 60,
        "count": {"$numberLong": "3"}, "sum": 65.25, "avg": 21.75, "min": 21.5, "max": 22.0,
        "first_timestamp": {"$date": "2023-11-14T22:14:00Z"},
        "last_timestamp": {"$date": "2023-11-14T22:14:02Z"},
        "window": {
          "count": {"$numberLong": "3"}, "sum": 65.25, "avg": 21.75, "min": 21.5, "max": 22.0
        },
        "measurements": [
          {"timestamp": {"$date": "2023-11-14T22:14:00Z"}, "value": 21.5},
          {"timestamp": {"$date": "2023-11-14T22:14:01Z"}, "value": 22.0},
          {"timestamp": {"$date": "2023-11-14T22:14:02Z"}, "value": 21.75}
        ]
      }
      """;

  /** Today's documents: each must equal its golden file. */
  private static Map<String, byte[]> current() {
    final Map<String, byte[]> files = new LinkedHashMap<>();
    files.put("bucket-document-v4-1m.bson", bytes(BucketDocuments.toDocument(MINUTE_BUCKET_V5)));
    files.put("bucket-document-v4-1h.bson", bytes(BucketDocuments.toDocument(HOUR_BUCKET_V5)));
    files.put(
        "bucket-document-v4-1m-part-2-of-2.bson",
        bytes(BucketDocuments.toDocument(MINUTE_PART_BUCKET_V5)));
    files.put(
        "bucket-document-v4-1m-learned.bson",
        bytes(BucketDocuments.toDocument(MINUTE_LEARNED_BUCKET_V5)));
    return files;
  }

  /**
   * Documents no longer written but for buckets whose counts are unknown, built as their builds
   * wrote them: the version 3 ones are today's documents of buckets that do not know their counts
   * (format 4 and earlier), which this build still writes as version 3.
   */
  private static Map<String, byte[]> older() {
    return Map.of(
        "bucket-document-v3-1m.bson", bytes(BucketDocuments.toDocument(MINUTE_BUCKET_V3)),
        "bucket-document-v3-1h.bson", bytes(BucketDocuments.toDocument(HOUR_BUCKET_V3)),
        "bucket-document-v3-1m-part-2-of-2.bson",
            bytes(BucketDocuments.toDocument(MINUTE_PART_BUCKET_V3)),
        "bucket-document-v3-1m-sketch.bson", bytes(BucketDocuments.toDocument(MINUTE_BUCKET_V4)),
        "bucket-document-v3-1h-sketch.bson", bytes(BucketDocuments.toDocument(HOUR_BUCKET_V4)),
        "bucket-document-v1-1m.bson", parsed(MINUTE_DOCUMENT_VERSION_ONE),
        "bucket-document-v2-1m.bson", parsed(MINUTE_DOCUMENT),
        "bucket-document-v2-1h.bson", parsed(HOUR_DOCUMENT),
        "bucket-document-v2-1d.bson", parsed(DAY_DOCUMENT),
        "bucket-document-v2-1m-part-2-of-2.bson", parsed(MINUTE_PART_DOCUMENT));
  }

  private static byte[] parsed(final String json) {
    return bytes(new RawBsonDocument(BsonDocument.parse(json), CODEC));
  }

  /** A document without time-weighted parts is written as version 2 wrote it, but its version. */
  @Test
  void shouldWriteTheFieldsOfVersionTwoWhenNoTimeWeightedPartIsKnown() {
    final BsonDocument written = BucketDocuments.toDocument(HOUR_BUCKET).decode(CODEC);
    final BsonDocument versionTwo = BsonDocument.parse(HOUR_DOCUMENT);
    written.remove("schema_version");
    versionTwo.remove("schema_version");
    assertThat(written.toJson()).isEqualTo(versionTwo.toJson());
  }

  @Test
  void shouldWriteExactlyTheGoldenBytesOfTheCurrentDocuments() {
    current()
        .forEach(
            (name, bytes) ->
                assertThat(bytes)
                    .as("%s: a changed document needs a new schema_version", name)
                    .isEqualTo(GoldenFiles.read(name)));
  }

  @Test
  void shouldStillWriteVersionThreeAsItsBuildDidForABucketWhoseCountsAreUnknown() {
    older().entrySet().stream()
        .filter(file -> file.getKey().startsWith("bucket-document-v3-"))
        .forEach(
            file ->
                assertThat(file.getValue())
                    .as(file.getKey())
                    .isEqualTo(GoldenFiles.read(file.getKey())));
  }

  /**
   * A window with nothing resent or late and no interval expected costs not a byte more in version
   * 4: the document is its version 3 document but for the version's value.
   */
  @Test
  void shouldWriteNoByteMoreForAWindowWithNothingResentLateOrExpected() {
    final byte[] four = bytes(BucketDocuments.toDocument(MINUTE_PART_BUCKET_V5));
    final byte[] three = bytes(BucketDocuments.toDocument(MINUTE_PART_BUCKET_V4));

    assertThat(four).hasSameSizeAs(three);
    final BsonDocument fourWithoutVersion = new RawBsonDocument(four).decode(CODEC);
    final BsonDocument threeWithoutVersion = new RawBsonDocument(three).decode(CODEC);
    assertThat(fourWithoutVersion.remove("schema_version")).isEqualTo(new BsonInt32(4));
    assertThat(threeWithoutVersion.remove("schema_version")).isEqualTo(new BsonInt32(3));
    assertThat(fourWithoutVersion.toJson()).isEqualTo(threeWithoutVersion.toJson());
  }

  /**
   * A bucket whose window knows its counts but a summary does not (or the other way) cannot say so
   * in version 4, where an absent count is 0: it is written as version 3, without counts.
   */
  @Test
  void shouldWriteVersionThreeWithoutCountsWhenAnyCountOfTheBucketIsUnknown() {
    final List<WindowSummary> summaries = new ArrayList<>(HOUR_BUCKET_V5.summaries());
    final WindowSummary last = summaries.get(1);
    summaries.set(
        1,
        new WindowSummary(
            last.granularity(),
            last.start(),
            last.stats(),
            last.timeWeighted(),
            last.sketch(),
            null));
    final ClosedBucket summaryUnknown =
        new ClosedBucket(
            HOUR_BUCKET_V5.series(),
            HOUR_BUCKET_V5.granularity(),
            HOUR_BUCKET_V5.windowStart(),
            HOUR_BUCKET_V5.stats(),
            List.of(),
            summaries,
            HOUR_BUCKET_V5.window(),
            0,
            1,
            1,
            HOUR_BUCKET_V5.extras());

    final BsonDocument written = BucketDocuments.toDocument(summaryUnknown).decode(CODEC);

    assertThat(written.getInt32("schema_version").getValue()).isEqualTo(3);
    assertThat(written.getDocument("window").containsKey("resends")).isFalse();
    assertThat(written.getDocument("window").containsKey("late_readings")).isFalse();
    assertThat(written.getArray("summaries"))
        .allSatisfy(summary -> assertThat(summary.asDocument()).doesNotContainKey("resends"))
        .allSatisfy(summary -> assertThat(summary.asDocument()).doesNotContainKey("late_readings"));
    // the expected readings do not depend on the counts
    assertThat(written.getDocument("window").getDouble("expected").getValue()).isEqualTo(3600.0);
  }

  @Test
  void shouldHoldTheDocumentsWrittenOutHere() {
    assertGolden("bucket-document-v4-1m.bson", MINUTE_DOCUMENT_V4);
    assertGolden("bucket-document-v4-1h.bson", HOUR_DOCUMENT_V4);
    assertGolden("bucket-document-v4-1m-part-2-of-2.bson", MINUTE_PART_DOCUMENT_V4);
    assertGolden("bucket-document-v3-1m.bson", MINUTE_DOCUMENT_V3);
    assertGolden("bucket-document-v3-1h.bson", HOUR_DOCUMENT_V3);
    assertGolden("bucket-document-v3-1m-part-2-of-2.bson", MINUTE_PART_DOCUMENT_V3);
    assertGolden("bucket-document-v2-1m.bson", MINUTE_DOCUMENT);
    assertGolden("bucket-document-v2-1h.bson", HOUR_DOCUMENT);
    assertGolden("bucket-document-v2-1d.bson", DAY_DOCUMENT);
    assertGolden("bucket-document-v2-1m-part-2-of-2.bson", MINUTE_PART_DOCUMENT);
    assertGolden("bucket-document-v1-1m.bson", MINUTE_DOCUMENT_VERSION_ONE);
  }

  /**
   * A learned interval is the minute's own, named apart from a configured one, and its expected
   * readings follow from it; the rest of the document is the minute's as any version 4 writes it.
   */
  @Test
  void shouldHoldALearnedIntervalApartFromAConfiguredOne() {
    final BsonDocument learned =
        new RawBsonDocument(GoldenFiles.read("bucket-document-v4-1m-learned.bson")).decode(CODEC);
    final BsonDocument window = learned.getDocument("window");

    assertThat(window.getInt64("learned_interval_ms").getValue()).isEqualTo(1_000L);
    assertThat(window.getDouble("expected").getValue()).isEqualTo(60.0);
    assertThat(window).doesNotContainKey("expected_interval_ms");
    final BsonDocument configured = BsonDocument.parse(MINUTE_DOCUMENT_V4);
    for (final String field : List.of("resends", "expected_interval_ms", "expected")) {
      configured.getDocument("window").remove(field);
    }
    window.remove("learned_interval_ms");
    window.remove("expected");
    assertThat(learned).isEqualTo(configured);
  }

  /**
   * The sketches came within version 3: a document with them is the document without them but for a
   * {@code quantile_sketch} binary (subtype 0, the sketch's bytes) last in its window and in each
   * summary.
   */
  @Test
  void shouldHoldTheSketchesAsGenericBinaryLastInTheWindowAndEachSummary() {
    final BsonDocument minute =
        new RawBsonDocument(GoldenFiles.read("bucket-document-v3-1m-sketch.bson")).decode(CODEC);
    final BsonDocument hour =
        new RawBsonDocument(GoldenFiles.read("bucket-document-v3-1h-sketch.bson")).decode(CODEC);

    assertThat(withoutSketches(minute)).isEqualTo(BsonDocument.parse(MINUTE_DOCUMENT_V3));
    assertThat(withoutSketches(hour)).isEqualTo(BsonDocument.parse(HOUR_DOCUMENT_V3));
    assertSketch(minute.getDocument("window"), MINUTE_SKETCH);
    assertSketch(hour.getDocument("window"), HOUR_SKETCH);
    assertSketch(hour.getArray("summaries").get(0).asDocument(), MINUTE_BEFORE_SKETCH);
    assertSketch(hour.getArray("summaries").get(1).asDocument(), MINUTE_SKETCH);
  }

  private static void assertSketch(final BsonDocument fields, final ValueSketch sketch) {
    final String last = List.copyOf(fields.keySet()).get(fields.size() - 1);
    assertThat(last).isEqualTo("quantile_sketch");
    final BsonBinary binary = fields.getBinary("quantile_sketch");
    assertThat(binary.getType()).isZero();
    assertThat(ValueSketch.decode(binary.getData())).isEqualTo(sketch);
  }

  private static BsonDocument withoutSketches(final BsonDocument document) {
    final BsonDocument copy = document.clone();
    copy.getDocument("window").remove("quantile_sketch");
    if (copy.containsKey("summaries")) {
      copy.getArray("summaries").forEach(summary -> summary.asDocument().remove("quantile_sketch"));
    }
    return copy;
  }

  @Test
  void shouldSayTheSchemaVersionOfEveryDocumentItWrites() {
    for (final byte[] document : current().values()) {
      assertThat(new RawBsonDocument(document).getInt32("schema_version").getValue())
          .isEqualTo(BucketDocuments.SCHEMA_VERSION_WRITTEN)
          .isEqualTo(4);
    }
  }

  @Test
  @EnabledIfSystemProperty(named = GoldenFiles.WRITE_PROPERTY, matches = "true")
  void shouldWriteTheGoldenFilesThatAreMissing() {
    GoldenFiles.writeMissing(current());
    GoldenFiles.writeMissing(older());
  }

  /** Equal values in the same order: MongoDB compares sub-documents field by field, in order. */
  private static void assertGolden(final String name, final String json) {
    final RawBsonDocument golden = new RawBsonDocument(GoldenFiles.read(name));
    final BsonDocument expected = BsonDocument.parse(json);

    assertThat(golden).as(name).isEqualTo(expected);
    assertThat(golden.toJson()).as(name).isEqualTo(expected.toJson());
  }

  private static byte[] bytes(final RawBsonDocument document) {
    final ByteBuf buffer = document.getByteBuffer();
    final byte[] bytes = new byte[buffer.remaining()];
    buffer.get(bytes);
    return bytes;
  }
}
