package io.bucketer.deadletters;

/**
 * A range of partitions or offsets, both ends included, as an operator writes it: {@code 7}, {@code
 * 3-9}, {@code 100-} (from 100 on) or {@code -99} (up to 99).
 */
public record OffsetRange(long first, long last) {

  /** Every partition and offset. */
  public static final OffsetRange ALL = new OffsetRange(0, Long.MAX_VALUE);

  public OffsetRange {
    if (first < 0 || last < first) {
      throw new IllegalArgumentException("not a range: " + first + "-" + last);
    }
  }

  /**
   * @throws IllegalArgumentException for text that is not {@code N}, {@code N-M}, {@code N-} or
   *     {@code -M} with {@code 0 <= N <= M}
   */
  public static OffsetRange parse(final String text) {
    final String range = text.strip();
    final int dash = range.indexOf('-');
    try {
      if (dash < 0) {
        final long only = Long.parseLong(range);
        return new OffsetRange(only, only);
      }
      final String from = range.substring(0, dash).strip();
      final String to = range.substring(dash + 1).strip();
      if (from.isEmpty() && to.isEmpty()) {
        throw new IllegalArgumentException("not a range: " + text);
      }
      return new OffsetRange(
          from.isEmpty() ? 0 : Long.parseLong(from),
          to.isEmpty() ? Long.MAX_VALUE : Long.parseLong(to));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "not a range: " + text + " (write N, N-M, N- or -M with whole numbers)", e);
    }
  }

  public boolean contains(final long value) {
    return value >= first && value <= last;
  }

  public boolean isAll() {
    return equals(ALL);
  }

  /** The offset just past the range, saturated: an end offset to read up to. */
  long endExclusive() {
    return last == Long.MAX_VALUE ? Long.MAX_VALUE : last + 1;
  }

  @Override
  public String toString() {
    if (first == last) {
      return Long.toString(first);
    }
    return first + "-" + (last == Long.MAX_VALUE ? "" : Long.toString(last));
  }
}
