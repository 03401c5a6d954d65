package io.bucketer.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class PromQlMetricNamesTest {

  @Test
  void shouldFindTheMetricInsideFunctionsAndAggregations() {
    assertThat(
            PromQlMetricNames.of(
                "histogram_quantile(0.99, sum by (le) (rate(latency_seconds_bucket[5m])))"))
        .containsExactly("latency_seconds_bucket");
    assertThat(PromQlMetricNames.of("sum(rate(readings_total[$__rate_interval])) by (instance)"))
        .containsExactly("readings_total");
    assertThat(PromQlMetricNames.of("max(lag_max) or vector(0)")).containsExactly("lag_max");
  }

  @Test
  void shouldSkipTheLabelsOfMatchersAndOfGroupingAndMatchingModifiers() {
    assertThat(
            PromQlMetricNames.of(
                "sum by (job, reason) (rate(dead_letters_total{reason!~\"too-late|x\","
                    + " job=\"bucketer\"}[5m])) > 0"))
        .containsExactly("dead_letters_total");
    assertThat(
            PromQlMetricNames.of(
                "wipes_total > 0 and on (job, instance) group_left (cause) uptime_seconds < 3600"))
        .containsExactly("wipes_total", "uptime_seconds");
    assertThat(
            PromQlMetricNames.of(
                "a / ignoring(partition) group_right b unless without_labels"
                    + " + sum without (le) (c)"))
        .containsExactly("a", "b", "without_labels", "c");
  }

  @Test
  void shouldReadEveryMetricOfABinaryExpressionOnce() {
    assertThat(
            PromQlMetricNames.of("sum(rate(x_sum[5m])) / sum(rate(x_count[5m])) + x_sum * bool 2"))
        .containsExactly("x_sum", "x_count");
  }

  @Test
  void shouldSkipNumbersDurationsAndSubqueries() {
    assertThat(
            PromQlMetricNames.of(
                "deriv(sum(lag{topic!~\".*-changelog\"})[15m:1m]) > 1e-3 and lag offset 1h30m"
                    + " > 0x1F and lag @ 1609746000 < Inf and lag != NaN and .5 < lag"))
        .containsExactly("lag");
  }

  @Test
  void shouldSkipStringsAndCommentsWhateverTheyHold() {
    assertThat(
            PromQlMetricNames.of(
                "label_replace(up{job=\"a\\\"b\"}, \"x\", \"$1 rate(fake)\", 'job', `(.*)`)"
                    + " # sum(commented_out)\n + count_values(\"value\", other)"))
        .containsExactly("up", "other");
  }

  @Test
  void shouldTakeANameGivenAsAMatcher() {
    assertThat(PromQlMetricNames.of("{__name__=\"by_name\", job=\"x\"}"))
        .containsExactly("by_name");
    assertThat(PromQlMetricNames.of("rate({\"quoted.name\", job=\"x\"}[5m])"))
        .containsExactly("quoted.name");
    assertThat(PromQlMetricNames.of("{__name__=~\"any_.*\"}")).isEmpty();
  }

  @Test
  void shouldReadKeywordsWhateverTheirCase() {
    assertThat(PromQlMetricNames.of("SUM BY (le) (x) AND ON (job) y")).containsExactly("x", "y");
  }

  @Test
  void shouldSkipGrafanasVariables() {
    assertThat(PromQlMetricNames.of("x{instance=~\"$instance\"}[${__range}] / $divisor"))
        .containsExactly("x");
  }

  @Test
  void shouldRefuseAnExpressionThatDoesNotClose() {
    assertThatThrownBy(() -> PromQlMetricNames.of("sum(rate(x{job=\"a}[5m]))"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("does not close");
    assertThatThrownBy(() -> PromQlMetricNames.of("sum by (le (x)"))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
