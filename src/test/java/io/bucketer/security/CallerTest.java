package io.bucketer.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class CallerTest {

  private static final Caller TENANT = new Caller("plant-a", List.of("plant-a/", "shared/pump-"));

  @Test
  void shouldSeeOnlyTheSeriesOfItsPrefixes() {
    assertThat(TENANT.maySee("plant-a/boiler-1")).isTrue();
    assertThat(TENANT.maySee("shared/pump-7")).isTrue();
    assertThat(TENANT.maySee("plant-b/boiler-1")).isFalse();
    assertThat(TENANT.maySee("plant-a")).isFalse();
    assertThat(Caller.unrestricted("admin").maySee("anything")).isTrue();
  }

  @Test
  void shouldNarrowAListingToWhereItsPrefixesAndTheRequestMeet() {
    assertThat(TENANT.narrow("")).containsExactly("plant-a/", "shared/pump-");
    assertThat(TENANT.narrow("plant-a/boil")).containsExactly("plant-a/boil");
    assertThat(TENANT.narrow("shared/")).containsExactly("shared/pump-");
    assertThat(TENANT.narrow("plant-b/")).isEmpty();
    assertThat(Caller.unrestricted("admin").narrow("x")).containsExactly("x");
  }
}
