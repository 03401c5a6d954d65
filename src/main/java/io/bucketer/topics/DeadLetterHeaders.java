package io.bucketer.topics;

import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.header.Headers;

/**
 * Headers every dead-letter record carries, so an operator can tell why a record was set aside and
 * find the original: the reason (a stable, kebab-case label), a human-readable message, and the
 * topic, partition and offset the record was read from. A contract of the dead-letter topic,
 * written by the topology and the sink alike.
 *
 * <p>A dead letter's Kafka timestamp is when it was set aside (format 2), and the original record's
 * timestamp travels in {@value #SOURCE_TIMESTAMP}. The original's time is often a reading's event
 * time (a bucket record's, a too-late reading's, input a gateway stamped with its readings' time),
 * and Kafka's time retention counts from a record's timestamp: a dead letter of readings older than
 * the topic's {@code retention.ms} (a backfill, a gateway's flushed buffer) would be deleted at the
 * broker's next retention check, minutes after it was written. Stamped when set aside, it is kept
 * as long as the topic keeps dead letters, whoever created the topic.
 *
 * <p>{@value #FORMAT} gives the version of this layout, {@value #FORMAT_VERSION} now: these
 * headers, and the value of the dead letters bucketer makes itself, a reading too late for its
 * window or refused by a series limit as JSON ({@code {"sensor_id", "metric", "timestamp", "value",
 * "utc_offset_minutes"}}); every other dead letter keeps the bytes it was read with. A header
 * rather than a field in that JSON: a replayed reading goes back to the input topic, where a
 * mapping of every numeric field ({@code input.value.fields=*}) would take a version number for a
 * reading. Format 1 had no {@value #SOURCE_TIMESTAMP}: its records kept the original's timestamp.
 * Dead letters of builds before the header have format 1's layout and count as version 1.
 */
public final class DeadLetterHeaders {

  public static final String REASON = "bucketer.dlq.reason";
  public static final String MESSAGE = "bucketer.dlq.message";
  public static final String SOURCE_TOPIC = "bucketer.dlq.source.topic";
  public static final String SOURCE_PARTITION = "bucketer.dlq.source.partition";
  public static final String SOURCE_OFFSET = "bucketer.dlq.source.offset";

  /**
   * The original record's timestamp, epoch milliseconds as decimal text; absent when it had none.
   * Since format 2: the dead letter's own timestamp is when it was set aside.
   */
  public static final String SOURCE_TIMESTAMP = "bucketer.dlq.source.timestamp";

  public static final String FORMAT = "bucketer.dlq.format";

  /** The tenant whose series limit refused the reading, on {@value #SERIES_LIMIT} dead letters. */
  public static final String TENANT = "bucketer.dlq.tenant";

  /** The {@value #FORMAT} of the dead letters this build writes. */
  public static final String FORMAT_VERSION = "2";

  /** Prefix of every dead-letter header: a replay to the input topic leaves them all behind. */
  public static final String PREFIX = "bucketer.dlq.";

  /**
   * The reason of a reading that came after its window's lateness horizon: its value is the decoded
   * reading as JSON and its source the repartition topic, so it is no input record.
   */
  public static final String TOO_LATE = "too-late";

  /**
   * The reason of a bucket whose document MongoDB rejected: its record is the buckets topic's, so
   * it is no input record either.
   */
  public static final String MONGODB_REJECTED = "mongodb-rejected";

  /**
   * The reason of a reading whose series would have gone past its tenant's series limit: like a
   * too-late one, the decoded reading as JSON from the repartition topic, keyed by its sensor id,
   * with the tenant in {@value #TENANT}. Sent back by {@code dead-letters replay}, it carries the
   * replay's headers ({@link ReplayHeaders}), and the processor reads that JSON whatever its input
   * format.
   */
  public static final String SERIES_LIMIT = "series-limit";

  private DeadLetterHeaders() {}

  /**
   * The headers of a dead letter whose source is not known (a record punctuation forwarded), whose
   * original record had {@code sourceTimestamp} (negative: none).
   */
  public static void add(
      final Headers headers,
      final String reason,
      final String message,
      final long sourceTimestamp) {
    put(headers, FORMAT, FORMAT_VERSION);
    put(headers, REASON, reason);
    put(headers, MESSAGE, message);
    addSourceTimestamp(headers, sourceTimestamp);
  }

  /**
   * The headers of a dead letter read from {@code sourceTopic} at that partition and offset, with
   * that timestamp (negative: none).
   */
  public static void add(
      final Headers headers,
      final String reason,
      final String message,
      final String sourceTopic,
      final int sourcePartition,
      final long sourceOffset,
      final long sourceTimestamp) {
    put(headers, FORMAT, FORMAT_VERSION);
    put(headers, REASON, reason);
    put(headers, MESSAGE, message);
    addSource(headers, sourceTopic, sourcePartition, sourceOffset);
    addSourceTimestamp(headers, sourceTimestamp);
  }

  /** Names the tenant whose series limit refused the reading ({@value #SERIES_LIMIT} letters). */
  public static void addTenant(final Headers headers, final String tenant) {
    put(headers, TENANT, tenant);
  }

  private static void addSource(
      final Headers headers, final String topic, final int partition, final long offset) {
    put(headers, SOURCE_TOPIC, topic);
    put(headers, SOURCE_PARTITION, Integer.toString(partition));
    put(headers, SOURCE_OFFSET, Long.toString(offset));
  }

  private static void addSourceTimestamp(final Headers headers, final long timestamp) {
    if (timestamp >= 0) {
      put(headers, SOURCE_TIMESTAMP, Long.toString(timestamp));
    } else {
      headers.remove(SOURCE_TIMESTAMP);
    }
  }

  private static void put(final Headers headers, final String key, final String value) {
    headers.remove(key);
    headers.add(key, value.getBytes(StandardCharsets.UTF_8));
  }
}
