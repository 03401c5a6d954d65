package io.bucketer.windows;

import java.util.Arrays;

/**
 * What a reading does when its series already has a reading at the same event time with another
 * value. (One with the same value too is a resend, which always counts once.) A series and a time
 * identify a reading, as a measurement and a timestamp identify a point in InfluxDB.
 */
public enum DuplicateTimestamps {

  /**
   * The later value replaces the earlier one, and a window that had closed is emitted again with
   * it: InfluxDB's rule for a point written twice, and what QuestDB's deduplication and
   * ClickHouse's ReplacingMergeTree keep. A gateway that corrects a reading gets its correction.
   */
  KEEP_LAST("keep-last"),

  /**
   * The earlier value stays and the later reading is dropped, counted: what an insert under a
   * unique index, or TimescaleDB's {@code ON CONFLICT DO NOTHING}, keeps. Closed buckets never
   * change for a reading with a time they already hold.
   */
  KEEP_FIRST("keep-first");

  private final String label;

  DuplicateTimestamps(final String label) {
    this.label = label;
  }

  /** The setting's value. */
  public String label() {
    return label;
  }

  public static DuplicateTimestamps parse(final String label) {
    for (final DuplicateTimestamps policy : values()) {
      if (policy.label.equals(label)) {
        return policy;
      }
    }
    throw new IllegalArgumentException(
        "unknown policy "
            + label
            + ", expected one of "
            + Arrays.stream(values()).map(DuplicateTimestamps::label).toList());
  }
}
