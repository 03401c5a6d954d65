package io.bucketer.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.bucketer.buckets.BucketStats;
import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.Measurement;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The points without readings, filled by each rule, at the edges of the chart and between points
 * with readings; the points with readings as they are.
 */
class GapFillTest {

  private static final Granularity MINUTE = Granularity.parse("1m");

  /** Six one-minute points from minute 100; readings in minutes 101 and 103 only. */
  private static final Resolution SIX_MINUTES = new Resolution(MINUTE, 1, minute(100), 6, false);

  private static final WindowTotals AT_101 =
      window(
          101, new Measurement(minute(101) + 5_000, 10), new Measurement(minute(101) + 50_000, 12));
  private static final WindowTotals AT_103 =
      window(
          103,
          new Measurement(minute(103) + 30_000, 20),
          new Measurement(minute(103) + 40_000, 24));
  private static final List<WindowTotals> MEASURED = List.of(AT_101, AT_103);

  @Test
  void shouldLeaveOutThePointsWithoutReadingsByDefault() {
    final List<ChartPoint> points = GapFill.NONE.apply(MEASURED, SIX_MINUTES);

    assertThat(points)
        .containsExactly(new ChartPoint.Measured(AT_101), new ChartPoint.Measured(AT_103));
  }

  @Test
  void shouldGiveEverySlotAPointWithoutAValueForNull() {
    final List<ChartPoint> points = GapFill.NULL.apply(MEASURED, SIX_MINUTES);

    assertThat(points).hasSize(6);
    assertThat(points.stream().map(ChartPoint::start))
        .containsExactly(
            minute(100), minute(101), minute(102), minute(103), minute(104), minute(105));
    assertFilled(points.get(0), 100, GapFill.NULL, Double.NaN);
    assertThat(points.get(1)).isEqualTo(new ChartPoint.Measured(AT_101));
    assertFilled(points.get(2), 102, GapFill.NULL, Double.NaN);
    assertThat(points.get(3)).isEqualTo(new ChartPoint.Measured(AT_103));
    assertFilled(points.get(4), 104, GapFill.NULL, Double.NaN);
    assertFilled(points.get(5), 105, GapFill.NULL, Double.NaN);
  }

  @Test
  void shouldHoldThePreviousPointsLastValueAndNothingBeforeTheFirst() {
    final List<ChartPoint> points = GapFill.PREVIOUS.apply(MEASURED, SIX_MINUTES);

    assertFilled(points.get(0), 100, GapFill.PREVIOUS, Double.NaN);
    assertThat(points.get(1)).isEqualTo(new ChartPoint.Measured(AT_101));
    assertFilled(points.get(2), 102, GapFill.PREVIOUS, 12);
    assertThat(points.get(3)).isEqualTo(new ChartPoint.Measured(AT_103));
    // a run of empty points holds the same value: the last reading before them
    assertFilled(points.get(4), 104, GapFill.PREVIOUS, 24);
    assertFilled(points.get(5), 105, GapFill.PREVIOUS, 24);
  }

  @Test
  void shouldDrawTheLineBetweenTheNeighboursReadingsAtThePointsMiddle() {
    final List<ChartPoint> points = GapFill.LINEAR.apply(MEASURED, SIX_MINUTES);

    assertFilled(points.get(0), 100, GapFill.LINEAR, Double.NaN);
    // from 12 at 101:50 to 20 at 103:30, i.e. 100 s; the middle of minute 102 is 102:30, 40 s on
    assertFilled(points.get(2), 102, GapFill.LINEAR, 12 + (20 - 12) * 40.0 / 100.0);
    assertFilled(points.get(4), 104, GapFill.LINEAR, Double.NaN);
    assertFilled(points.get(5), 105, GapFill.LINEAR, Double.NaN);
    assertThat(points.get(3)).isEqualTo(new ChartPoint.Measured(AT_103));
  }

  @Test
  void shouldDrawOneLineAcrossARunOfEmptyPointsOfMergedWindows() {
    // five-minute points from minute 100: readings in the first and the fourth only
    final Resolution fiveMinutes = new Resolution(MINUTE, 5, minute(100), 4, false);
    final WindowTotals first =
        PointMerge.merged(
            Granularity.parse("5m"), minute(100), List.of(window(100, reading(100, 0, 0))));
    final WindowTotals fourth =
        PointMerge.merged(
            Granularity.parse("5m"), minute(115), List.of(window(115, reading(115, 0, 30))));

    final List<ChartPoint> points = GapFill.LINEAR.apply(List.of(first, fourth), fiveMinutes);

    // from 0 at 100:00 to 30 at 115:00; middles 107:30 and 112:30
    assertFilled(points.get(1), 105, GapFill.LINEAR, 15);
    assertFilled(points.get(2), 110, GapFill.LINEAR, 25);
    assertThat(((ChartPoint.Filled) points.get(1)).end()).isEqualTo(minute(110));
  }

  @Test
  void shouldFillEveryPointOfAChartWithoutReadingsWithNothing() {
    for (final GapFill fill : List.of(GapFill.NULL, GapFill.PREVIOUS, GapFill.LINEAR)) {
      final List<ChartPoint> points = fill.apply(List.of(), SIX_MINUTES);

      assertThat(points).as(fill.label()).hasSize(6);
      for (int i = 0; i < 6; i++) {
        assertFilled(points.get(i), 100 + i, fill, Double.NaN);
      }
    }
    assertThat(GapFill.NONE.apply(List.of(), SIX_MINUTES)).isEmpty();
  }

  @Test
  void shouldFillNothingWhenEveryPointHasReadings() {
    final Resolution twoMinutes = new Resolution(MINUTE, 1, minute(101), 3, false);
    final WindowTotals at102 = window(102, reading(102, 1, 7));

    assertThat(GapFill.LINEAR.apply(List.of(AT_101, at102, AT_103), twoMinutes))
        .containsExactly(
            new ChartPoint.Measured(AT_101),
            new ChartPoint.Measured(at102),
            new ChartPoint.Measured(AT_103));
  }

  @Test
  void shouldParseTheRulesByTheirNamesAndRefuseOthersNamingThem() {
    assertThat(GapFill.parse("none")).isEqualTo(GapFill.NONE);
    assertThat(GapFill.parse("null")).isEqualTo(GapFill.NULL);
    assertThat(GapFill.parse("previous")).isEqualTo(GapFill.PREVIOUS);
    assertThat(GapFill.parse("linear")).isEqualTo(GapFill.LINEAR);
    assertThatThrownBy(() -> GapFill.parse("LINEAR"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("fill must be one of none, null, previous, linear");
    assertThatThrownBy(() -> GapFill.parse("zero")).isInstanceOf(IllegalArgumentException.class);
  }

  private static void assertFilled(
      final ChartPoint point, final int minute, final GapFill rule, final double value) {
    assertThat(point).isInstanceOf(ChartPoint.Filled.class);
    final ChartPoint.Filled filled = (ChartPoint.Filled) point;
    assertThat(filled.start()).isEqualTo(minute(minute));
    assertThat(filled.rule()).isEqualTo(rule);
    if (Double.isNaN(value)) {
      assertThat(filled.value()).as("point at minute %d", minute).isNaN();
    } else {
      assertThat(filled.value()).as("point at minute %d", minute).isCloseTo(value, within(1e-12));
    }
  }

  private static WindowTotals window(final int minute, final Measurement... readings) {
    return new WindowTotals(
        MINUTE, minute(minute), BucketStats.ofAll(List.of(readings), null), false);
  }

  private static Measurement reading(final int minute, final int second, final double value) {
    return new Measurement(minute(minute) + second * 1_000L, value);
  }

  private static long minute(final int minute) {
    return 29_000_000L * 60_000L + minute * 60_000L;
  }
}
