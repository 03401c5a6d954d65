package io.bucketer.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * What an on-call reader needs from each alert of {@value MetricReferences#ALERTS}: a severity, a
 * summary and a description, and a runbook section in {@value #RUNBOOK}; and what keeps the rules
 * honest: a promtool case in {@value #RULE_TESTS} where it fires and one where it stays quiet. Runs
 * without promtool; {@link PromtoolRulesTest} runs the cases where promtool is installed.
 */
class AlertRulesTest {

  static final String RULE_TESTS = "deploy/prometheus/alerts.test.yml";
  static final String RUNBOOK = "docs/operations.md";

  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

  @Test
  void shouldGiveEveryAlertASeveritySummaryDescriptionAndRunbookSection() throws IOException {
    final String runbook = Files.readString(Path.of(RUNBOOK));
    final List<JsonNode> alerts = alerts();
    assertThat(alerts).hasSizeGreaterThanOrEqualTo(7);
    for (final JsonNode alert : alerts) {
      final String name = alert.get("alert").asText();
      assertThat(alert.path("labels").path("severity").asText())
          .as("%s: severity", name)
          .isIn("critical", "warning");
      assertThat(alert.path("annotations").path("summary").asText())
          .as("%s: summary", name)
          .isNotBlank();
      assertThat(alert.path("annotations").path("description").asText())
          .as("%s: description", name)
          .isNotBlank();
      // GitHub's anchor of a heading "### Name": the name in lower case.
      assertThat(alert.path("annotations").path("runbook_url").asText())
          .as("%s: runbook_url", name)
          .isEqualTo(RUNBOOK + "#" + name.toLowerCase(Locale.ROOT));
      assertThat(runbook).as("%s: a section in %s", name, RUNBOOK).contains("\n### " + name + "\n");
    }
  }

  @Test
  void shouldTestEveryAlertFiringAndQuiet() throws IOException {
    final JsonNode ruleTests = YAML.readTree(Path.of(RULE_TESTS).toFile());
    assertThat(ruleTests.path("rule_files").get(0).asText()).isEqualTo("alerts.yml");
    final Set<String> fired = new HashSet<>();
    final Set<String> quiet = new HashSet<>();
    for (final JsonNode test : ruleTests.path("tests")) {
      for (final JsonNode evaluation : test.path("alert_rule_test")) {
        final String name = evaluation.path("alertname").asText();
        (evaluation.path("exp_alerts").isEmpty() ? quiet : fired).add(name);
      }
    }
    final List<String> names = new ArrayList<>();
    alerts().forEach(alert -> names.add(alert.get("alert").asText()));
    assertThat(fired).as("alerts with a case in %s where they fire", RULE_TESTS).containsAll(names);
    assertThat(quiet)
        .as("alerts with a case in %s where they stay quiet", RULE_TESTS)
        .containsAll(names);
  }

  private static List<JsonNode> alerts() throws IOException {
    final List<JsonNode> alerts = new ArrayList<>();
    for (final JsonNode group :
        YAML.readTree(Path.of(MetricReferences.ALERTS).toFile()).path("groups")) {
      for (final JsonNode rule : group.path("rules")) {
        if (rule.has("alert")) {
          alerts.add(rule);
        }
      }
    }
    return alerts;
  }
}
