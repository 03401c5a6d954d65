package io.bucketer.bench;

import io.bucketer.bench.FormatsBench.Figures;
import java.io.PrintStream;
import java.util.Arrays;
import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * Prints {@link FormatsBench}'s figures: each round's rows, then each row's medians over the rounds
 * with their spread (lowest to highest), and its ratios to the reference row, taken within each
 * round (the machine's load moves both rows of a round alike) before their median.
 */
final class FormatsTable {

  private static final String HEADER = "%-34s %9s %11s %13s %15s %10s%n";

  private FormatsTable() {}

  static void printRound(final PrintStream out, final List<Figures> rows) {
    out.printf(
        HEADER, "format", "readings", "readings/rec", "bytes/reading", "readings/s", "CPU ms/1k");
    for (final Figures row : rows) {
      out.printf(
          "%-34s %,9d %11.2f %13.1f %,15.0f %10.2f%n",
          row.row().label(),
          row.readings(),
          row.readings() / (double) row.records(),
          row.valueBytes() / (double) row.readings(),
          row.readingsPerSecond(),
          row.cpuMillisPerThousand());
    }
    out.println();
  }

  /**
   * Medians over {@code rounds}, each a list of the same rows in the same order, the reference
   * first. CPU is this JVM's (broker, producer-free: the topics are filled before timing, and the
   * processor), without the stand-in's and the JIT's.
   */
  static void printMedians(final PrintStream out, final List<List<Figures>> rounds) {
    out.printf(
        "medians of %d rounds [lowest - highest]; ratios to the first row, within each round%n",
        rounds.size());
    out.printf(
        "%-34s %24s %20s %24s %20s%n",
        "format", "readings/s", "rate ratio", "CPU ms/1k readings", "CPU ratio");
    final int rows = rounds.get(0).size();
    for (int i = 0; i < rows; i++) {
      final int row = i;
      out.printf(
          "%-34s %24s %20s %24s %20s%n",
          rounds.get(0).get(row).row().label(),
          spread(rounds, row, Figures::readingsPerSecond, "%,.0f"),
          ratioSpread(rounds, row, Figures::readingsPerSecond),
          spread(rounds, row, Figures::cpuMillisPerThousand, "%.2f"),
          ratioSpread(rounds, row, Figures::cpuMillisPerThousand));
    }
  }

  private static String spread(
      final List<List<Figures>> rounds,
      final int row,
      final ToDoubleFunction<Figures> figure,
      final String format) {
    final double[] values =
        rounds.stream().mapToDouble(round -> figure.applyAsDouble(round.get(row))).toArray();
    return describe(values, format);
  }

  private static String ratioSpread(
      final List<List<Figures>> rounds, final int row, final ToDoubleFunction<Figures> figure) {
    final double[] ratios =
        rounds.stream()
            .mapToDouble(
                round -> figure.applyAsDouble(round.get(row)) / figure.applyAsDouble(round.get(0)))
            .toArray();
    return describe(ratios, "%.2f");
  }

  /** The median of {@code values} and their spread, {@code median [lowest - highest]}. */
  static String describe(final double[] values, final String format) {
    final double[] sorted = values.clone();
    Arrays.sort(sorted);
    return String.format(format, median(sorted))
        + " ["
        + String.format(format, sorted[0])
        + " - "
        + String.format(format, sorted[sorted.length - 1])
        + "]";
  }

  /** The median of sorted values: the middle one, or the mean of the two middle ones. */
  static double median(final double[] sorted) {
    final int middle = sorted.length / 2;
    return sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
  }
}
