package io.bucketer.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.bucketer.testing.CliRun;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The refusals {@code bucketer rescale} makes before it asks the cluster anything. */
class RescaleCommandTest {

  private static Map<String, String> settings(final String... pairs) {
    final Map<String, String> settings = new LinkedHashMap<>();
    settings.put("bootstrap.servers", "127.0.0.1:9"); // never reached
    settings.put("schema.registry.url", "http://127.0.0.1:9");
    settings.put("mongodb.uri", "mongodb://127.0.0.1:9");
    for (int i = 0; i < pairs.length; i += 2) {
      settings.put(pairs[i], pairs[i + 1]);
    }
    return settings;
  }

  @Test
  void shouldAskForTheNewPartitionCount() {
    final CliRun run = CliRun.withSettings(settings(), "rescale");
    assertThat(run.exitCode()).isEqualTo(CommandLines.BAD_CONFIGURATION);
    assertThat(run.err()).contains("--partitions N is required");
  }

  @Test
  void shouldRefuseWhatAHandoverCannotDo() {
    final CliRun same =
        CliRun.withSettings(
            settings("application.id", "plant-7"),
            "rescale",
            "--partitions",
            "12",
            "--application-id",
            "plant-7");
    assertThat(same.exitCode()).isEqualTo(1);
    assertThat(same.err()).contains("needs an application.id of its own");

    final CliRun underWay =
        CliRun.withSettings(
            settings(
                "rescale.before", "2026-12-05T08:00:00Z",
                "rescale.late.until", "2026-12-06T08:00:10Z"),
            "rescale",
            "--partitions",
            "12");
    assertThat(underWay.exitCode()).isEqualTo(1);
    assertThat(underWay.err()).contains("a rescale under way");
  }

  @Test
  void shouldFollowOnlyTheSidesOfARescale() {
    final CliRun status = CliRun.withSettings(settings(), "rescale", "status", "--other", "x");
    assertThat(status.exitCode()).isEqualTo(1);
    assertThat(status.err()).contains("neither side of a rescale");
  }
}
