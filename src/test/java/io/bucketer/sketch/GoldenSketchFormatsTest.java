package io.bucketer.sketch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.withinPercentage;

import io.bucketer.testing.GoldenFiles;
import java.util.Map;
import java.util.stream.DoubleStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * The golden file of a value sketch ({@link GoldenFiles}, {@link ValueSketch}, format 1): the bytes
 * that windows, the buckets topic and documents will carry. DDSketch's encoding is part of them, so
 * a library upgrade that changes it fails here instead of changing what is stored; such an upgrade
 * needs a new format (docs/quantiles.md).
 *
 * <p>Missing golden files are written, once, by {@link #shouldWriteTheGoldenFilesThatAreMissing}
 * with {@code -Dbucketer.golden.write=true}; the normal build writes none.
 */
class GoldenSketchFormatsTest {

  /**
   * A 1 Hz minute of a temperature, 21.0 to 26.9 °C (the positive store, densely encoded), with
   * three negative values far apart (the negative store, sparsely encoded) and two zeros.
   */
  static ValueSketch fixedSketch() {
    final double[] values =
        DoubleStream.concat(
                DoubleStream.iterate(0, i -> i < 60, i -> i + 1).map(i -> 21 + (i * 37 % 60) / 10),
                DoubleStream.of(-0.5, -40, -1_000, 0, 0))
            .toArray();
    return ValueSketch.of(values, ValueSketch.DEFAULT_RELATIVE_ACCURACY);
  }

  private static Map<String, byte[]> current() {
    return Map.of("value-sketch-v1.bin", fixedSketch().encode());
  }

  @Test
  void shouldEncodeExactlyTheGoldenSketch() {
    assertThat(fixedSketch().encode()).isEqualTo(GoldenFiles.read("value-sketch-v1.bin"));
  }

  @Test
  void shouldReadTheGoldenSketch() {
    final byte[] golden = GoldenFiles.read("value-sketch-v1.bin");

    final ValueSketch sketch = ValueSketch.decode(golden);

    assertThat(sketch.count()).isEqualTo(65);
    // ranks 1, 3, 5, 33 and 65 of -1000, -40, -0.5, 0, 0, 21.0, 21.1, ..., 26.9
    assertThat(sketch.relativeAccuracy()).isEqualTo(0.01);
    assertThat(sketch.quantile(0).orElseThrow()).isCloseTo(-1_000, withinPercentage(1));
    assertThat(sketch.quantile(2.5 / 65).orElseThrow()).isCloseTo(-0.5, withinPercentage(1));
    assertThat(sketch.quantile(4.5 / 65).orElseThrow()).isZero();
    assertThat(sketch.quantile(0.5).orElseThrow()).isCloseTo(23.7, withinPercentage(1));
    assertThat(sketch.quantile(1).orElseThrow()).isCloseTo(26.9, withinPercentage(1));
    assertThat(sketch.encode()).isEqualTo(golden);
  }

  @Test
  @EnabledIfSystemProperty(named = GoldenFiles.WRITE_PROPERTY, matches = "true")
  void shouldWriteTheGoldenFilesThatAreMissing() {
    GoldenFiles.writeMissing(current());
  }
}
