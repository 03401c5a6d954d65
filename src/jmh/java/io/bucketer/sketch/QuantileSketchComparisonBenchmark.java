package io.bucketer.sketch;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * DDSketch against KLL, the CPU half of the choice (docs/quantiles.md; the bytes and errors are
 * {@link QuantileSketchComparison}'s): adding readings to a new sketch, per reading, and merging 60
 * serialized minute sketches into one serialized hour sketch, as a rollup would.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class QuantileSketchComparisonBenchmark {

  @Param({"DDSKETCH", "KLL"})
  public SketchCandidate sketch;

  private double[] temperatureMinute;
  private double[] powerMinute;
  private final List<byte[]> temperatureHour = new ArrayList<>();
  private final List<byte[]> powerHour = new ArrayList<>();

  @Setup
  public void sketchTheMinutes() {
    temperatureMinute = SketchShapes.TEMPERATURE.values(60, 1);
    powerMinute = SketchShapes.POWER.values(1_000, 1);
    for (int minute = 0; minute < 60; minute++) {
      temperatureHour.add(sketch.sketch(SketchShapes.TEMPERATURE.values(60, minute)));
      powerHour.add(sketch.sketch(SketchShapes.POWER.values(1_000, minute)));
    }
  }

  /** A 1 Hz minute of a temperature into a new sketch, per reading (not serialized). */
  @Benchmark
  @OperationsPerInvocation(60)
  public Object addSixtyTemperatures() {
    return sketch.build(temperatureMinute);
  }

  /** A full bucket of 1,000 power readings into a new sketch, per reading (not serialized). */
  @Benchmark
  @OperationsPerInvocation(1_000)
  public Object addThousandPowerReadings() {
    return sketch.build(powerMinute);
  }

  /** An hour from 60 serialized minute sketches of 60 temperatures each. */
  @Benchmark
  public byte[] mergeSixtyTemperatureMinutes() {
    return sketch.mergeAll(temperatureHour);
  }

  /** An hour from 60 serialized minute sketches of 1,000 power readings each. */
  @Benchmark
  public byte[] mergeSixtyPowerMinutes() {
    return sketch.mergeAll(powerHour);
  }
}
