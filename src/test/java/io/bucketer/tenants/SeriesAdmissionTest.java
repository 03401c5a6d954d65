package io.bucketer.tenants;

import static org.assertj.core.api.Assertions.assertThat;

import io.bucketer.buckets.SeriesKey;
import io.bucketer.tenants.TenantLimits.Limits;
import io.bucketer.tenants.TenantLimits.Tenant;
import io.bucketer.tenants.TenantSeriesCounts.Limit;
import java.util.List;
import org.junit.jupiter.api.Test;

class SeriesAdmissionTest {

  private static final long NOW = 1_750_000_000_000L;

  /** acme- may hold 9 series and start 6 a minute; the rest 1,000 and 1,000. */
  private final TenantSeriesCounts counts =
      new TenantSeriesCounts(
          new TenantLimits(
              new Limits(1_000, 1_000), List.of(new Tenant("acme-", new Limits(9, 6)))));

  @Test
  void shouldAllowEachTaskItsShareOfATenantsActiveSeriesRoundedUp() {
    final SeriesAdmission task = new SeriesAdmission(counts, 2); // 5 of 9 each

    for (int i = 0; i < 5; i++) {
      assertThat(task.admit(series("acme-" + i), NOW + i * 60_000L)).isTrue();
    }
    assertThat(task.admit(series("acme-5"), NOW + 400_000)).isFalse();
    assertThat(task.lastRefusal().limit()).isEqualTo(Limit.ACTIVE_SERIES);
    assertThat(task.lastRefusal().tenant().name()).isEqualTo("acme-");
    assertThat(task.lastRefusal().why())
        .isEqualTo(
            "tenant acme- holds its limit of 9 active series (5 in this series partition,"
                + " 1 of 2)");
    // another tenant is not touched by acme-'s limit
    assertThat(task.admit(series("pump-1"), NOW + 400_000)).isTrue();

    final TenantSeriesCounts.Counts acme = countsOf("acme-");
    assertThat(acme.active()).isEqualTo(5);
    assertThat(acme.headroom()).isZero();
    assertThat(acme.refused(Limit.ACTIVE_SERIES)).isEqualTo(1);
    assertThat(countsOf("*").active()).isEqualTo(1);
    assertThat(countsOf("*").headroom()).isEqualTo(499);
  }

  @Test
  void shouldAdmitANewSeriesOnceAnotherOfItsTenantIsReleased() {
    final SeriesAdmission task = new SeriesAdmission(counts, 3); // 3 of 9
    for (int i = 0; i < 3; i++) {
      assertThat(task.admit(series("acme-" + i), NOW + i * 60_000L)).isTrue();
    }
    assertThat(task.admit(series("acme-3"), NOW + 200_000)).isFalse();

    task.released(series("acme-1"));

    assertThat(task.admit(series("acme-3"), NOW + 200_000)).isTrue();
    assertThat(countsOf("acme-").active()).isEqualTo(3);
  }

  @Test
  void shouldLetAMinutesWorthOfNewSeriesStartAtOnceAndRefillAtThatRate() {
    final SeriesAdmission task = new SeriesAdmission(counts, 1); // 9 active, 6 new a minute

    for (int i = 0; i < 6; i++) {
      assertThat(task.admit(series("acme-" + i), NOW)).isTrue();
    }
    assertThat(task.admit(series("acme-6"), NOW)).isFalse();
    assertThat(task.lastRefusal().limit()).isEqualTo(Limit.NEW_SERIES_PER_MINUTE);
    assertThat(task.lastRefusal().why())
        .isEqualTo(
            "tenant acme- started its limit of 6 new series a minute (6 in this series"
                + " partition, 1 of 1)");
    assertThat(task.admit(series("acme-6"), NOW + 9_999)).isFalse(); // 0.9999 of a token
    assertThat(task.admit(series("acme-6"), NOW + 10_000)).isTrue(); // one every 10 s
    assertThat(task.admit(series("acme-7"), NOW + 10_000)).isFalse();

    assertThat(countsOf("acme-").refused(Limit.NEW_SERIES_PER_MINUTE)).isEqualTo(3);
    assertThat(countsOf("acme-").refused(Limit.ACTIVE_SERIES)).isZero();
  }

  @Test
  void shouldNeverFillTheBucketPastAMinutesWorth() {
    final SeriesAdmission task = new SeriesAdmission(counts, 1);
    assertThat(task.admit(series("acme-0"), NOW)).isTrue();
    final long anHourLater = NOW + 3_600_000;

    for (int i = 1; i <= 6; i++) {
      assertThat(task.admit(series("acme-" + i), anHourLater)).isTrue();
    }
    assertThat(task.admit(series("acme-7"), anHourLater)).isFalse();
  }

  @Test
  void shouldCountRestoredSeriesWithoutCheckingThemAndForgetThemWhenCleared() {
    final SeriesAdmission task = new SeriesAdmission(counts, 1);
    for (int i = 0; i < 12; i++) { // more than the limit: a limit lowered since they started
      task.restored(series("acme-" + i));
    }
    assertThat(countsOf("acme-").active()).isEqualTo(12);
    assertThat(task.admit(series("acme-new"), NOW)).isFalse();

    task.clear();

    assertThat(countsOf("acme-").active()).isZero();
    assertThat(task.admit(series("acme-new"), NOW)).isTrue();
  }

  @Test
  void shouldTakeAClosedTasksSeriesAndShareOutOfTheProcessCounts() {
    final SeriesAdmission first = new SeriesAdmission(counts, 3);
    final SeriesAdmission second = new SeriesAdmission(counts, 3);
    assertThat(first.admit(series("acme-0"), NOW)).isTrue();
    assertThat(second.admit(series("acme-1"), NOW)).isTrue();
    assertThat(countsOf("acme-").active()).isEqualTo(2);
    assertThat(countsOf("acme-").headroom()).isEqualTo(4); // two shares of 3, less 2 held

    first.close();

    assertThat(countsOf("acme-").active()).isEqualTo(1);
    assertThat(countsOf("acme-").headroom()).isEqualTo(2);
  }

  private TenantSeriesCounts.Counts countsOf(final String name) {
    return counts.all().stream().filter(c -> c.tenant().name().equals(name)).findFirst().get();
  }

  private static SeriesKey series(final String sensorId) {
    return new SeriesKey(sensorId, "temperature");
  }
}
