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
        <svg id="plot"><g class="buckets">\
        <rect class="bucket" x="70" y="40" width="17.8" height="330" \
        data-start="2026-11-22T14:00:00Z" data-end="2026-11-22T14:01:00Z" data-count="60" \
        data-min="19.1" data-avg="20" data-max="21" data-open="false"><title>x</title></rect>\
        <rect class="bucket open" x="88" y="40" width="17.8" height="330" \
        data-start="2026-11-22T14:01:00Z" data-end="2026-11-22T14:02:00Z" data-count="7" \
        data-min="-0.5" data-avg="1e-7" data-max="22.25" data-open="true"></rect></g></svg>
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
  }

  @Test
  void shouldRefuseAPageThatIsNotTheChart() {
    assertThatThrownBy(() -> ChartPageReader.parse("<html><body>not found</body></html>"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("#status");
  }
}
