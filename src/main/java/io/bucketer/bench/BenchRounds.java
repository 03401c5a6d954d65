package io.bucketer.bench;

import java.io.PrintStream;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.DoublePredicate;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;

/**
 * The figures of several measured rounds, each of which ran every contender once, one after
 * another: so the rows are interleaved in time, and a moment of load on the machine falls on one
 * round of each, not on every round of one. What they print is each figure's median over the
 * rounds, with the lowest and the highest: a spread, not a single draw.
 */
public record BenchRounds(List<BenchResults> rounds) {

  /** 2n runs right after 2p, and the order of two rows swings their ratio either way. */
  private static final String ORDER_SWINGS_IT = "(2n runs after 2p: order swings it both ways)";

  public BenchRounds {
    if (rounds.isEmpty()) {
      throw new IllegalArgumentException("no measured round");
    }
    rounds = List.copyOf(rounds);
  }

  /** The last round: the one whose reads and storage were measured too. */
  public BenchResults last() {
    return rounds.get(rounds.size() - 1);
  }

  /** The median of a figure over the rounds, with its lowest and highest value. */
  public record Spread(double median, double min, double max) {

    /** The range as a share of the median: how far two rounds may disagree. */
    public double relativeRange() {
      // a figure that is 0 in every round (a stage with no samples) has no spread, not NaN
      return max == min ? 0 : (max - min) / median;
    }
  }

  /**
   * A figure's spread over the rounds that have it ({@code figure} returns empty for a round that
   * did not run its rows); empty when none has it.
   */
  public Optional<Spread> spread(final Function<BenchResults, Optional<Double>> figure) {
    final double[] values =
        rounds.stream()
            .map(figure)
            .flatMap(Optional::stream)
            .filter(Objects::nonNull)
            .mapToDouble(Double::doubleValue)
            .sorted()
            .toArray();
    if (values.length == 0) {
      return Optional.empty();
    }
    final int middle = values.length / 2;
    final double median =
        values.length % 2 == 1 ? values[middle] : (values[middle - 1] + values[middle]) / 2;
    return Optional.of(new Spread(median, values[0], values[values.length - 1]));
  }

  /** {@link #spread(Function)} of a figure every round has. */
  public Spread spreadOf(final ToDoubleFunction<BenchResults> figure) {
    return spread(round -> Optional.of(figure.applyAsDouble(round))).orElseThrow();
  }

  void print(final PrintStream out) {
    out.println();
    out.printf(
        "Over %d measured rounds, each running every row once: median (min - max), and the range"
            + " as a share of the median%n",
        rounds.size());
    out.printf("%-58s %10s %21s %7s   %s%n", "", "median", "min - max", "range", "target");
    out.println("readings/s");
    rate(out, "1 raw consume + decode", r -> Optional.of(r.raw()));
    rate(out, "1b Kafka Streams floor", r -> Optional.of(r.streamsFloor()));
    rate(out, "2 bucketer", r -> Optional.of(r.processor()));
    rate(out, "2k bucketer, keyed by sensor", r -> Optional.of(r.processorKeyedBySensor()));
    rate(out, "2s bucketer over SASL_SSL", r -> Optional.ofNullable(r.processorOverSaslSsl()));
    rate(out, "2p bucketer over PLAINTEXT", r -> Optional.of(r.processorPlaintextTwin()));
    rate(
        out,
        "2n bucketer, quantiles.enabled=false",
        r -> Optional.of(r.processorWithoutQuantiles()));
    rate(out, "3 MongoDB sink connector", r -> Optional.ofNullable(r.connector()));
    rate(out, "4 Kafka Streams windowed aggregate", r -> Optional.of(r.windowedAggregate().rate()));
    out.println("ratios");
    line(
        out,
        "2/1b end-to-end vs Kafka Streams floor",
        r -> Optional.of(r.processorToFloor()),
        ">= " + BenchResults.MIN_FLOOR_RATIO,
        median -> median >= BenchResults.MIN_FLOOR_RATIO);
    line(
        out, "2/3 end-to-end vs sink connector", withConnector(BenchResults::processorToConnector));
    line(
        out,
        "2k/3 input keyed by sensor vs sink connector",
        withConnector(BenchResults::keyedProcessorToConnector),
        ">= " + BenchResults.MIN_CONNECTOR_RATIO,
        median -> median >= BenchResults.MIN_CONNECTOR_RATIO);
    line(out, "2s/2p over SASL_SSL vs PLAINTEXT", withSaslSsl(BenchResults::saslSslToPlaintext));
    line(
        out,
        "CPU per reading, 2s/2p (SASL_SSL vs PLAINTEXT)",
        withSaslSsl(BenchResults::cpuSaslSslToPlaintext));
    line(
        out,
        "2p/2n quantile sketches on vs off",
        r -> Optional.of(r.quantilesOnToOff()),
        ORDER_SWINGS_IT);
    line(
        out,
        "CPU per reading, 2p/2n (quantile sketches on vs off)",
        r -> Optional.of(r.cpuQuantilesOnToOff()),
        ORDER_SWINGS_IT);
    line(
        out,
        "  the same, without MongoDB's CPU and the JIT's",
        r -> Optional.of(r.steadyCpuQuantilesOnToOff()),
        ORDER_SWINGS_IT);
    line(
        out,
        "bytes per reading, 2p/2n (quantile sketches on vs off)",
        r -> Optional.of(r.bytesQuantilesOnToOff()),
        "(BSON of the documents, every granularity)");
    line(
        out,
        "CPU per reading, 2/1b (bucketer vs floor)",
        r -> Optional.of(r.cpuToFloor()),
        "<= " + BenchResults.MAX_CPU_TO_FLOOR,
        median -> median <= BenchResults.MAX_CPU_TO_FLOOR);
    line(
        out,
        "CPU per reading, 2/4 (bucketer vs windowed aggregate)",
        r -> Optional.of(r.cpuToWindowedAggregate()),
        "<= " + BenchResults.MAX_CPU_TO_WINDOWED_AGGREGATE,
        median -> median <= BenchResults.MAX_CPU_TO_WINDOWED_AGGREGATE);
    line(
        out,
        "  the same, without MongoDB's CPU and the JIT's",
        r -> Optional.of(r.steadyCpuToWindowedAggregate()));
    quantileBytes(out);
    out.println("bucketer's close -> visible in MongoDB, ms (a backlog drained, not a load)");
    line(out, "  p50", r -> Optional.of(r.latencyP50Millis()));
    line(out, "  p99", r -> Optional.of(r.latencyP99Millis()));
    stages(out);
    out.println("JIT's share of each row's CPU, %: the steady state is reached when it is low");
    line(out, "  2 bucketer", r -> Optional.of(100 * r.processor().time().jitShare()));
    line(
        out,
        "  4 Kafka Streams windowed aggregate",
        r -> Optional.of(100 * r.windowedAggregate().rate().time().jitShare()));
  }

  /**
   * BSON bytes per reading of the documents 2p and 2n stored, each layout's median: the same
   * readings each round, so they differ only where late readings were merged differently.
   */
  private void quantileBytes(final PrintStream out) {
    out.println("BSON bytes per reading stored, 2p (quantile sketches on) and 2n (off)");
    quantileBytes(out, BenchResults::storedWithQuantiles);
    quantileBytes(out, BenchResults::storedWithoutQuantiles);
  }

  private void quantileBytes(
      final PrintStream out, final Function<BenchResults, List<StoredFootprint>> stored) {
    final List<StoredFootprint> layouts = stored.apply(last());
    for (int i = 0; i < layouts.size(); i++) {
      final int layout = i;
      line(
          out,
          "  " + layouts.get(layout).layout(),
          r ->
              Optional.of(
                  stored.apply(r).get(layout).documentBytesPerReading(r.sent().readings())));
    }
  }

  /** Row 2's CPU by stage: each line's median over the rounds, the lines in the same order. */
  private void stages(final PrintStream out) {
    final List<StageBreakdown> breakdowns =
        rounds.stream().map(BenchResults::stages).filter(Objects::nonNull).toList();
    if (breakdowns.isEmpty()) {
      return;
    }
    out.printf(
        "Where row 2's CPU went, ms per 1,000 readings, each line's own median (medians need not"
            + " add up; JFR, %d ms samples; the recording's own threads took %.1f%% of this JVM's"
            + " CPU, median)%n",
        StageRecording.EXECUTION_PERIOD_MILLIS,
        100
            * spread(r -> Optional.ofNullable(r.stages()).map(StageBreakdown::recorderShare))
                .orElseThrow()
                .median());
    final List<StageBreakdown.Line> names = breakdowns.get(0).lines();
    for (int i = 0; i < names.size(); i++) {
      final int line = i;
      line(
          out,
          "  " + names.get(line).name(),
          r -> Optional.ofNullable(r.stages()).map(s -> s.lines().get(line).millisPerThousand()));
    }
    line(
        out,
        "  " + StageBreakdown.TOTAL,
        r -> Optional.ofNullable(r.stages()).map(StageBreakdown::total));
  }

  private static Function<BenchResults, Optional<Double>> withConnector(
      final ToDoubleFunction<BenchResults> ratio) {
    return r -> r.connector() == null ? Optional.empty() : Optional.of(ratio.applyAsDouble(r));
  }

  private static Function<BenchResults, Optional<Double>> withSaslSsl(
      final ToDoubleFunction<BenchResults> ratio) {
    return r ->
        r.processorOverSaslSsl() == null ? Optional.empty() : Optional.of(ratio.applyAsDouble(r));
  }

  private void rate(
      final PrintStream out,
      final String name,
      final Function<BenchResults, Optional<BenchResults.Rate>> row) {
    spread(r -> row.apply(r).map(BenchResults.Rate::readingsPerSecond))
        .ifPresent(
            s ->
                out.printf(
                    "  %-56s %,10.0f %,10.0f - %,-8.0f %6.0f%%%n",
                    name, s.median(), s.min(), s.max(), 100 * s.relativeRange()));
  }

  private void line(
      final PrintStream out,
      final String name,
      final Function<BenchResults, Optional<Double>> figure) {
    spread(figure).ifPresent(s -> printLine(out, name, s, ""));
  }

  /** A figure without a target, with a note on how to read it. */
  private void line(
      final PrintStream out,
      final String name,
      final Function<BenchResults, Optional<Double>> figure,
      final String note) {
    spread(figure).ifPresent(s -> printLine(out, name, s, note));
  }

  private void line(
      final PrintStream out,
      final String name,
      final Function<BenchResults, Optional<Double>> figure,
      final String target,
      final DoublePredicate met) {
    spread(figure)
        .ifPresent(
            s ->
                printLine(
                    out,
                    name,
                    s,
                    target + " " + (met.test(s.median()) ? "met" : "MISSED") + " (median)"));
  }

  private static void printLine(
      final PrintStream out, final String name, final Spread s, final String target) {
    // a median of 0 with a spread (a stage sampled in one round only) has no relative range
    final String range =
        Double.isFinite(s.relativeRange())
            ? String.format("%6.0f%%", 100 * s.relativeRange())
            : String.format("%7s", "-");
    out.printf(
        "  %-56s %10.2f %10.2f - %-8.2f %s   %s%n",
        name, s.median(), s.min(), s.max(), range, target);
  }
}
