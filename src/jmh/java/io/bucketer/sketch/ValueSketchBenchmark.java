package io.bucketer.sketch;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What {@link ValueSketch} costs where the window lifecycle will use it (design of issue 31, §2.2):
 * the finest window's sketch built at its close from its readings, a coarse window's sketch merged
 * from its closed minutes' (one at a time, or an hour's 60 at once), and the bytes read back and
 * asked for a p95. Parameter {@code readings}: 60 is a 1 Hz minute of a temperature (21–27 °C
 * noise), 1000 a full bucket of a power meter (0.2–5 kW bursts); each minute sketch of the hour
 * holds as many.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class ValueSketchBenchmark {

  private static final double ALPHA = ValueSketch.DEFAULT_RELATIVE_ACCURACY;

  @Param({"60", "1000"})
  public int readings;

  private double[] minute;
  private final List<ValueSketch> hour = new ArrayList<>();
  private ValueSketch fiftyNineMinutes;
  private ValueSketch sketch;
  private byte[] encoded;

  @Setup
  public void sketchTheMinutes() {
    final SketchShapes shape = readings == 60 ? SketchShapes.TEMPERATURE : SketchShapes.POWER;
    minute = shape.values(readings, 1);
    for (int i = 0; i < 60; i++) {
      hour.add(ValueSketch.of(shape.values(readings, 100 + i), ALPHA));
    }
    fiftyNineMinutes = ValueSketch.mergeAll(ALPHA, hour.subList(0, 59));
    sketch = ValueSketch.of(minute, ALPHA);
    encoded = sketch.encode();
  }

  /** The sketch of a window's readings, encoded: what a finest window's close adds. */
  @Benchmark
  public ValueSketch of() {
    return ValueSketch.of(minute, ALPHA);
  }

  /** An hour's sketch from its 60 minutes' at once (a backfill, a range read). */
  @Benchmark
  public ValueSketch mergeSixtyMinutes() {
    return ValueSketch.mergeAll(ALPHA, hour);
  }

  /** The 60th minute merged into the hour's sketch so far: what a rollup does per finer close. */
  @Benchmark
  public ValueSketch mergeOneMinuteIntoTheHour() {
    return fiftyNineMinutes.merge(hour.get(59));
  }

  /** The bytes out, a copy ({@link #of} and the merges include the library's encoding). */
  @Benchmark
  public byte[] encode() {
    return sketch.encode();
  }

  /** The bytes in: header checked, bins decoded and checked. */
  @Benchmark
  public ValueSketch decode() {
    return ValueSketch.decode(encoded);
  }

  /** A p95 from a sketch: a range read's last step. */
  @Benchmark
  public double p95() {
    return sketch.quantile(0.95).orElseThrow();
  }
}
