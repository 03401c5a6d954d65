package io.bucketer.buckets;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;

/**
 * The time-weighted part of one stretch of a series' time, {@code [start, end)}: how much of it the
 * series' readings cover and the integral of their values over it, from which the time-weighted
 * average follows, and the gaps where no reading stood.
 *
 * <p><b>Definitions.</b> Readings sorted by time, {@code (t_i, v_i)}; {@code G} the max gap.
 * Reading {@code i} covers {@code seg_i = [t_i, t_i + min(t_{i+1} - t_i, G))} (the last reading
 * holds for {@code G}). With step interpolation the series' value there is {@code v_i}; with linear
 * interpolation, where the next reading is within {@code G}, the straight line from {@code v_i} at
 * {@code t_i} to {@code v_{i+1}} at {@code t_{i+1}}, and {@code v_i} where it is not. Of two
 * readings at one time, the later in sorted order wins: the earlier covers nothing. A stretch's
 * covered time is the sum of {@code |seg_i ∩ [start, end)|}, the segment of the reading before the
 * stretch ({@code carryIn}) included, and its integral that of the values over those pieces (with
 * linear interpolation the segment of the stretch's last reading runs towards the first reading
 * after it, {@code carryOut}). A gap is a maximal uncovered stretch of time, cut at the stretch's
 * edges.
 *
 * <p><b>Adjacent parts add up.</b> Each part holds only what falls inside it (a segment crossing a
 * boundary is split there), and the gaps at its two edges, so that {@link #followedBy} of the parts
 * of consecutive stretches equals the part of their union exactly (the integral to floating
 * rounding): coarser windows and ranges follow from finer ones.
 *
 * @param coveredMillis time covered by a reading
 * @param integral the integral of the values over the covered time, value·ms (documents store it in
 *     value·s)
 * @param gaps maximal uncovered stretches
 * @param longestGapMillis the longest of them; 0 without gaps
 * @param gapAtStartMillis the uncovered time from the stretch's start to its first covered time
 * @param gapAtEndMillis the uncovered time from its last covered time to its end
 */
public record TimeWeighted(
    long coveredMillis,
    double integral,
    int gaps,
    long longestGapMillis,
    long gapAtStartMillis,
    long gapAtEndMillis) {

  /** The part of an empty stretch of no time: what {@link #followedBy} leaves unchanged. */
  public static final TimeWeighted NONE = new TimeWeighted(0, 0, 0, 0, 0, 0);

  public TimeWeighted {
    if (coveredMillis < 0
        || gaps < 0
        || longestGapMillis < 0
        || gapAtStartMillis < 0
        || gapAtEndMillis < 0) {
      throw new IllegalArgumentException("not a time-weighted part: " + coveredMillis + " ms");
    }
  }

  /**
   * The part of {@code [start, end)} from the readings in it and the reading before it, in one
   * pass.
   *
   * @param carryIn the series' last reading before {@code start}, or null; one whose hold ends
   *     before {@code start} adds nothing
   * @param sorted the readings with {@code start <= timestamp < end}, in time order
   * @param carryOut the series' first reading at or after {@code end}, or null: only linear
   *     interpolation looks at it
   */
  public static TimeWeighted ofReadings(
      final long start,
      final long end,
      final Measurement carryIn,
      final List<Measurement> sorted,
      final Measurement carryOut,
      final TimeWeighting how) {
    return ofStretches(new long[] {start, end}, carryIn, sorted, carryOut, how).get(0);
  }

  /**
   * The parts of consecutive stretches {@code [bounds[k], bounds[k + 1])}, in one pass over the
   * readings: the parts of a coarse window's finer windows, which {@link #followedBy} adds up to
   * the window's own part exactly.
   *
   * @param bounds increasing times, at least two
   * @param carryIn the series' last reading before {@code bounds[0]}, or null
   * @param sorted the readings with {@code bounds[0] <= timestamp < bounds[last]}, in time order
   * @param carryOut the series' first reading at or after {@code bounds[last]}, or null
   */
  public static List<TimeWeighted> ofStretches(
      final long[] bounds,
      final Measurement carryIn,
      final List<Measurement> sorted,
      final Measurement carryOut,
      final TimeWeighting how) {
    final int stretches = bounds.length - 1;
    if (stretches < 1) {
      throw new IllegalArgumentException("a stretch needs a start and an end");
    }
    if (carryOut != null && carryOut.timestamp() < bounds[stretches]) {
      throw new IllegalArgumentException("the carried-out reading is not after the stretch");
    }
    final List<TimeWeighted> parts = new ArrayList<>(stretches);
    int stretch = 0;
    Part part = new Part(bounds[0], bounds[1]);
    final int readings = sorted.size();
    for (int i = carryIn == null ? 0 : -1; i < readings; i++) {
      final Measurement reading = i < 0 ? carryIn : sorted.get(i);
      if (i < 0 && reading.timestamp() >= bounds[0]) {
        throw new IllegalArgumentException("the carried-in reading is not before the stretch");
      }
      final Measurement following = i + 1 < readings ? sorted.get(i + 1) : carryOut;
      final long next = following == null ? Long.MAX_VALUE : following.timestamp();
      long from = reading.timestamp();
      final long to = from + how.holdMillis(from, next);
      final Segment segment = Segment.of(reading, following, to, how);
      // A segment ends at the next reading at the latest, so segments come in time order and never
      // overlap; one may cross several stretches when the max gap is longer than they are.
      while (from < to) {
        if (from >= part.end) {
          parts.add(part.finish());
          if (++stretch == stretches) {
            return parts;
          }
          part = new Part(bounds[stretch], bounds[stretch + 1]);
          continue;
        }
        final long coveredFrom = Math.max(from, part.start);
        final long coveredTo = Math.min(to, part.end);
        if (coveredTo > coveredFrom) {
          part.cover(coveredFrom, coveredTo, segment);
        }
        // Either the segment ends here (or ended before this stretch), or it goes on in the next.
        from = Math.max(coveredTo, from);
      }
    }
    while (true) {
      parts.add(part.finish());
      if (++stretch == stretches) {
        return parts;
      }
      part = new Part(bounds[stretch], bounds[stretch + 1]);
    }
  }

  /**
   * The part of an empty stretch {@code [from, to)}, between the reading {@code before} it (or
   * null) and the one {@code after} it (or null): what the hold of {@code before} covers of it,
   * with the values of the line towards {@code after} under linear interpolation.
   */
  public static TimeWeighted bridge(
      final long from,
      final long to,
      final Measurement before,
      final Measurement after,
      final TimeWeighting how) {
    return ofReadings(from, to, before, List.of(), after, how);
  }

  /**
   * This part followed by the part of the stretch right after this one's: the part of both
   * stretches. Covered time and integral add; a gap at the boundary, ending this part and starting
   * the later, is one gap.
   */
  public TimeWeighted followedBy(final TimeWeighted later) {
    final boolean joinedGap = gapAtEndMillis > 0 && later.gapAtStartMillis > 0;
    return new TimeWeighted(
        coveredMillis + later.coveredMillis,
        integral + later.integral,
        gaps + later.gaps - (joinedGap ? 1 : 0),
        Math.max(
            Math.max(longestGapMillis, later.longestGapMillis),
            gapAtEndMillis + later.gapAtStartMillis),
        // A part that covers nothing is one gap from its start to its end.
        coveredMillis == 0 ? gapAtStartMillis + later.gapAtStartMillis : gapAtStartMillis,
        later.coveredMillis == 0 ? gapAtEndMillis + later.gapAtEndMillis : later.gapAtEndMillis);
  }

  /** The time-weighted average, integral over covered time; empty when nothing is covered. */
  public OptionalDouble twa() {
    return coveredMillis == 0
        ? OptionalDouble.empty()
        : OptionalDouble.of(integral / coveredMillis);
  }

  /** The integral in value·seconds, as documents store it. */
  public double integralValueSeconds() {
    return integral / 1_000;
  }

  /** The covered fraction of a stretch of {@code spanMillis}. */
  public double coverage(final long spanMillis) {
    return (double) coveredMillis / spanMillis;
  }

  /**
   * The values over one reading's segment: its own value, or the line from it towards the next
   * reading. The integral of a piece of a line is its length times the mean of its ends, so pieces
   * cut at stretch boundaries add up to the segment's integral (to floating rounding).
   */
  private record Segment(long time, double value, double slopePerMilli) {

    static Segment of(
        final Measurement reading,
        final Measurement next,
        final long holdEnd,
        final TimeWeighting how) {
      final boolean line =
          how.interpolation() == Interpolation.LINEAR
              && next != null
              && holdEnd == next.timestamp()
              && holdEnd > reading.timestamp();
      return new Segment(
          reading.timestamp(),
          reading.value(),
          line ? (next.value() - reading.value()) / (holdEnd - reading.timestamp()) : 0);
    }

    double integral(final long from, final long to) {
      if (slopePerMilli == 0) {
        return value * (to - from);
      }
      final double atFrom = value + slopePerMilli * (from - time);
      final double atTo = value + slopePerMilli * (to - time);
      return (to - from) * (atFrom + atTo) / 2;
    }
  }

  /** A part being built, stretch by stretch: covered time arrives in time order. */
  private static final class Part {
    private final long start;
    private final long end;

    /** Up to where the stretch has been looked at: covered or counted as a gap. */
    private long seen;

    private long covered;
    private double integral;
    private int gaps;
    private long longestGap;
    private long gapAtStart;

    Part(final long start, final long end) {
      if (end <= start) {
        throw new IllegalArgumentException("stretch [" + start + ", " + end + ") is empty");
      }
      this.start = start;
      this.end = end;
      this.seen = start;
    }

    void cover(final long from, final long to, final Segment segment) {
      gapUpTo(from);
      covered += to - from;
      integral += segment.integral(from, to);
      seen = to;
    }

    TimeWeighted finish() {
      final long gapAtEnd = end - seen;
      gapUpTo(end);
      return new TimeWeighted(covered, integral, gaps, longestGap, gapAtStart, gapAtEnd);
    }

    private void gapUpTo(final long time) {
      if (time > seen) {
        if (seen == start) {
          gapAtStart = time - start;
        }
        gaps++;
        longestGap = Math.max(longestGap, time - seen);
      }
    }
  }
}
