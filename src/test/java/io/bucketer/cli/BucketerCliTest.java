package io.bucketer.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;

class BucketerCliTest {

  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int execute(final String... args) {
    final CommandLine commandLine = BucketerCli.commandLine();
    commandLine.setOut(new PrintWriter(out));
    commandLine.setErr(new PrintWriter(err));
    return commandLine.execute(args);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "run",
        "resink",
        "backfill",
        "reprocess",
        "simulate",
        "demo",
        "config-reference",
        "query",
        "query statistics",
        "query buckets",
        "dead-letters",
        "dead-letters summary",
        "dead-letters show",
        "dead-letters replay"
      })
  void shouldExplainEverySubcommand(final String subcommand) {
    assertThat(execute((subcommand + " --help").split(" "))).isZero();
    assertThat(out.toString()).contains("Usage: bucketer " + subcommand);
  }

  @Test
  void shouldExitWithTwoAndNameTheSettingWhenConfigurationIsInvalid() {
    final int exitCode =
        execute(
            "run",
            "-s",
            "bootstrap.servers=localhost:9092",
            "-s",
            "schema.registry.url=http://localhost:8081",
            "-s",
            "mongodb.uri=mongodb://localhost",
            "-s",
            "granularities=1m,1w");

    assertThat(exitCode).isEqualTo(BucketerCli.BAD_CONFIGURATION);
    assertThat(err.toString())
        .startsWith("bucketer: invalid configuration:")
        .contains("granularities")
        .doesNotContain("Exception")
        .doesNotContain("\tat ");
  }

  @Test
  void shouldRefuseToReplayWhatIsNoInputRecordBeforeConnecting() {
    final int exitCode =
        execute(
            "dead-letters",
            "replay",
            "--reason",
            "missing-field,too-late",
            "-s",
            "bootstrap.servers=localhost:1");

    assertThat(exitCode).isEqualTo(CommandLine.ExitCode.USAGE);
    assertThat(err.toString())
        .contains("--reason too-late: too-late dead letters are decoded readings")
        .contains("neither is an input record");
  }

  /** keep-first would keep every value the processor holds and drop each reading read again. */
  @Test
  void shouldRefuseToReprocessWithKeepFirstBeforeConnecting() {
    final int exitCode =
        execute(
            "reprocess",
            "--from",
            "2026-11-26T06:00:00Z",
            "-s",
            "bootstrap.servers=localhost:1",
            "-s",
            "mongodb.uri=mongodb://localhost",
            "-s",
            "input.format=json",
            "-s",
            "duplicate.timestamps=keep-first");

    assertThat(exitCode).isEqualTo(1);
    assertThat(err.toString())
        .startsWith("bucketer reprocess: duplicate.timestamps=keep-first:")
        .contains("reprocessing needs keep-last")
        .doesNotContain("localhost:1")
        .doesNotContain("\tat ");
    assertThat(out.toString()).isEmpty();
  }

  @Test
  void shouldSayHowToWriteADeadLetterRange() {
    assertThat(execute("dead-letters", "show", "--partition", "9-3")).isEqualTo(2);
    assertThat(err.toString()).contains("--partition").contains("not a range: 9-3");
    assertThat(execute("dead-letters", "summary", "--offset", "x")).isEqualTo(2);
    assertThat(err.toString()).contains("write N, N-M, N- or -M");
  }

  @Test
  void shouldAskForTheRegistryOnlyWhenTheSimulatorWritesAvro() {
    final int exitCode = execute("simulate", "--bootstrap-servers", "localhost:1", "--count", "0");

    assertThat(exitCode).isEqualTo(CommandLine.ExitCode.USAGE);
    assertThat(err.toString()).contains("--schema-registry-url is required with --format avro");
  }

  @Test
  void shouldNameAnUnknownMessageShapeOrFormat() {
    assertThat(
            execute(
                "simulate",
                "--bootstrap-servers",
                "localhost:1",
                "--format",
                "xml",
                "--count",
                "0"))
        .isEqualTo(CommandLine.ExitCode.USAGE);
    assertThat(err.toString()).contains("--format").contains("xml").doesNotContain("\tat ");
  }

  @Test
  void shouldNameAMissingRequiredSetting() {
    assertThat(execute("run", "-s", "bootstrap.servers=localhost:9092"))
        .isEqualTo(BucketerCli.BAD_CONFIGURATION);
    assertThat(err.toString()).contains("mongodb.uri");
  }

  @Test
  void shouldAskForTheRegistryWhenTheInputIsAvro() {
    assertThat(
            execute(
                "run", "-s", "bootstrap.servers=localhost:9092", "-s", "mongodb.uri=mongodb://db"))
        .isEqualTo(BucketerCli.BAD_CONFIGURATION);
    assertThat(err.toString()).contains("schema.registry.url").contains("input.format=avro");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "granularities=1m,1fortnight",
        "grace=-10s",
        "mongodb.uri=mongo://user:s3cret@host",
        "lateness.horizon=forever",
        "series.partitions=0"
      })
  void shouldNameEachBadSettingWithoutAStackTraceOrASecret(final String badSetting) {
    final int exitCode =
        execute(
            "run",
            "-s",
            "bootstrap.servers=localhost:9092",
            "-s",
            "schema.registry.url=http://localhost:8081",
            "-s",
            "mongodb.uri=mongodb://localhost",
            "-s",
            badSetting);

    assertThat(exitCode).isEqualTo(BucketerCli.BAD_CONFIGURATION);
    assertThat(err.toString())
        .contains(badSetting.substring(0, badSetting.indexOf('=')))
        .doesNotContain("s3cret")
        .doesNotContain("\tat ");
  }

  @Test
  void shouldExitWithTwoListingEveryUnknownSettingBeforeConnecting(@TempDir final Path dir)
      throws Exception {
    final Path file = dir.resolve("bucketer.properties");
    Files.writeString(file, "bootstrap.servers=localhost:1\nidle.timout=1m\n");

    final int exitCode =
        execute(
            "run",
            "-c",
            file.toString(),
            "-s",
            "schema.registry.url=http://localhost:8081",
            "-s",
            "mongodb.uri=mongodb://localhost",
            "-s",
            "http.tls.certificate.file=/etc/tls.crt",
            "-s",
            "kafka.security.protocl=SASL_SSL");

    assertThat(exitCode).isEqualTo(BucketerCli.BAD_CONFIGURATION);
    assertThat(err.toString())
        .startsWith("bucketer: invalid configuration: 3 problems with the settings:")
        .contains(
            "unknown setting idle.timout (from file " + file + "): did you mean idle.timeout?")
        .contains("unknown setting http.tls.certificate.file (from -s)")
        .contains(
            "unknown Kafka client setting kafka.security.protocl (from -s): did you mean"
                + " kafka.security.protocol?")
        .doesNotContain("\tat ");
  }
}
