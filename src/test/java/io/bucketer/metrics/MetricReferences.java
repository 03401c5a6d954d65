package io.bucketer.metrics;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Every metric name that the alerting rules ({@value #ALERTS}) and the Grafana dashboard ({@value
 * #DASHBOARD}) select, each with where it is selected, to compare with what a processor exports.
 */
final class MetricReferences {

  static final String ALERTS = "deploy/prometheus/alerts.yml";
  static final String DASHBOARD = "deploy/grafana/dashboards/bucketer.json";

  /**
   * The series Prometheus makes itself for every target it scrapes, and those of its own alerts:
   * selected by rules, exported by nobody.
   */
  static final Set<String> MADE_BY_PROMETHEUS =
      Set.of(
          "up",
          "scrape_duration_seconds",
          "scrape_samples_scraped",
          "scrape_samples_post_metric_relabeling",
          "scrape_series_added",
          "ALERTS",
          "ALERTS_FOR_STATE");

  /** One metric selected by one expression: an alert's, a recording rule's or a panel's. */
  record Reference(String metric, String where) {}

  private final List<Reference> references;
  private final Set<String> recorded;

  MetricReferences(final List<Reference> references, final Set<String> recorded) {
    this.references = List.copyOf(references);
    this.recorded = Set.copyOf(recorded);
  }

  /** Those of the files under the repository's root, {@code root}. */
  static MetricReferences in(final Path root) {
    final List<Reference> references = new ArrayList<>();
    final Set<String> recorded = new HashSet<>();
    final JsonNode rules = read(new ObjectMapper(new YAMLFactory()), root.resolve(ALERTS));
    for (final JsonNode group : rules.path("groups")) {
      for (final JsonNode rule : group.path("rules")) {
        final boolean isAlert = rule.has("alert");
        final String name = isAlert ? rule.get("alert").asText() : rule.path("record").asText();
        if (!isAlert) {
          recorded.add(name);
        }
        add(
            references,
            rule.path("expr").asText(),
            ALERTS + ", " + (isAlert ? "alert " : "recording rule ") + name);
      }
    }
    final JsonNode dashboard = read(new ObjectMapper(), root.resolve(DASHBOARD));
    addPanels(references, dashboard.path("panels"));
    return new MetricReferences(references, recorded);
  }

  List<Reference> all() {
    return references;
  }

  /**
   * The references to metrics that are neither in {@code exported} (the names of a scrape's
   * samples) nor made by Prometheus or by a recording rule, each as a line that says where it is
   * selected.
   */
  List<String> missingFrom(final Set<String> exported) {
    final List<String> missing = new ArrayList<>();
    for (final Reference reference : references) {
      final String metric = reference.metric();
      if (exported.contains(metric)
          || MADE_BY_PROMETHEUS.contains(metric)
          || recorded.contains(metric)) {
        continue;
      }
      // A histogram's own name selects nothing: its series are _bucket, _sum and _count.
      final String hint =
          exported.contains(metric + "_bucket")
              ? " (a histogram: select " + metric + "_bucket, _sum or _count)"
              : "";
      missing.add(metric + " in " + reference.where() + hint);
    }
    return missing;
  }

  /**
   * The metric names of the samples of a Prometheus text-format scrape: {@code x_bucket}, {@code
   * x_sum} and {@code x_count} for a histogram {@code x}, {@code x_total} for a counter.
   */
  static Set<String> exportedBy(final String scrape) {
    final Set<String> names = new HashSet<>();
    for (final String line : scrape.split("\n")) {
      if (line.isBlank() || line.startsWith("#")) {
        continue;
      }
      int end = 0;
      while (end < line.length() && line.charAt(end) != '{' && line.charAt(end) != ' ') {
        end++;
      }
      names.add(line.substring(0, end));
    }
    return names;
  }

  /** Panels and the panels of rows, recursively. */
  private static void addPanels(final List<Reference> references, final JsonNode panels) {
    for (final JsonNode panel : panels) {
      final String where = DASHBOARD + ", panel \"" + panel.path("title").asText() + "\"";
      for (final JsonNode target : panel.path("targets")) {
        add(references, target.path("expr").asText(), where);
      }
      addPanels(references, panel.path("panels"));
    }
  }

  private static void add(
      final List<Reference> references, final String expression, final String where) {
    if (expression.isEmpty()) {
      throw new AssertionError(where + " has no expression");
    }
    final Set<String> names;
    try {
      names = PromQlMetricNames.of(expression);
    } catch (IllegalArgumentException e) {
      throw new AssertionError(where + ": " + e.getMessage(), e);
    }
    names.forEach(metric -> references.add(new Reference(metric, where)));
  }

  private static JsonNode read(final ObjectMapper mapper, final Path file) {
    try {
      return mapper.readTree(file.toFile());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    }
  }
}
