package io.bucketer.sketch;

import com.datadoghq.sketch.ddsketch.DDSketch;
import com.datadoghq.sketch.ddsketch.encoding.ByteArrayInput;
import com.datadoghq.sketch.ddsketch.encoding.GrowingByteArrayOutput;
import com.datadoghq.sketch.ddsketch.encoding.VarEncodingHelper;
import com.datadoghq.sketch.ddsketch.mapping.LogarithmicMapping;
import com.datadoghq.sketch.ddsketch.store.Bin;
import com.datadoghq.sketch.ddsketch.store.CollapsingLowestDenseStore;
import com.datadoghq.sketch.ddsketch.store.Store;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Arrays;
import java.util.Iterator;
import java.util.Objects;
import java.util.OptionalDouble;
import java.util.function.ToDoubleFunction;

/**
 * A mergeable quantile sketch of a window's values (DDSketch): any quantile of the values it was
 * built from, within a relative accuracy α of the exact one, and the sketch of a union of windows
 * by merging theirs, whatever the order. Immutable: it holds its encoded bytes, so a record that
 * carries it (a window's state, a closed bucket) stays safe to share.
 *
 * <p><b>The guarantee.</b> {@link #quantile} answers, for q, a value within {@code α·|x|} of x, the
 * exact nearest-rank quantile: the smallest value whose rank (1-based, in ascending order) is at
 * least {@code q·n}. The error is relative to the value, which suits readings spread over a range
 * (power, latency) and is loose for a signal on a large offset (a pressure of 101,325 ± 50 Pa at α
 * = 1 % is answered to ± 1,013 Pa): such a metric needs a smaller α, which costs bins (about {@code
 * ln(max/min)/(2α)} for positive values of one sign).
 *
 * <p><b>Deterministic merges.</b> Counting values into logarithmic bins is exact integer addition,
 * so {@code merge(of(A), of(B))} is {@code of(A ∪ B)} byte for byte, in any order (ValueSketchTest
 * checks it). That is what lets an hour rolled up from its minutes equal an hour built from its
 * readings, and a replay write the same bytes. Each sign keeps at most {@value #MAX_BINS} bins: a
 * store spanning more (values over some 17 orders of magnitude at α = 1 %, but only a factor of 60
 * at 0.1 %: bins narrow with α) folds the bins nearest zero into one, which loses the guarantee for
 * those values only, and still merges deterministically. The bound also caps what decoding a
 * malformed sketch can allocate.
 *
 * <p><b>Bytes</b> (format 1): {@code [format u8 = 1][index mapping u8: 1 = logarithmic][α × 10^6,
 * unsigned varint][DDSketch's own encoding of its zero count and stores, the mapping omitted]}. The
 * mapping is omitted because α and the mapping's kind determine it; keeping them as bucketer's own
 * header means the sketch's parameters stay readable whatever the library does. A golden file
 * (GoldenSketchFormatsTest) pins these bytes.
 *
 * <p>Values: any finite double; negative values and zero are counted in their own stores. A value
 * smaller in magnitude than about 2.2e-308 counts as zero.
 */
public final class ValueSketch {

  /** The relative accuracy bucketer uses unless a metric is configured otherwise: 1 %. */
  public static final double DEFAULT_RELATIVE_ACCURACY = 0.01;

  /** The format byte this version writes and reads. */
  static final int FORMAT = 1;

  /** The index-mapping byte of DDSketch's {@link LogarithmicMapping}. */
  static final int LOGARITHMIC_MAPPING = 1;

  /** The most bins each of the negative and the positive store keeps before it collapses. */
  static final int MAX_BINS = 2048;

  private static final long MICROS_PER_UNIT = 1_000_000;

  // Counts are integers in doubles: exact below 2^53, which no window reaches.
  private static final double MAX_COUNT = 0x1p53;

  private static final long DEFAULT_MAPPING_MICROS = 10_000;

  // Built once: most sketches use the default, and a mapping is immutable.
  private static final LogarithmicMapping DEFAULT_MAPPING =
      new LogarithmicMapping(DEFAULT_RELATIVE_ACCURACY);

  private final byte[] bytes;
  private final long accuracyMicros;
  private final long count;

  private ValueSketch(final byte[] bytes, final long accuracyMicros, final long count) {
    this.bytes = bytes;
    this.accuracyMicros = accuracyMicros;
    this.count = count;
  }

  /** The sketch of no values. */
  public static ValueSketch empty(final double relativeAccuracy) {
    final long micros = accuracyMicros(relativeAccuracy);
    return encoded(newSketch(micros), micros);
  }

  /**
   * The sketch of {@code values}.
   *
   * @throws IllegalArgumentException when a value is not finite, or α is not in (0, 1) or not a
   *     multiple of 10^-6
   */
  public static ValueSketch of(final double[] values, final double relativeAccuracy) {
    final long micros = accuracyMicros(relativeAccuracy);
    final DDSketch sketch = newSketch(micros);
    for (final double value : values) {
      add(sketch, value);
    }
    return encoded(sketch, micros);
  }

  /**
   * The sketch of the values of {@code items}, e.g. {@code of(measurements, Measurement::value,
   * α)}. It takes a function rather than the buckets' {@code Measurement} so that this package
   * depends on none of bucketer's and a closed bucket can carry a sketch without a package cycle.
   *
   * @throws IllegalArgumentException as {@link #of(double[], double)}
   */
  public static <T> ValueSketch of(
      final Iterable<T> items,
      final ToDoubleFunction<? super T> value,
      final double relativeAccuracy) {
    final long micros = accuracyMicros(relativeAccuracy);
    final DDSketch sketch = newSketch(micros);
    for (final T item : items) {
      add(sketch, value.applyAsDouble(item));
    }
    return encoded(sketch, micros);
  }

  /**
   * Reads a sketch from {@link #encode}'s bytes.
   *
   * @throws IllegalArgumentException when the bytes are not a sketch of a format this version
   *     reads: an unknown format or mapping byte, an α out of range, or a malformed body
   */
  public static ValueSketch decode(final byte[] encoded) {
    Objects.requireNonNull(encoded, "encoded");
    if (encoded.length < 3) {
      throw new IllegalArgumentException(
          "not a value sketch: " + encoded.length + " bytes, a sketch has at least 3");
    }
    final int format = encoded[0] & 0xff;
    if (format != FORMAT) {
      throw new IllegalArgumentException(
          "value sketch format "
              + format
              + " is unknown to this version, which reads format "
              + FORMAT);
    }
    final int mapping = encoded[1] & 0xff;
    if (mapping != LOGARITHMIC_MAPPING) {
      throw new IllegalArgumentException(
          "value sketch index mapping "
              + mapping
              + " is unknown to this version, which reads "
              + LOGARITHMIC_MAPPING
              + " (logarithmic)");
    }
    final byte[] copy = encoded.clone();
    final ByteArrayInput input = ByteArrayInput.wrap(copy, 2, copy.length - 2);
    final long micros = decodeAccuracyMicros(input);
    final DDSketch sketch;
    try {
      sketch = decodeBody(input, micros);
    } catch (IOException | RuntimeException e) {
      // The library's refusals: a bad flag, a truncated body, a negative count, an index overflow.
      throw new IllegalArgumentException("a malformed value sketch: its bins do not decode", e);
    }
    return new ValueSketch(copy, micros, checkedCount(sketch));
  }

  /**
   * The sketch of the values of all of {@code sketches}, each of relative accuracy {@code
   * relativeAccuracy}: one decoding each and one encoding, where merging them pairwise would encode
   * every intermediate sketch. The sketch of no values when there are none.
   *
   * @throws IllegalArgumentException when a sketch has another relative accuracy
   */
  public static ValueSketch mergeAll(
      final double relativeAccuracy, final Iterable<ValueSketch> sketches) {
    final long micros = accuracyMicros(relativeAccuracy);
    final DDSketch merged = newSketch(micros);
    for (final ValueSketch sketch : sketches) {
      requireSameAccuracy(micros, sketch.accuracyMicros);
      sketch.mergeInto(merged);
    }
    return encoded(merged, micros);
  }

  /**
   * The sketch of this one's values and {@code other}'s.
   *
   * @throws IllegalArgumentException when the two have different relative accuracies: merging them
   *     would silently lose the finer one's guarantee
   */
  public ValueSketch merge(final ValueSketch other) {
    requireSameAccuracy(accuracyMicros, other.accuracyMicros);
    if (other.count == 0) {
      return this;
    }
    if (count == 0) {
      return other;
    }
    final DDSketch merged = sketch();
    other.mergeInto(merged);
    return encoded(merged, accuracyMicros);
  }

  /**
   * The q-quantile of the values, within {@link #relativeAccuracy} of the exact nearest-rank one
   * (class comment); empty when the sketch holds no value.
   *
   * @param q between 0 and 1: 0.5 the median, 0.95 the 95th percentile
   */
  public OptionalDouble quantile(final double q) {
    if (!(q >= 0 && q <= 1)) {
      throw new IllegalArgumentException("a quantile is between 0 and 1, not " + q);
    }
    if (count == 0) {
      return OptionalDouble.empty();
    }
    // DDSketch's own getValueAtQuantile takes the value of rank q·(n − 1), 0-based, which for q
    // near 1 and a small n is one value lower than the nearest rank (q = 0.99, n = 60: the 59th
    // value, not the 60th). bucketer states its bound against the nearest rank, so it walks the
    // bins itself. The rank is taken from q as written (its shortest decimal form): in doubles
    // 0.07 × 100 is 7.000000000000001, whose ceiling would be one rank too far.
    final long rank =
        Math.max(
            1,
            BigDecimal.valueOf(q)
                .multiply(BigDecimal.valueOf(count))
                .setScale(0, RoundingMode.CEILING)
                .longValueExact());
    final DDSketch sketch = sketch();
    final LogarithmicMapping mapping = (LogarithmicMapping) sketch.getIndexMapping();
    final Store negative = sketch.getNegativeValueStore();
    final Store positive = sketch.getPositiveValueStore();
    long seen = 0;
    final Iterator<Bin> mostNegativeFirst = negative.getDescendingIterator();
    while (mostNegativeFirst.hasNext()) {
      final Bin bin = mostNegativeFirst.next();
      seen += (long) bin.getCount();
      if (seen >= rank) {
        return OptionalDouble.of(-mapping.value(bin.getIndex()));
      }
    }
    seen += count - (long) negative.getTotalCount() - (long) positive.getTotalCount();
    if (seen >= rank) {
      return OptionalDouble.of(0);
    }
    final Iterator<Bin> ascending = positive.getAscendingIterator();
    while (ascending.hasNext()) {
      final Bin bin = ascending.next();
      seen += (long) bin.getCount();
      if (seen >= rank) {
        return OptionalDouble.of(mapping.value(bin.getIndex()));
      }
    }
    throw new IllegalStateException("the bins count fewer values than the sketch: " + count);
  }

  /** How many values the sketch was built from. */
  public long count() {
    return count;
  }

  /** α: every quantile is within α·|x| of the exact one, x. */
  public double relativeAccuracy() {
    return (double) accuracyMicros / MICROS_PER_UNIT;
  }

  /** How many bytes {@link #encode} gives, without copying them. */
  public int encodedLength() {
    return bytes.length;
  }

  /** The sketch's bytes (format 1, class comment); a copy. */
  public byte[] encode() {
    return bytes.clone();
  }

  /** Equal when their bytes are: the same values at the same α give the same bytes. */
  @Override
  public boolean equals(final Object other) {
    return other instanceof ValueSketch that && Arrays.equals(bytes, that.bytes);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(bytes);
  }

  @Override
  public String toString() {
    return "ValueSketch[count="
        + count
        + ", relativeAccuracy="
        + relativeAccuracy()
        + ", bytes="
        + bytes.length
        + "]";
  }

  private DDSketch sketch() {
    final ByteArrayInput input = ByteArrayInput.wrap(bytes, 2, bytes.length - 2);
    try {
      VarEncodingHelper.decodeUnsignedVarLong(input);
      return decodeBody(input, accuracyMicros);
    } catch (IOException e) {
      // The bytes were encoded or checked when this sketch was made.
      throw new UncheckedIOException(e);
    }
  }

  /** Adds this sketch's bins to {@code target}, which has the same mapping, without a copy. */
  private void mergeInto(final DDSketch target) {
    if (count == 0) {
      return;
    }
    final ByteArrayInput input = ByteArrayInput.wrap(bytes, 2, bytes.length - 2);
    try {
      VarEncodingHelper.decodeUnsignedVarLong(input);
      target.decodeAndMergeWith(input);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static long decodeAccuracyMicros(final ByteArrayInput input) {
    final long micros;
    try {
      micros = VarEncodingHelper.decodeUnsignedVarLong(input);
    } catch (IOException e) {
      throw new IllegalArgumentException("a malformed value sketch: no relative accuracy", e);
    }
    if (micros <= 0 || micros >= MICROS_PER_UNIT) {
      throw new IllegalArgumentException(
          "a malformed value sketch: relative accuracy " + micros + " millionths is not in (0, 1)");
    }
    return micros;
  }

  private static DDSketch decodeBody(final ByteArrayInput input, final long micros)
      throws IOException {
    return DDSketch.decode(input, ValueSketch::newStore, mapping(micros));
  }

  private static void add(final DDSketch sketch, final double value) {
    if (!Double.isFinite(value)) {
      throw new IllegalArgumentException("a sketch counts finite values only, not " + value);
    }
    try {
      sketch.accept(value);
    } catch (IllegalArgumentException e) {
      // Beyond about ±1.78e308 at α = 1 %: the bin index would overflow.
      throw new IllegalArgumentException("value " + value + " is beyond what a sketch counts", e);
    }
  }

  private static ValueSketch encoded(final DDSketch sketch, final long micros) {
    final GrowingByteArrayOutput output = GrowingByteArrayOutput.withInitialCapacity(32);
    try {
      output.writeByte((byte) FORMAT);
      output.writeByte((byte) LOGARITHMIC_MAPPING);
      VarEncodingHelper.encodeUnsignedVarLong(output, micros);
      sketch.encode(output, true);
    } catch (IOException e) {
      // A byte array output does not fail.
      throw new UncheckedIOException(e);
    }
    return new ValueSketch(output.trimmedCopy(), micros, (long) sketch.getCount());
  }

  private static DDSketch newSketch(final long micros) {
    return new DDSketch(mapping(micros), ValueSketch::newStore);
  }

  private static Store newStore() {
    return new CollapsingLowestDenseStore(MAX_BINS);
  }

  private static LogarithmicMapping mapping(final long micros) {
    return micros == DEFAULT_MAPPING_MICROS
        ? DEFAULT_MAPPING
        : new LogarithmicMapping((double) micros / MICROS_PER_UNIT);
  }

  private static long accuracyMicros(final double relativeAccuracy) {
    final long micros = Math.round(relativeAccuracy * MICROS_PER_UNIT);
    if (!(relativeAccuracy > 0 && relativeAccuracy < 1)
        || micros <= 0
        || (double) micros / MICROS_PER_UNIT != relativeAccuracy) {
      throw new IllegalArgumentException(
          "a sketch's relative accuracy is in (0, 1) and a multiple of 0.000001, not "
              + relativeAccuracy);
    }
    return micros;
  }

  private static void requireSameAccuracy(final long micros, final long otherMicros) {
    if (micros != otherMicros) {
      throw new IllegalArgumentException(
          "sketches of relative accuracy "
              + (double) micros / MICROS_PER_UNIT
              + " and "
              + (double) otherMicros / MICROS_PER_UNIT
              + " do not merge: the result would lose the finer one's guarantee");
    }
  }

  /**
   * The number of values a decoded sketch holds, after checking that each bin counts whole values.
   */
  private static long checkedCount(final DDSketch sketch) {
    final double total = sketch.getCount();
    if (!(total >= 0 && total <= MAX_COUNT && total == Math.rint(total))) {
      throw new IllegalArgumentException(
          "a malformed value sketch: it counts " + total + " values");
    }
    checkWholeCounts(sketch.getNegativeValueStore());
    checkWholeCounts(sketch.getPositiveValueStore());
    return (long) total;
  }

  private static void checkWholeCounts(final Store store) {
    store.forEach(
        (index, binCount) -> {
          if (!(binCount > 0 && binCount == Math.rint(binCount))) {
            throw new IllegalArgumentException(
                "a malformed value sketch: a bin counts " + binCount + " values");
          }
        });
  }
}
