package io.bucketer.ingest.senml;

/**
 * Told of each value of an accepted pack that gives no reading because it is not a number: SenML
 * records may carry strings, booleans and binary data, which a bucket cannot sum. They are valid
 * RFC 8428 and are not dead-lettered; counting them shows what a fleet sends that is not kept.
 * Values of a pack the decoder refuses are not reported, so that replaying its dead letter counts
 * them once (a pack refused after decoding, by the topology's checks of its readings' times and
 * values, has reported them).
 */
@FunctionalInterface
public interface SkippedValues {

  /** Counts nothing. */
  SkippedValues NONE = kind -> {};

  void skipped(Kind kind);

  /** The kinds of SenML value that are not numbers, by their RFC label. */
  enum Kind {
    /** vs */
    STRING("string"),
    /** vb */
    BOOLEAN("boolean"),
    /** vd */
    DATA("data");

    private final String tag;

    Kind(final String tag) {
      this.tag = tag;
    }

    /** The metric tag: string, boolean or data. */
    public String tag() {
      return tag;
    }
  }
}
