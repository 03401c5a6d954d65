package io.bucketer.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bucketer.testing.ChartPageReader.ChartPage;
import io.bucketer.testing.ChartPageReader.DrawnBucket;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ChartPageReaderTest {

  @Test
  void shouldReadTheBucketsStatusAndFiguresAsChromiumSerializesThem() {
    final String dom =
        """
        <html><body><div class="status-row">
        <p id="status" data-state="ready" data-message="2 buckets drawn, 1 open &amp; &quot;fine&quot;" \
        role="status">2 buckets drawn</p><a id="permalink" \
        href="http://127.0.0.1:1/ui/?sensor=sensor+7%2Fa&amp;granularity=1m">link</a></div>
        <span id="resolution" class="hint">read 1m windows from buckets_1m &amp; state, 1m a point\
        </span>
        <svg id="plot"><g class="coverage"><rect class="low-coverage" x="70" y="40" width="17.8" \
        height="330" data-start="2026-11-22T14:00:00Z" data-coverage="0.85"></rect></g>\
        <g class="buckets">\
        <rect class="bucket" x="70" y="40" width="17.8" height="330" \
        data-start="2026-11-22T14:00:00Z" data-end="2026-11-22T14:01:00Z" data-count="60" \
        data-min="19.1" data-avg="20" data-max="21" data-open="false" data-twa="20.0125" \
        data-coverage="0.85"><title>x</title></rect>\
        <rect class="bucket open" x="88" y="40" width="17.8" height="330" \
        data-start="2026-11-22T14:01:00Z" data-end="2026-11-22T14:02:00Z" data-count="7" \
        data-min="-0.5" data-avg="1e-7" data-max="22.25" data-open="true"></rect></g>\
        <path class="band closed" d="M70,1L88,2Z"></path><path class="avg closed" d="M70,1L88,1" \
        data-points="1"></path><path class="band open" d="M70,1L88,2Z"></path>\
        <path class="avg open" d="M79,1L97,1" data-points="2"></path><path class="twa" \
        d="M70,1L88,1" data-points="1"></path></svg>
        <dl id="statistics"><div><dt>count</dt><dd data-field="count">3,400</dd></div>\
        <div><dt>avg</dt><dd data-field="avg">20.0001</dd></div></dl></body></html>
        """;

    final ChartPage page = ChartPageReader.parse(dom);

    assertThat(page.ready()).isTrue();
    assertThat(page.message()).isEqualTo("2 buckets drawn, 1 open & \"fine\"");
    assertThat(page.permalink())
        .isEqualTo("http://127.0.0.1:1/ui/?sensor=sensor+7%2Fa&granularity=1m");
    assertThat(page.statistics())
        .containsExactly(Map.entry("count", "3,400"), Map.entry("avg", "20.0001"));
    assertThat(page.buckets())
        .containsExactly(
            new DrawnBucket(
                Instant.parse("2026-11-22T14:00:00Z"),
                Instant.parse("2026-11-22T14:01:00Z"),
                60,
                19.1,
                20.0,
                21.0,
                false),
            new DrawnBucket(
                Instant.parse("2026-11-22T14:01:00Z"),
                Instant.parse("2026-11-22T14:02:00Z"),
                7,
                -0.5,
                1e-7,
                22.25,
                true));
    assertThat(page.twa())
        .containsExactly(Map.entry(Instant.parse("2026-11-22T14:00:00Z"), 20.0125));
    assertThat(page.coverage())
        .containsExactly(Map.entry(Instant.parse("2026-11-22T14:00:00Z"), 0.85));
    assertThat(page.twaLines()).containsExactly(1);
    assertThat(page.avgLines()).containsExactly(1, 2);
    assertThat(page.lowCoverage()).containsExactly(Instant.parse("2026-11-22T14:00:00Z"));
    assertThat(page.resolution()).isEqualTo("read 1m windows from buckets_1m & state, 1m a point");
  }

  @Test
  void shouldReadABandShadedForLowCoverageAndLowCompletenessAsBoth() {
    final String dom =
        """
        <html><body><p id="status" data-state="ready" data-message=""></p>
        <svg id="plot"><g class="coverage">\
        <rect class="low-completeness" x="70" y="40" width="17.8" height="330" \
        data-start="2026-11-22T14:00:00Z" data-completeness="0.5"></rect>\
        <rect class="low-coverage low-completeness" x="88" y="40" width="17.8" height="330" \
        data-start="2026-11-22T14:01:00Z" data-coverage="0.6" data-completeness="0.7"></rect>\
        </g><g class="buckets">\
        <rect class="bucket" x="70" y="40" width="17.8" height="330" \
        data-start="2026-11-22T14:00:00Z" data-end="2026-11-22T14:01:00Z" data-count="30" \
        data-min="19.1" data-avg="20" data-max="21" data-open="false" \
        data-completeness="0.5"></rect></g></svg></body></html>
        """;

    final ChartPage page = ChartPageReader.parse(dom);

    assertThat(page.lowCoverage()).containsExactly(Instant.parse("2026-11-22T14:01:00Z"));
    assertThat(page.lowCompleteness())
        .containsExactly(
            Instant.parse("2026-11-22T14:00:00Z"), Instant.parse("2026-11-22T14:01:00Z"));
    assertThat(page.completeness())
        .containsExactly(Map.entry(Instant.parse("2026-11-22T14:00:00Z"), 0.5));
  }

  @Test
  void shouldRefuseAPageThatIsNotTheChart() {
    assertThatThrownBy(() -> ChartPageReader.parse("<html><body>not found</body></html>"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("#status");
  }
}
