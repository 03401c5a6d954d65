package io.bucketer.query;

import io.bucketer.buckets.Granularity;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Which stored data answers a statistic over {@code [from, to)} with the fewest documents: the
 * coarsest buckets that lie wholly inside the range, then, for what is left at either edge, the
 * next finer buckets that lie wholly inside that, and so on; where an edge falls inside a bucket of
 * the finest granularity, that stretch is read from the bucket's raw measurements. This is the
 * lookup of MongoDB's schema-design article on bucketing (seeds 000 and 004): an hour aligned on
 * the hour is one hour bucket; 14:30–16:30 is one hour bucket and sixty minute buckets.
 *
 * <p>Any set of granularities works, including sizes that do not divide each other (7m and 1h):
 * each edge is planned again with every finer granularity, so nothing is counted twice and nothing
 * is left out. The parts come back in time order.
 */
public final class RangePlan {

  /** One part of the range: whole buckets of one granularity, or raw measurements. */
  public sealed interface Part permits WholeBuckets, RawMeasurements {
    long from();

    long to();
  }

  /** The buckets of {@code granularity} starting in {@code [from, to)}, each wholly inside. */
  public record WholeBuckets(Granularity granularity, long from, long to) implements Part {
    public long bucketCount() {
      return (to - from) / granularity.sizeMillis();
    }
  }

  /**
   * The measurements with {@code from <= timestamp < to}, read from the finest buckets that overlap
   * the stretch.
   */
  public record RawMeasurements(Granularity finest, long from, long to) implements Part {}

  private RangePlan() {}

  /**
   * Plans {@code [from, to)} over {@code granularities} (any order).
   *
   * @throws IllegalArgumentException when {@code from >= to} or no granularity is given
   */
  public static List<Part> of(
      final List<Granularity> granularities, final long from, final long to) {
    if (from >= to) {
      throw new IllegalArgumentException("from must be before to: " + from + " >= " + to);
    }
    if (granularities.isEmpty()) {
      throw new IllegalArgumentException("at least one granularity is required");
    }
    final List<Granularity> coarsestFirst =
        granularities.stream().sorted(Comparator.reverseOrder()).toList();
    final List<Part> parts = new ArrayList<>();
    plan(coarsestFirst, 0, from, to, parts);
    return parts;
  }

  private static void plan(
      final List<Granularity> coarsestFirst,
      final int level,
      final long from,
      final long to,
      final List<Part> parts) {
    if (from >= to) {
      return;
    }
    if (level == coarsestFirst.size()) {
      parts.add(new RawMeasurements(coarsestFirst.get(level - 1), from, to));
      return;
    }
    final Granularity granularity = coarsestFirst.get(level);
    final long size = granularity.sizeMillis();
    final long firstWhole = Math.floorDiv(from + size - 1, size) * size; // first start >= from
    final long endOfWhole = Math.floorDiv(to, size) * size; // last end <= to
    if (firstWhole >= endOfWhole) {
      plan(coarsestFirst, level + 1, from, to, parts);
      return;
    }
    plan(coarsestFirst, level + 1, from, firstWhole, parts);
    parts.add(new WholeBuckets(granularity, firstWhole, endOfWhole));
    plan(coarsestFirst, level + 1, endOfWhole, to, parts);
  }
}
