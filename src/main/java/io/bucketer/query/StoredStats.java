package io.bucketer.query;

import static io.bucketer.buckets.BucketDocumentNames.AVG;
import static io.bucketer.buckets.BucketDocumentNames.CARRY_IN;
import static io.bucketer.buckets.BucketDocumentNames.COUNT;
import static io.bucketer.buckets.BucketDocumentNames.COVERED_MS;
import static io.bucketer.buckets.BucketDocumentNames.EXPECTED_INTERVAL_MS;
import static io.bucketer.buckets.BucketDocumentNames.FIRST_TIMESTAMP;
import static io.bucketer.buckets.BucketDocumentNames.FIRST_VALUE;
import static io.bucketer.buckets.BucketDocumentNames.GAPS;
import static io.bucketer.buckets.BucketDocumentNames.GAP_AT_END_MS;
import static io.bucketer.buckets.BucketDocumentNames.GAP_AT_START_MS;
import static io.bucketer.buckets.BucketDocumentNames.INTEGRAL;
import static io.bucketer.buckets.BucketDocumentNames.INTERPOLATION;
import static io.bucketer.buckets.BucketDocumentNames.LAST_TIMESTAMP;
import static io.bucketer.buckets.BucketDocumentNames.LAST_VALUE;
import static io.bucketer.buckets.BucketDocumentNames.LATE_READINGS;
import static io.bucketer.buckets.BucketDocumentNames.LEARNED_INTERVAL_MS;
import static io.bucketer.buckets.BucketDocumentNames.LONGEST_GAP_MS;
import static io.bucketer.buckets.BucketDocumentNames.MAX;
import static io.bucketer.buckets.BucketDocumentNames.MAX_GAP_MS;
import static io.bucketer.buckets.BucketDocumentNames.MIN;
import static io.bucketer.buckets.BucketDocumentNames.QUANTILE_SKETCH;
import static io.bucketer.buckets.BucketDocumentNames.RESENDS;
import static io.bucketer.buckets.BucketDocumentNames.SCHEMA_VERSION;
import static io.bucketer.buckets.BucketDocumentNames.STDDEV;
import static io.bucketer.buckets.BucketDocumentNames.SUM;
import static io.bucketer.buckets.BucketDocumentNames.TIMESTAMP;
import static io.bucketer.buckets.BucketDocumentNames.VALUE;

import io.bucketer.buckets.BucketStats;
import io.bucketer.buckets.Interpolation;
import io.bucketer.buckets.Measurement;
import io.bucketer.buckets.TimeWeighted;
import io.bucketer.buckets.TimeWeighting;
import io.bucketer.buckets.WindowQuality;
import io.bucketer.sketch.ValueSketch;
import org.bson.BsonBinarySubType;
import org.bson.BsonDocument;
import org.bson.BsonValue;

/**
 * The computed fields of a stored document, of its {@code window}, or of one of its summaries, as
 * {@link BucketStats}. Documents written before first and last values and the spread were stored
 * lack them: those read as unknown (NaN), and so does whatever they are merged into.
 */
final class StoredStats {

  /**
   * The first {@code schema_version} that counts each window's resends and late readings: from it
   * on an absent count is 0; before it, the counts are unknown.
   */
  static final int QUALITY_VERSION = 4;

  private StoredStats() {}

  /** A document's {@code schema_version}; 1 when it has none (written before versions existed). */
  static int schemaVersion(final BsonDocument document) {
    return document.isNumber(SCHEMA_VERSION) ? document.getNumber(SCHEMA_VERSION).intValue() : 1;
  }

  /**
   * The resends and late readings a document's {@code window} or a summary counts, in a document of
   * {@code schemaVersion}; null when unknown: written before they were counted ({@link
   * #QUALITY_VERSION}), or a count that is not a number of 0 or more (a damaged document is
   * answered without its counts rather than failing the read).
   */
  static WindowQuality quality(final BsonDocument fields, final int schemaVersion) {
    if (schemaVersion < QUALITY_VERSION) {
      return null;
    }
    final long resends = count(fields, RESENDS);
    final long lateReadings = count(fields, LATE_READINGS);
    return resends < 0 || lateReadings < 0 ? null : new WindowQuality(resends, lateReadings);
  }

  /**
   * The expected interval a document's {@code window} was written with, in a document of {@code
   * schemaVersion}; null when it names none, or none a reader can use (not a positive whole
   * number).
   */
  static Long expectedInterval(final BsonDocument window, final int schemaVersion) {
    if (schemaVersion < QUALITY_VERSION) {
      return null;
    }
    final long interval = count(window, EXPECTED_INTERVAL_MS);
    return interval > 0 ? interval : null;
  }

  /**
   * The interval a document's {@code window} learned from its readings, in a document of {@code
   * schemaVersion}; null when it has none (a single reading, a configured interval instead, none
   * learned) or none a reader can use (not a positive whole number), and before schema_version 4,
   * which learned none.
   */
  static Long learnedInterval(final BsonDocument window, final int schemaVersion) {
    if (schemaVersion < QUALITY_VERSION) {
      return null;
    }
    final long interval = count(window, LEARNED_INTERVAL_MS);
    return interval > 0 ? interval : null;
  }

  /** A count written only when it is not 0: absent is 0; -1 when it is no count. */
  private static long count(final BsonDocument fields, final String name) {
    final BsonValue value = fields.get(name);
    if (value == null) {
      return 0;
    }
    if (!value.isNumber()) {
      return -1;
    }
    final double number = value.asNumber().doubleValue();
    return number >= 0 && number == Math.rint(number) ? value.asNumber().longValue() : -1;
  }

  /**
   * @param fields a document holding {@code count}, {@code sum}, {@code avg}, {@code min}, {@code
   *     max} and, when written by this version, the first and last reading and {@code stddev}
   * @param windowStart stands in for a first time an older document does not hold
   * @param windowEnd stands in for a last time an older document does not hold
   */
  static BucketStats of(final BsonDocument fields, final long windowStart, final long windowEnd) {
    return of(fields, windowStart, windowEnd, null);
  }

  /**
   * As {@link #of(BsonDocument, long, long)}, with the UTC offset of the latest reading that
   * carried one: a document stores it beside its own computed fields, not inside {@code window} or
   * a summary, so the caller finds it ({@link StoredWindows}).
   */
  static BucketStats of(
      final BsonDocument fields,
      final long windowStart,
      final long windowEnd,
      final Integer utcOffsetMinutes) {
    final long count = fields.getNumber(COUNT).longValue();
    final double sum = fields.getNumber(SUM).doubleValue();
    final double average =
        fields.containsKey(AVG) ? fields.getNumber(AVG).doubleValue() : sum / count;
    final double deviation = number(fields, STDDEV);
    return new BucketStats(
        count,
        sum,
        fields.getNumber(MIN).doubleValue(),
        fields.getNumber(MAX).doubleValue(),
        reading(fields, FIRST_TIMESTAMP, FIRST_VALUE, windowStart),
        reading(fields, LAST_TIMESTAMP, LAST_VALUE, windowEnd - 1),
        average,
        0,
        deviation * deviation * count,
        utcOffsetMinutes);
  }

  /**
   * The time-weighted part a document's {@code window} or a summary holds (schema_version 3); null
   * when it has none. Its gap fields are written only when it has gaps.
   */
  static TimeWeighted timeWeighted(final BsonDocument fields) {
    if (!fields.containsKey(COVERED_MS)) {
      return null;
    }
    if (!fields.containsKey(GAPS)) {
      return new TimeWeighted(
          fields.getNumber(COVERED_MS).longValue(),
          fields.getNumber(INTEGRAL).doubleValue() * 1_000,
          0,
          0,
          0,
          0);
    }
    return new TimeWeighted(
        fields.getNumber(COVERED_MS).longValue(),
        fields.getNumber(INTEGRAL).doubleValue() * 1_000, // stored in value·s
        fields.getNumber(GAPS).intValue(),
        fields.getNumber(LONGEST_GAP_MS).longValue(),
        fields.getNumber(GAP_AT_START_MS).longValue(),
        fields.getNumber(GAP_AT_END_MS).longValue());
  }

  /**
   * True when a document's {@code window} names an interpolation this version does not know (a
   * later build's): its time-weighted parts are then read as unknown, not added up as if they were
   * this version's.
   */
  static boolean unknownInterpolation(final BsonDocument window) {
    final BsonValue interpolation = window.get(INTERPOLATION);
    if (interpolation == null) {
      return false;
    }
    try {
      Interpolation.ofLabel(interpolation.isString() ? interpolation.asString().getValue() : "");
      return false;
    } catch (IllegalArgumentException unknown) {
      return true;
    }
  }

  /**
   * What a document's {@code window} says its time-weighted parts were computed with
   * (schema_version 3); null when it does not say, or names an interpolation this version does not
   * know (its parts are then not this version's to add up).
   */
  static TimeWeighting weighting(final BsonDocument window) {
    if (window == null || !window.containsKey(MAX_GAP_MS)) {
      return null;
    }
    final BsonValue interpolation = window.get(INTERPOLATION);
    try {
      return new TimeWeighting(
          window.getNumber(MAX_GAP_MS).longValue(),
          interpolation != null && interpolation.isString()
              ? Interpolation.ofLabel(interpolation.asString().getValue())
              : Interpolation.STEP);
    } catch (IllegalArgumentException unknown) {
      return null;
    }
  }

  /** The first reading a document's {@code window} names; null when it does not say. */
  static Measurement first(final BsonDocument window) {
    return window.containsKey(FIRST_TIMESTAMP) && window.containsKey(FIRST_VALUE)
        ? new Measurement(
            window.getDateTime(FIRST_TIMESTAMP).getValue(),
            window.getNumber(FIRST_VALUE).doubleValue())
        : null;
  }

  /** The last reading a document's {@code window} names; null when it does not say. */
  static Measurement last(final BsonDocument window) {
    return window.containsKey(LAST_TIMESTAMP) && window.containsKey(LAST_VALUE)
        ? new Measurement(
            window.getDateTime(LAST_TIMESTAMP).getValue(),
            window.getNumber(LAST_VALUE).doubleValue())
        : null;
  }

  /** The reading a document's {@code window} carries in; null when it has none. */
  static Measurement carryIn(final BsonDocument window) {
    final BsonValue carryIn = window.get(CARRY_IN);
    if (carryIn == null || !carryIn.isDocument()) {
      return null;
    }
    final BsonDocument reading = carryIn.asDocument();
    return new Measurement(
        reading.getDateTime(TIMESTAMP).getValue(), reading.getNumber(VALUE).doubleValue());
  }

  /**
   * The quantile sketch a document's {@code window} or a summary holds (BSON binary of subtype 0,
   * {@link ValueSketch#encode}'s bytes); null when it has none, and null too when it holds one that
   * does not decode: such a window is answered without quantiles, as one written before sketches
   * were kept, rather than failing the whole read. Each such sketch is told to {@code malformed}.
   */
  static ValueSketch sketch(final BsonDocument fields, final MalformedSketches malformed) {
    final BsonValue stored = fields.get(QUANTILE_SKETCH);
    if (stored == null || stored.isNull()) {
      return null;
    }
    if (!stored.isBinary() || stored.asBinary().getType() != BsonBinarySubType.BINARY.getValue()) {
      malformed.found("it is not binary data of subtype 0");
      return null;
    }
    try {
      return ValueSketch.decode(stored.asBinary().getData());
    } catch (RuntimeException e) {
      // decode refuses malformed bytes with IllegalArgumentException; whatever else a corrupt
      // document may provoke in the library is no reason to fail the read either.
      malformed.found(String.valueOf(e.getMessage()));
      return null;
    }
  }

  private static Measurement reading(
      final BsonDocument fields, final String time, final String value, final long timeIfUnknown) {
    return new Measurement(
        fields.containsKey(time) ? fields.getDateTime(time).getValue() : timeIfUnknown,
        number(fields, value));
  }

  private static double number(final BsonDocument fields, final String name) {
    return fields.containsKey(name) ? fields.getNumber(name).doubleValue() : Double.NaN;
  }
}
