package io.bucketer.sketch;

import com.datadoghq.sketch.ddsketch.DDSketch;
import com.datadoghq.sketch.ddsketch.mapping.LogarithmicMapping;
import com.datadoghq.sketch.ddsketch.store.CollapsingLowestDenseStore;
import java.util.ArrayList;
import java.util.List;
import org.apache.datasketches.kll.KllDoublesSketch;
import org.apache.datasketches.memory.Memory;
import org.apache.datasketches.quantilescommon.QuantileSearchCriteria;

/**
 * The two quantile sketches issue 31 names, each as bucketer would hold it: serialized bytes made
 * from a window's values, merged from bytes into bytes at rollup, and asked a quantile (nearest
 * rank). DDSketch through {@link ValueSketch} (α = 1 %, 2,048 bins a store); KLL doubles with k =
 * 200, its default (about 1.33 % rank error at 99 % confidence), compact serialization.
 */
public enum SketchCandidate {
  DDSKETCH {
    @Override
    Object build(final double[] values) {
      final DDSketch sketch =
          new DDSketch(
              new LogarithmicMapping(ValueSketch.DEFAULT_RELATIVE_ACCURACY),
              () -> new CollapsingLowestDenseStore(ValueSketch.MAX_BINS));
      for (final double value : values) {
        sketch.accept(value);
      }
      return sketch;
    }

    @Override
    byte[] sketch(final double[] values) {
      return ValueSketch.of(values, ValueSketch.DEFAULT_RELATIVE_ACCURACY).encode();
    }

    @Override
    byte[] mergeAll(final List<byte[]> parts) {
      final List<ValueSketch> sketches = new ArrayList<>(parts.size());
      for (final byte[] part : parts) {
        sketches.add(ValueSketch.decode(part));
      }
      return ValueSketch.mergeAll(ValueSketch.DEFAULT_RELATIVE_ACCURACY, sketches).encode();
    }

    @Override
    double quantile(final byte[] sketch, final double q) {
      return ValueSketch.decode(sketch).quantile(q).orElseThrow();
    }
  },

  KLL {
    @Override
    Object build(final double[] values) {
      final KllDoublesSketch sketch = KllDoublesSketch.newHeapInstance(K);
      for (final double value : values) {
        sketch.update(value);
      }
      return sketch;
    }

    @Override
    byte[] sketch(final double[] values) {
      return ((KllDoublesSketch) build(values)).toByteArray();
    }

    @Override
    byte[] mergeAll(final List<byte[]> parts) {
      final KllDoublesSketch merged = KllDoublesSketch.newHeapInstance(K);
      for (final byte[] part : parts) {
        merged.merge(KllDoublesSketch.heapify(Memory.wrap(part)));
      }
      return merged.toByteArray();
    }

    @Override
    double quantile(final byte[] sketch, final double q) {
      return KllDoublesSketch.heapify(Memory.wrap(sketch))
          .getQuantile(q, QuantileSearchCriteria.INCLUSIVE);
    }
  };

  /** KLL's default k. */
  static final int K = 200;

  /** The library's sketch of {@code values}, not serialized: what adding costs. */
  abstract Object build(double[] values);

  /** The serialized sketch of {@code values}. */
  abstract byte[] sketch(double[] values);

  /** The serialized sketch of all of {@code parts}' values, from their serialized sketches. */
  abstract byte[] mergeAll(List<byte[]> parts);

  /** The nearest-rank q-quantile a serialized sketch answers. */
  abstract double quantile(byte[] sketch, double q);
}
