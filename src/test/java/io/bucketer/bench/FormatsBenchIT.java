package io.bucketer.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.bucketer.bench.FormatsBench.Figures;
import io.bucketer.simulate.GatewayFleet;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The formats benchmark runs every format the simulator writes, each row's buckets holding every
 * reading (the harness checks it), and prints their figures side by side. Figures, not timings, are
 * asserted: a small fleet on a busy machine says nothing about speed.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class FormatsBenchIT {

  @Test
  void shouldRunEveryFormatOnTheSameReadingsAndPrintTheirMedians() throws Exception {
    final ByteArrayOutputStream printed = new ByteArrayOutputStream();
    final List<FormatsBench.Row> rows = FormatsBench.Row.all();

    final List<List<Figures>> rounds =
        new FormatsBench(
                new FormatsBench.Options(
                    20,
                    Duration.ofSeconds(5),
                    Duration.ofMinutes(2),
                    Duration.ZERO,
                    1,
                    2,
                    Duration.ofMinutes(2),
                    rows,
                    Map.of()),
                new PrintStream(printed, true, StandardCharsets.UTF_8))
            .run();

    final List<Figures> round = rounds.get(0);
    assertThat(round).extracting(Figures::row).containsExactlyElementsOf(rows);
    // 20 gateways, 24 messages each of three readings, and a trailing message each.
    assertThat(round).extracting(Figures::readings).containsOnly(20L * 24 * 3 + 20 * 3);
    assertThat(round.get(0).records()).isEqualTo(round.get(0).readings());
    assertThat(round.subList(1, round.size()))
        .allSatisfy(
            row -> {
              assertThat(row.row().shape()).isEqualTo(GatewayFleet.Shape.GATEWAY);
              // Sparkplug's births come before its devices' first data.
              assertThat(row.records())
                  .isBetween(
                      row.readings() / 3,
                      row.readings() / 3
                          + (row.row().format() == GatewayFleet.Format.SPARKPLUG_B ? 40 : 0));
              assertThat(row.cpuMillisPerThousand()).isPositive();
            });
    assertThat(printed.toString(StandardCharsets.UTF_8))
        .contains("medians of 1 rounds")
        .contains("avro, gateway (3 a record)")
        .contains("json, gateway (3 a record)");
  }
}
