package io.bucketer.tenants;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bucketer.tenants.TenantLimits.Limits;
import io.bucketer.tenants.TenantLimits.Tenant;
import java.util.List;
import org.junit.jupiter.api.Test;

class TenantLimitsTest {

  private static final Limits DEFAULTS = new Limits(1_000, 100);

  @Test
  void shouldReadEachTenantsPrefixAndLimitsInTheOrderGiven() {
    assertThat(TenantLimits.parseTenants(" acme-=50000/5000, globex/=200_000/20000 ,"))
        .containsExactly(
            new Tenant("acme-", new Limits(50_000, 5_000)),
            new Tenant("globex/", new Limits(200_000, 20_000)));
    assertThat(TenantLimits.parseTenants("")).isEmpty();
  }

  @Test
  void shouldTakeAPrefixThatHoldsAnEqualsSign() {
    assertThat(TenantLimits.parseTenants("site=7/=10/1"))
        .containsExactly(new Tenant("site=7/", new Limits(10, 1)));
  }

  @Test
  void shouldNameWhatItCannotRead() {
    assertThatThrownBy(() -> TenantLimits.parseTenants("acme-50000/5000"))
        .hasMessage("'acme-50000/5000' is not <prefix>=<active series>/<new series a minute>");
    assertThatThrownBy(() -> TenantLimits.parseTenants("=5/5"))
        .hasMessageContaining("'=5/5' is not <prefix>=");
    assertThatThrownBy(() -> TenantLimits.parseTenants("acme-=50000"))
        .hasMessageContaining("'acme-=50000' is not <prefix>=");
    assertThatThrownBy(() -> TenantLimits.parseTenants("acme-=0/5"))
        .hasMessage("'acme-=0/5': a series limit must be a whole number of at least 1");
    assertThatThrownBy(() -> TenantLimits.parseTenants("acme-=10/many"))
        .hasMessage("'acme-=10/many': a series limit must be a whole number of at least 1");
    assertThatThrownBy(
            () -> new TenantLimits(DEFAULTS, TenantLimits.parseTenants("acme-=1/1,acme-=2/2")))
        .hasMessage("the tenant acme- is given twice");
  }

  @Test
  void shouldPutASensorInTheTenantOfTheLongestPrefixItStartsWithAndTheRestInTheDefault() {
    final Tenant acme = new Tenant("acme-", new Limits(10, 10));
    final Tenant acmeLab = new Tenant("acme-lab-", new Limits(5, 5));
    final TenantLimits limits = new TenantLimits(DEFAULTS, List.of(acme, acmeLab));

    assertThat(limits.tenantOf("acme-lab-7")).isEqualTo(acmeLab);
    assertThat(limits.tenantOf("acme-pump-7")).isEqualTo(acme);
    assertThat(limits.tenantOf("pump-7")).isEqualTo(new Tenant("", DEFAULTS));
    assertThat(limits.tenantOf("pump-7").name()).isEqualTo("*");
    assertThat(limits.all()).extracting(Tenant::name).containsExactly("acme-lab-", "acme-", "*");
  }

  @Test
  void shouldDescribeEveryTenantInOneLine() {
    assertThat(
            new TenantLimits(DEFAULTS, List.of(new Tenant("acme-", new Limits(10, 2)))).describe())
        .isEqualTo(
            "acme- 10 active series, 2 new a minute; * (the rest) 1000 active series, 100 new a"
                + " minute, per tenant across the deployment");
    assertThat(TenantLimits.DEFAULT.describe())
        .isEqualTo(
            "* (every sensor) 1000000 active series, 1000000 new a minute, per tenant across the"
                + " deployment");
  }
}
