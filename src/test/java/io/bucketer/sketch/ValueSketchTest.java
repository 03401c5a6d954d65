package io.bucketer.sketch;

import static io.bucketer.testing.ExactQuantiles.nearestRank;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.function.DoubleSupplier;
import java.util.stream.DoubleStream;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;

class ValueSketchTest {

  private static final double ALPHA = ValueSketch.DEFAULT_RELATIVE_ACCURACY;

  private static final double[] QUANTILES = {0, 0.01, 0.25, 0.5, 0.9, 0.95, 0.99, 0.999, 1};

  /** Fixed, so a failure is reproduced by running the test again. */
  private static final long SEED = 31;

  @Test
  void shouldMergeIntoTheSketchOfTheUnionByteForByteInAnyOrder() {
    final Random random = new Random(SEED);
    for (int trial = 0; trial < 300; trial++) {
      final double[] values = stream(random, trial % SHAPES, 1 + random.nextInt(2_000));
      final ValueSketch union = ValueSketch.of(values, ALPHA);

      for (int order = 0; order < 5; order++) {
        final List<ValueSketch> parts =
            sketchesOfParts(random, values, 1 + random.nextInt(60), ALPHA);
        Collections.shuffle(parts, random);

        assertThat(foldLeft(parts).encode())
            .as("trial %d, %d parts folded left", trial, parts.size())
            .isEqualTo(union.encode());
        assertThat(mergeAsATree(random, parts).encode())
            .as("trial %d, %d parts merged as a random tree", trial, parts.size())
            .isEqualTo(union.encode());
        assertThat(ValueSketch.mergeAll(ALPHA, parts).encode())
            .as("trial %d, %d parts merged at once", trial, parts.size())
            .isEqualTo(union.encode());
      }
    }
  }

  /**
   * Values over 80 orders of magnitude need more than the 2,048 bins a store keeps at α = 1 %: the
   * lowest collapse into one, in the sketch of the union as in every merge, and the merges still
   * give its bytes. The parts' ranges are apart, so some parts collapse only when merged.
   */
  @Test
  void shouldMergeIntoTheSketchOfTheUnionByteForByteWhenTheStoresCollapse() {
    final Random random = new Random(SEED);
    for (int trial = 0; trial < 100; trial++) {
      final double[] values = new double[500 + random.nextInt(1_500)];
      for (int i = 0; i < values.length; i++) {
        final double magnitude = Math.pow(10, -40 + 80 * random.nextDouble());
        values[i] = random.nextInt(4) == 0 ? -magnitude : magnitude;
      }
      final ValueSketch union = ValueSketch.of(values, ALPHA);
      assertThat(collapsed(union, values)).as("the union's stores collapsed").isTrue();
      final double[] ordered = values.clone();
      Arrays.sort(ordered);
      assertThat(union.quantile(0))
          .as("the most negative value keeps its guarantee")
          .hasValueCloseTo(ordered[0], offsetOf(ordered[0]));
      assertThat(union.quantile(1))
          .as("the largest value keeps its guarantee")
          .hasValueCloseTo(ordered[ordered.length - 1], offsetOf(ordered[ordered.length - 1]));

      // Parts by magnitude: the small values' sketches collapse nothing, their union must.
      final double[] sorted = values.clone();
      Arrays.sort(sorted);
      final List<ValueSketch> byMagnitude = new ArrayList<>();
      for (int from = 0; from < sorted.length; from += 100) {
        byMagnitude.add(
            ValueSketch.of(
                Arrays.copyOfRange(sorted, from, Math.min(sorted.length, from + 100)), ALPHA));
      }
      final List<ValueSketch> cut = sketchesOfParts(random, values, 2 + random.nextInt(30), ALPHA);
      final List<ValueSketch> both = new ArrayList<>(byMagnitude);
      both.addAll(cut);
      final ValueSketch thrice = ValueSketch.of(concat(values, values, values), ALPHA);

      for (int order = 0; order < 5; order++) {
        Collections.shuffle(byMagnitude, random);
        Collections.shuffle(cut, random);
        Collections.shuffle(both, random);
        assertThat(mergeAsATree(random, byMagnitude).encode())
            .as("trial %d: parts by magnitude merged as a random tree", trial)
            .isEqualTo(union.encode());
        assertThat(foldLeft(cut).encode())
            .as("trial %d: random parts folded left", trial)
            .isEqualTo(union.encode());
        assertThat(ValueSketch.mergeAll(ALPHA, both).merge(union).encode())
            .as("trial %d: both cuts and the union, each value three times", trial)
            .isEqualTo(thrice.encode());
      }
    }
  }

  @Test
  void shouldAnswerQuantilesWithinTheRelativeAccuracyOfTheExactNearestRank() {
    final Random random = new Random(SEED);
    for (final double alpha : new double[] {0.001, 0.01, 0.05}) {
      for (int trial = 0; trial < 200; trial++) {
        final int size = trial < 5 ? trial + 1 : 1 + random.nextInt(5_000);
        final double[] values = stream(random, trial % SHAPES, size);
        final List<ValueSketch> parts =
            sketchesOfParts(random, values, 1 + random.nextInt(10), alpha);
        final ValueSketch sketch = ValueSketch.mergeAll(alpha, parts);
        final double[] sorted = values.clone();
        Arrays.sort(sorted);

        assertThat(sketch.count()).isEqualTo(values.length);
        for (final double q : QUANTILES) {
          final double exact = nearestRank(sorted, q);
          if (!keptUncollapsed(alpha, sorted, exact)) {
            continue;
          }
          assertThat(sketch.quantile(q))
              .as(
                  "α %s, shape %d, %d values, q %s: exact %s",
                  alpha, trial % SHAPES, size, q, exact)
              .hasValueCloseTo(exact, Offset.offset(bound(alpha, exact)));
        }
      }
    }
  }

  /**
   * DDSketch's own quantile takes rank q·(n − 1): for 1, 2, …, 60 and q = 0.99 the 59th value, 1.7
   * % below the nearest-rank 60th. ValueSketch answers the nearest rank.
   */
  @Test
  void shouldAnswerTheNearestRankNotTheRankBelowIt() {
    final double[] minute = DoubleStream.iterate(1, v -> v <= 60, v -> v + 1).toArray();

    final ValueSketch sketch = ValueSketch.of(minute, ALPHA);

    assertThat(sketch.quantile(0.99)).hasValueCloseTo(60.0, offsetOf(60));
    assertThat(sketch.quantile(0.5)).hasValueCloseTo(30.0, offsetOf(30));
    assertThat(sketch.quantile(0.51)).hasValueCloseTo(31.0, offsetOf(31));
  }

  @Test
  void shouldCountNegativeValuesAndZerosInTheirOwnStores() {
    final ValueSketch sketch = ValueSketch.of(new double[] {5, 0, -3, 0, -0.0, 2}, ALPHA);

    assertThat(sketch.count()).isEqualTo(6);
    // in order -3, 0, 0, 0, 2, 5: rank ceil(q·6)
    assertThat(sketch.quantile(0).orElseThrow()).isCloseTo(-3, offsetOf(3));
    assertThat(sketch.quantile(0.1).orElseThrow()).isCloseTo(-3, offsetOf(3));
    assertThat(sketch.quantile(0.2).orElseThrow()).isZero();
    assertThat(sketch.quantile(0.5).orElseThrow()).isZero();
    assertThat(sketch.quantile(0.6).orElseThrow()).isZero();
    assertThat(sketch.quantile(0.8).orElseThrow()).isCloseTo(2, offsetOf(2));
    assertThat(sketch.quantile(1).orElseThrow()).isCloseTo(5, offsetOf(5));
  }

  @Test
  void shouldAnswerNothingForNoValues() {
    final ValueSketch empty = ValueSketch.empty(ALPHA);

    assertThat(empty.count()).isZero();
    assertThat(empty.quantile(0.5)).isEmpty();
    assertThat(ValueSketch.of(new double[0], ALPHA)).isEqualTo(empty);
    assertThat(ValueSketch.mergeAll(ALPHA, List.of())).isEqualTo(empty);
    assertThat(ValueSketch.decode(empty.encode())).isEqualTo(empty);
    final ValueSketch some = ValueSketch.of(new double[] {1, 2, 3}, ALPHA);
    assertThat(empty.merge(some)).isEqualTo(some);
    assertThat(some.merge(empty)).isEqualTo(some);
  }

  @Test
  void shouldSketchMeasurementsAsTheirValues() {
    record Reading(long timestamp, double value) {}
    final List<Reading> readings =
        List.of(new Reading(1_000, 21.5), new Reading(2_000, -4), new Reading(3_000, 0));

    assertThat(ValueSketch.of(readings, Reading::value, ALPHA))
        .isEqualTo(ValueSketch.of(new double[] {21.5, -4, 0}, ALPHA));
  }

  @Test
  void shouldDecodeWhatItEncodes() {
    final Random random = new Random(SEED);
    for (int shape = 0; shape < SHAPES; shape++) {
      final ValueSketch sketch = ValueSketch.of(stream(random, shape, 1_000), 0.002);

      final ValueSketch decoded = ValueSketch.decode(sketch.encode());

      assertThat(decoded).isEqualTo(sketch);
      assertThat(decoded.encode()).isEqualTo(sketch.encode());
      assertThat(decoded.count()).isEqualTo(1_000);
      assertThat(decoded.relativeAccuracy()).isEqualTo(0.002);
      for (final double q : QUANTILES) {
        assertThat(decoded.quantile(q)).isEqualTo(sketch.quantile(q));
      }
    }
  }

  @Test
  void shouldKeepItsBytesWhateverCallersDoWithTheirs() {
    final byte[] given = ValueSketch.of(new double[] {1, 2, 3}, ALPHA).encode();
    final ValueSketch sketch = ValueSketch.decode(given);
    final byte[] expected = given.clone();

    given[given.length - 1] ^= 0x7f;
    sketch.encode()[3] ^= 0x7f;

    assertThat(sketch.encode()).isEqualTo(expected);
  }

  @Test
  void shouldWriteBucketersHeaderBeforeTheLibrarysEncoding() {
    final byte[] bytes = ValueSketch.of(new double[] {1}, 0.01).encode();

    // format 1, logarithmic mapping 1, α = 10,000 millionths as an unsigned varint (0x90 0x4e)
    assertThat(Arrays.copyOf(bytes, 4)).containsExactly(1, 1, 0x90, 0x4e);
  }

  @Test
  void shouldRefuseToMergeSketchesOfDifferentAccuracy() {
    final ValueSketch percent = ValueSketch.of(new double[] {1}, 0.01);
    final ValueSketch twoPercent = ValueSketch.of(new double[] {1}, 0.02);

    assertThatThrownBy(() -> percent.merge(twoPercent))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "sketches of relative accuracy 0.01 and 0.02 do not merge: the result would lose the"
                + " finer one's guarantee");
    assertThatThrownBy(() -> ValueSketch.mergeAll(0.01, List.of(percent, twoPercent)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("0.01 and 0.02 do not merge");
    assertThatThrownBy(() -> percent.merge(ValueSketch.empty(0.02)))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void shouldRefuseAnUnknownFormatOrMapping() {
    final byte[] later = ValueSketch.of(new double[] {1}, ALPHA).encode();
    later[0] = 2;
    final byte[] otherMapping = ValueSketch.of(new double[] {1}, ALPHA).encode();
    otherMapping[1] = 3;

    assertThatThrownBy(() -> ValueSketch.decode(later))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("value sketch format 2 is unknown to this version, which reads format 1");
    assertThatThrownBy(() -> ValueSketch.decode(otherMapping))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "value sketch index mapping 3 is unknown to this version, which reads 1 (logarithmic)");
  }

  @Test
  void shouldRefuseMalformedBytes() {
    final byte[] sketch = ValueSketch.of(new double[] {1, 2, 3, -4}, ALPHA).encode();

    assertThatThrownBy(() -> ValueSketch.decode(new byte[] {1, 1}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("not a value sketch: 2 bytes");
    assertThatThrownBy(() -> ValueSketch.decode(Arrays.copyOf(sketch, sketch.length - 1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("a malformed value sketch: its bins do not decode");
    assertThatThrownBy(() -> ValueSketch.decode(new byte[] {1, 1, 0}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("relative accuracy 0 millionths is not in (0, 1)");
    assertThatThrownBy(() -> ValueSketch.decode(new byte[] {1, 1, (byte) 0x90}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("a malformed value sketch: no relative accuracy");
    final byte[] garbage = sketch.clone();
    garbage[4] = (byte) 0xff;
    assertThatThrownBy(() -> ValueSketch.decode(garbage))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("a malformed value sketch");
  }

  @Test
  void shouldRefuseWhatItCannotSketch() {
    for (final double alpha : new double[] {0, 1, -0.01, Double.NaN, 0.0000001, 0.0100005}) {
      assertThatThrownBy(() -> ValueSketch.of(new double[] {1}, alpha))
          .as("α %s", alpha)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("relative accuracy is in (0, 1) and a multiple of 0.000001");
    }
    for (final double value :
        new double[] {Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY}) {
      assertThatThrownBy(() -> ValueSketch.of(new double[] {1, value}, ALPHA))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("a sketch counts finite values only, not " + value);
    }
    assertThatThrownBy(() -> ValueSketch.of(new double[] {Double.MAX_VALUE}, ALPHA))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("is beyond what a sketch counts");
    final ValueSketch sketch = ValueSketch.of(new double[] {1}, ALPHA);
    for (final double q : new double[] {-0.01, 1.01, Double.NaN}) {
      assertThatThrownBy(() -> sketch.quantile(q))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("a quantile is between 0 and 1, not " + q);
    }
  }

  // --- the oracle and the generated streams

  /**
   * Whether the guarantee covers {@code exact}: each sign's store keeps the top 2,048 bins of
   * magnitudes (each a factor γ = (1 + α)/(1 − α) wide) and folds lower ones into the lowest kept;
   * at α = 1 % that spans 10^17, at 0.1 % only a factor 60. One bin of margin for rounding.
   */
  private static boolean keptUncollapsed(
      final double alpha, final double[] sorted, final double exact) {
    if (exact == 0) {
      return true;
    }
    final double largestOfItsSign = exact > 0 ? sorted[sorted.length - 1] : -sorted[0];
    final double gamma = (1 + alpha) / (1 - alpha);
    return Math.log(largestOfItsSign / Math.abs(exact))
        <= (ValueSketch.MAX_BINS - 2) * Math.log(gamma);
  }

  /** What the relative accuracy allows around an exact value, and a little for rounding. */
  private static double bound(final double alpha, final double exact) {
    return alpha * Math.abs(exact) * (1 + 1e-9) + Double.MIN_NORMAL;
  }

  private static Offset<Double> offsetOf(final double exact) {
    return Offset.offset(bound(ALPHA, exact));
  }

  private static final int SHAPES = 7;

  /** A stream of one of seven shapes, some with negative values, zeros and ties. */
  static double[] stream(final Random random, final int shape, final int size) {
    final DoubleSupplier next =
        switch (shape) {
          // a room's temperature with sensor noise, to 0.01 °C
          case 0 -> () -> Math.round((24 + 3 * Math.sin(random.nextDouble() * 6.3)) * 100) / 100.0;
          // an outdoor temperature around freezing: negative, zero and positive
          case 1 -> () -> Math.round(random.nextGaussian() * 800) / 100.0;
          // power in bursts: idle 0.2–0.4 kW, 5 % of the time 2–5 kW
          case 2 ->
              () ->
                  random.nextInt(20) == 0
                      ? 2 + 3 * random.nextDouble()
                      : 0.2 + 0.2 * random.nextDouble();
          // latencies: log-normal, over orders of magnitude
          case 3 -> () -> Math.exp(random.nextGaussian() * 2 + 3);
          // a counter's steps: small integers, many ties, zeros
          case 4 -> () -> random.nextInt(5);
          // a constant
          case 5 -> () -> 1013.25;
          // anything: signs and magnitudes mixed
          default ->
              () ->
                  (random.nextBoolean() ? 1 : -1)
                      * Math.pow(10, random.nextInt(13) - 6)
                      * random.nextDouble();
        };
    return DoubleStream.generate(next).limit(size).toArray();
  }

  /** The values cut into {@code parts} runs of random lengths (some empty), sketched one by one. */
  private static List<ValueSketch> sketchesOfParts(
      final Random random, final double[] values, final int parts, final double alpha) {
    final int[] cuts = new int[parts + 1];
    for (int i = 1; i < parts; i++) {
      cuts[i] = random.nextInt(values.length + 1);
    }
    cuts[parts] = values.length;
    Arrays.sort(cuts);
    final List<ValueSketch> sketches = new ArrayList<>();
    for (int i = 0; i < parts; i++) {
      sketches.add(ValueSketch.of(Arrays.copyOfRange(values, cuts[i], cuts[i + 1]), alpha));
    }
    return sketches;
  }

  private static ValueSketch foldLeft(final List<ValueSketch> parts) {
    ValueSketch merged = ValueSketch.empty(ALPHA);
    for (final ValueSketch part : parts) {
      merged = merged.merge(part);
    }
    return merged;
  }

  /** Merges two random neighbours until one sketch is left: every bracketing is possible. */
  private static ValueSketch mergeAsATree(final Random random, final List<ValueSketch> parts) {
    final List<ValueSketch> left = new ArrayList<>(parts);
    if (left.isEmpty()) {
      return ValueSketch.empty(ALPHA);
    }
    while (left.size() > 1) {
      final int i = random.nextInt(left.size() - 1);
      left.set(i, left.get(i).merge(left.remove(i + 1)));
    }
    return left.get(0);
  }

  /** Whether the lowest magnitudes lost their guarantee: the sign of the collapse. */
  private static boolean collapsed(final ValueSketch sketch, final double[] values) {
    double smallestPositive = Double.MAX_VALUE;
    long positives = 0;
    for (final double value : values) {
      if (value > 0) {
        positives++;
        smallestPositive = Math.min(smallestPositive, value);
      }
    }
    final long negatives = values.length - positives;
    // the rank of the smallest positive value is negatives + 1: ceil(q·n) with a q between
    final double q = (negatives + 0.5) / values.length;
    final double answered = sketch.quantile(q).orElseThrow();
    return Math.abs(answered - smallestPositive) > bound(ALPHA, smallestPositive);
  }

  private static double[] concat(final double[]... arrays) {
    return Arrays.stream(arrays).flatMapToDouble(Arrays::stream).toArray();
  }
}
