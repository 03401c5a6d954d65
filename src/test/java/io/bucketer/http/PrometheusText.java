package io.bucketer.http;

import java.util.HashMap;
import java.util.Map;

/** The samples of a Prometheus text-format scrape, by series ({@code name{labels}}). */
final class PrometheusText {

  private final Map<String, Double> samples;

  private PrometheusText(final Map<String, Double> samples) {
    this.samples = samples;
  }

  static PrometheusText parse(final String scrape) {
    final Map<String, Double> samples = new HashMap<>();
    for (final String line : scrape.split("\n")) {
      if (line.isBlank() || line.startsWith("#")) {
        continue;
      }
      // Label values of these meters hold no spaces: the value follows the last one.
      final int space = line.lastIndexOf(' ');
      samples.put(line.substring(0, space), Double.parseDouble(line.substring(space + 1)));
    }
    return new PrometheusText(samples);
  }

  /** The sample of one series; fails when the scrape has none, rather than reading it as 0. */
  double value(final String series) {
    final Double value = samples.get(series);
    if (value == null) {
      throw new AssertionError("no sample " + series + " among " + samples.keySet());
    }
    return value;
  }
}
