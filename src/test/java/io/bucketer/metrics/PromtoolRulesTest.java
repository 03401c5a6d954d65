package io.bucketer.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.bucketer.testing.Promtool;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Prometheus' own checks of the alerting rules, where Prometheus' {@code promtool} is on the PATH
 * (Debian's package {@code prometheus}): the rules parse and are valid ({@code promtool check
 * rules}), and each alert fires and stays quiet as {@value AlertRulesTest#RULE_TESTS} says ({@code
 * promtool test rules}). Skipped, saying so, where promtool is not installed: the build does not
 * depend on it.
 */
class PromtoolRulesTest {

  private static final Path RULES_DIR = Path.of("deploy", "prometheus");

  private Promtool promtool;

  @BeforeEach
  void findPromtool() {
    final Optional<Promtool> found = Promtool.onPath();
    assumeTrue(
        found.isPresent(),
        Promtool.MISSING + ": the promtool checks of deploy/prometheus/alerts.yml are skipped");
    promtool = found.get();
  }

  @Test
  void shouldPassPromtoolsCheckOfTheRules() throws Exception {
    final Promtool.Result result = promtool.run(RULES_DIR, "", "check", "rules", "alerts.yml");

    assertThat(result.exitCode()).as("promtool check rules:%n%s", result.output()).isZero();
    assertThat(result.output()).contains("SUCCESS");
  }

  @Test
  void shouldPassPromtoolsUnitTestsOfTheAlerts() throws Exception {
    final Promtool.Result result = promtool.run(RULES_DIR, "", "test", "rules", "alerts.test.yml");

    assertThat(result.exitCode()).as("promtool test rules:%n%s", result.output()).isZero();
    assertThat(result.output()).contains("SUCCESS");
  }
}
