package io.bucketer.topology;

import io.bucketer.avro.Reading;
import io.bucketer.buckets.TimeSpans;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * What an input record must satisfy, besides decoding, to become part of a bucket. Each failed
 * check names a stable, kebab-case reason for the dead-letter header and the metric, and a message
 * for the operator. A rejected reading can never succeed later, so it is dead-lettered rather than
 * retried.
 *
 * @param timestampFloor readings before it are rejected: a gateway whose clock was never set sends
 *     times near 1970, which would open windows decades in the past
 * @param maxFutureSkew readings further than this ahead of the wall clock are rejected: accepted,
 *     they would move their series' event time ahead and close its open windows early, making every
 *     later on-time reading too late
 * @param maxReadingBytes records whose value is larger are rejected before decoding: a reading is
 *     well under a hundred bytes, so a large value is a wrong producer, not worth decoding
 */
public record ReadingChecks(Instant timestampFloor, Duration maxFutureSkew, int maxReadingBytes) {

  public static final String RECORD_TOO_LARGE = "record-too-large";
  public static final String INVALID_SENSOR_ID = "invalid-sensor-id";
  public static final String INVALID_VALUE = "invalid-value";
  public static final String TIMESTAMP_BEFORE_FLOOR = "timestamp-before-floor";
  public static final String TIMESTAMP_IN_FUTURE = "timestamp-in-future";

  /** Why a record was rejected: the reason label and a message for the operator. */
  public record Rejection(String reason, String message) {}

  public ReadingChecks {
    Objects.requireNonNull(timestampFloor, "timestampFloor");
    Objects.requireNonNull(maxFutureSkew, "maxFutureSkew");
    if (maxFutureSkew.isNegative()) {
      throw new IllegalArgumentException("maxFutureSkew must not be negative: " + maxFutureSkew);
    }
    if (maxReadingBytes < 1) {
      throw new IllegalArgumentException("maxReadingBytes must be positive: " + maxReadingBytes);
    }
  }

  /** Checked before decoding, so that an oversized value costs no decoding work. */
  Optional<Rejection> checkSize(final byte[] value) {
    if (value != null && value.length > maxReadingBytes) {
      return reject(
          RECORD_TOO_LARGE,
          "value has " + value.length + " bytes, more than the limit of " + maxReadingBytes);
    }
    return Optional.empty();
  }

  /**
   * Checks a decoded reading against the wall clock {@code nowMillis}. The sensor id is checked for
   * null too, although no decoder gives one (a null sensor id is incompatible-schema for {@code
   * ReadingDecoder}, missing-field for a mapping): this keeps a null from ever reaching the series
   * key if that changes.
   */
  Optional<Rejection> checkReading(final Reading reading, final long nowMillis) {
    if (reading.getSensorId() == null || reading.getSensorId().isBlank()) {
      return reject(INVALID_SENSOR_ID, "sensor_id is null or blank");
    }
    if (!Double.isFinite(reading.getValue())) {
      return reject(INVALID_VALUE, "value is " + reading.getValue());
    }
    final Instant timestamp = reading.getTimestamp();
    if (timestamp.isBefore(timestampFloor)) {
      return reject(
          TIMESTAMP_BEFORE_FLOOR, "timestamp " + timestamp + " is before " + timestampFloor);
    }
    // Instant arithmetic, not millis: it cannot overflow whatever the timestamp.
    final Instant latest = Instant.ofEpochMilli(nowMillis).plus(maxFutureSkew);
    if (timestamp.isAfter(latest)) {
      return reject(
          TIMESTAMP_IN_FUTURE,
          "timestamp "
              + timestamp
              + " is more than "
              + TimeSpans.format(maxFutureSkew.toMillis())
              + " after the wall clock, "
              + Instant.ofEpochMilli(nowMillis));
    }
    return Optional.empty();
  }

  private static Optional<Rejection> reject(final String reason, final String message) {
    return Optional.of(new Rejection(reason, message));
  }
}
