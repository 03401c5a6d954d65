package io.bucketer.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The samples of a Prometheus text exposition, just enough to add up one metric's series. Written
 * here because the Prometheus client libraries write this format but do not parse it.
 */
final class PrometheusText {

  private record Sample(String name, String labels, double value) {}

  private final List<Sample> samples;

  private PrometheusText(final List<Sample> samples) {
    this.samples = samples;
  }

  static PrometheusText parse(final String text) {
    final List<Sample> samples = new ArrayList<>();
    for (final String line : text.split("\n")) {
      if (line.isBlank() || line.startsWith("#")) {
        continue;
      }
      final int valueAt = line.lastIndexOf(' ');
      final String series = line.substring(0, valueAt);
      final int labelsAt = series.indexOf('{');
      final String name = labelsAt < 0 ? series : series.substring(0, labelsAt);
      final String labels = labelsAt < 0 ? "" : series.substring(labelsAt);
      samples.add(new Sample(name, labels, Double.parseDouble(line.substring(valueAt + 1))));
    }
    return new PrometheusText(samples);
  }

  /** The sum over every series of {@code name} whose labels contain all of {@code labels}. */
  double sum(final String name, final String... labels) {
    double sum = 0;
    for (final Sample sample : samples) {
      if (sample.name().equals(name) && containsAll(sample.labels(), labels)) {
        sum += sample.value();
      }
    }
    return sum;
  }

  /**
   * The cumulative buckets of histogram {@code name} ({@code <name>_bucket{le="..."}}), each upper
   * bound with its count, summed over the histogram's other labels; {@code +Inf} is {@link
   * Double#POSITIVE_INFINITY}. Empty when the exposition has no such histogram.
   */
  SortedMap<Double, Double> histogram(final String name) {
    final SortedMap<Double, Double> buckets = new TreeMap<>();
    final String bucketName = name + "_bucket";
    for (final Sample sample : samples) {
      if (!sample.name().equals(bucketName)) {
        continue;
      }
      final int at = sample.labels().indexOf("le=\"");
      if (at < 0) {
        continue;
      }
      final int from = at + "le=\"".length();
      final String bound = sample.labels().substring(from, sample.labels().indexOf('"', from));
      final double upper =
          bound.equals("+Inf") ? Double.POSITIVE_INFINITY : Double.parseDouble(bound);
      buckets.merge(upper, sample.value(), Double::sum);
    }
    return buckets;
  }

  private static boolean containsAll(final String labels, final String[] wanted) {
    for (final String label : wanted) {
      if (!labels.contains(label)) {
        return false;
      }
    }
    return true;
  }
}
