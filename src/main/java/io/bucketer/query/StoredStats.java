package io.bucketer.query;

import io.bucketer.buckets.BucketStats;
import io.bucketer.buckets.Measurement;
import org.bson.BsonDocument;

/**
 * The computed fields of a stored document, of its {@code window}, or of one of its summaries, as
 * {@link BucketStats}. Documents written before first and last values and the spread were stored
 * lack them: those read as unknown (NaN), and so does whatever they are merged into.
 */
final class StoredStats {

  private StoredStats() {}

  /**
   * @param fields a document holding {@code count}, {@code sum}, {@code avg}, {@code min}, {@code
   *     max} and, when written by this version, the first and last reading and {@code stddev}
   * @param windowStart stands in for a first time an older document does not hold
   * @param windowEnd stands in for a last time an older document does not hold
   */
  static BucketStats of(final BsonDocument fields, final long windowStart, final long windowEnd) {
    final long count = fields.getNumber("count").longValue();
    final double sum = fields.getNumber("sum").doubleValue();
    final double average =
        fields.containsKey("avg") ? fields.getNumber("avg").doubleValue() : sum / count;
    final double deviation = number(fields, "stddev");
    return new BucketStats(
        count,
        sum,
        fields.getNumber("min").doubleValue(),
        fields.getNumber("max").doubleValue(),
        reading(fields, "first", windowStart),
        reading(fields, "last", windowEnd - 1),
        average,
        0,
        deviation * deviation * count,
        null);
  }

  private static Measurement reading(
      final BsonDocument fields, final String which, final long timeIfUnknown) {
    final String time = which + "_timestamp";
    return new Measurement(
        fields.containsKey(time) ? fields.getDateTime(time).getValue() : timeIfUnknown,
        number(fields, which + "_value"));
  }

  private static double number(final BsonDocument fields, final String name) {
    return fields.containsKey(name) ? fields.getNumber(name).doubleValue() : Double.NaN;
  }
}
