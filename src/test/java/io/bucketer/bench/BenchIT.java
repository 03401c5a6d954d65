package io.bucketer.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.bucketer.cli.BucketerCli;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The benchmark harness at tiny sizes, so that it cannot rot: every phase runs for real and its
 * figures hold together. The figures themselves are not judged here; docs/benchmarks.md does that.
 */
@Tag("integration")
// A hung run fails here, after five minutes, instead of holding CI until its limit.
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class BenchIT {

  private static final Duration PHASE_TIMEOUT = Duration.ofMinutes(3);

  @Test
  void shouldMeasureEveryContenderOnTheSameReadings() throws Exception {
    final ByteArrayOutputStream printed = new ByteArrayOutputStream();
    // 4 sensors for 90 minutes: one whole hour bucket and one mid-hour range across two hours.
    final BenchRounds rounds =
        new ThroughputBench(
                new ThroughputBench.Options(
                    4,
                    Duration.ofSeconds(1),
                    Duration.ofMinutes(90),
                    Duration.ZERO,
                    0,
                    2,
                    2,
                    true,
                    true,
                    PHASE_TIMEOUT,
                    Map.of()),
                new PrintStream(printed, true, StandardCharsets.UTF_8))
            .run();
    // two measured rounds, each with every row; reads and storage in the last only
    assertThat(rounds.rounds()).hasSize(2);
    assertThat(rounds.rounds().get(0).rangeReads()).isEmpty();
    assertThat(rounds.rounds().get(0).storage()).isEmpty();
    assertThat(rounds.rounds().get(0).connector()).isNotNull();
    final BenchRounds.Spread floorRatio = rounds.spreadOf(BenchResults::processorToFloor);
    assertThat(floorRatio.median()).isBetween(floorRatio.min(), floorRatio.max());
    assertThat(rounds.spread(r -> Optional.of(r.keyedProcessorToConnector()))).isPresent();
    final BenchResults results = rounds.last();
    // where row 2's CPU went, in every measured round: too few samples at this size to say more
    // than that it adds up (shouldSayWhereRowTwosCpuWent says more)
    for (final BenchResults round : rounds.rounds()) {
      assertThat(round.stages()).isNotNull();
      assertThat(sum(round.stages().lines())).isCloseTo(round.stages().total(), within(0.01));
    }

    final long fleetReadings = 4 * 90 * 60;
    assertThat(results.sent().fleetReadings()).isEqualTo(fleetReadings);
    assertThat(results.sent().readings()).isEqualTo(fleetReadings + 4); // one trailing per sensor
    // 4 series x (90 minute buckets + 2 hours, each one document of its minutes' summaries)
    final long bucketDocuments = 4 * (90 + 2);
    assertThat(results.processor().mongo().writeStatements()).isEqualTo(bucketDocuments);
    assertThat(results.latencySamples()).isEqualTo(bucketDocuments);
    assertThat(results.latencyP99Millis()).isPositive();
    assertThat(results.raw().readingsPerSecond()).isPositive();
    assertThat(results.processor().readingsPerSecond()).isPositive();
    assertThat(results.processor().cpuMillisPerThousand()).isPositive();
    // the stand-in's share of bucketer's CPU is counted apart: it wrote every bucket document
    assertThat(results.processor().mongoCpuMillisPerThousand())
        .isPositive()
        .isLessThan(results.processor().cpuMillisPerThousand());
    assertThat(results.processor().steadyCpuMillisPerThousand())
        .isPositive()
        .isLessThanOrEqualTo(
            results.processor().cpuMillisPerThousand()
                - results.processor().mongoCpuMillisPerThousand());
    // the floor and the windowed aggregate repartition every reading on its own; state is logged
    // to changelogs
    for (final BenchResults.Rate streams :
        List.of(results.streamsFloor(), results.windowedAggregate().rate())) {
      assertThat(streams.kafka().topics()).anyMatch(ProducedRecords::isRepartition);
      streams.kafka().topics().stream()
          .filter(ProducedRecords::isRepartition)
          .forEach(topic -> assertThat(streams.kafkaRecordsPerReading(topic)).isEqualTo(1.0));
    }
    // bucketer repartitions each series' readings in batches: from a backlog, far fewer records
    final BenchResults.Rate bucketer = results.processor();
    assertThat(bucketer.kafka().topics())
        .filteredOn(ProducedRecords::isRepartition)
        .singleElement()
        .satisfies(
            topic -> assertThat(bucketer.kafkaRecordsPerReading(topic)).isBetween(0.0001, 0.5));
    assertThat(results.processor().changelogRecordsPerReading()).isPositive();
    // keyed by sensor: the same documents, and no repartition topic at all
    final BenchResults.Rate keyed = results.processorKeyedBySensor();
    assertThat(keyed.mongo().writeStatements()).isEqualTo(bucketDocuments);
    assertThat(keyed.readingsPerSecond()).isPositive();
    assertThat(keyed.kafka().topics()).noneMatch(ProducedRecords::isRepartition);
    assertThat(keyed.changelogRecordsPerReading()).isPositive();
    // over SASL_SSL, as a principal with the README's ACLs only: the same documents
    final BenchResults.Rate overSaslSsl = results.processorOverSaslSsl();
    assertThat(overSaslSsl.mongo().writeStatements()).isEqualTo(bucketDocuments);
    assertThat(overSaslSsl.readingsPerSecond()).isPositive();
    assertThat(results.processorPlaintextTwin().mongo().writeStatements())
        .isEqualTo(bucketDocuments);
    assertThat(results.saslSslToPlaintext()).isPositive();
    assertThat(results.cpuSaslSslToPlaintext()).isPositive();
    // without quantile sketches: the same documents, smaller; their bytes measured in every round
    assertThat(results.processorWithoutQuantiles().mongo().writeStatements())
        .isEqualTo(bucketDocuments);
    assertThat(results.cpuQuantilesOnToOff()).isPositive();
    for (final BenchResults round : rounds.rounds()) {
      for (final List<StoredFootprint> stored :
          List.of(round.storedWithQuantiles(), round.storedWithoutQuantiles())) {
        assertThat(stored)
            .extracting(StoredFootprint::documents)
            .containsExactly(bucketDocuments, 4L * 90, 4L * 2);
      }
      assertThat(round.bytesQuantilesOnToOff()).isGreaterThan(1);
    }
    // the window cache writes a window once per commit, however many readings it took: on this
    // backlog far fewer puts than readings reach RocksDB and the changelog
    assertThat(results.stateOperations())
        .containsOnlyKeys("2 bucketer", "2k bucketer, keyed by sensor");
    results
        .stateOperations()
        .values()
        .forEach(
            operations ->
                assertThat(operations.get("put") / (double) results.sent().readings())
                    .isBetween(0.001, 0.5));
    assertThat(results.windowedAggregate().rate().changelogRecordsPerReading()).isPositive();
    assertThat(results.streamsFloor().changelogRecordsPerReading()).isZero();
    // the connector is timed after its first quarter: the rest is what it writes in that time. How
    // much more than a quarter is written before the clock starts depends on the connector's polls
    // and the machine's load (15,104 of 21,604 was seen in CI), so only the bounds that cannot move
    // are asserted here; that it wrote every reading is the storage row's count below.
    assertThat(results.connector().mongo().writeStatements())
        .isPositive()
        .isLessThanOrEqualTo(
            (long) Math.ceil(results.sent().readings() * (1 - ConnectorRun.WARMUP_SHARE)));
    assertThat(results.connector().writesPerReading()).isEqualTo(1.0);
    // Kafka Streams' windowed aggregation, like for like: with a grace of all its input's event
    // time, every reading is in one of its closed windows, the trailing ones too, none dropped
    final BenchResults.WindowedAggregate windowed = results.windowedAggregate();
    assertThat(windowed.droppedAsLate()).isZero();
    assertThat(windowed.readingsInWindows()).isEqualTo(results.sent().readings());
    assertThat(windowed.windows()).isEqualTo(4L * 90 + 4);
    assertThat(windowed.rate().readingsPerSecond()).isPositive();
    assertThat(windowed.rate().cpuMillisPerThousand()).isPositive();

    final List<RangeReads.Answer> reads = results.rangeReads();
    assertThat(reads)
        .extracting(RangeReads.Answer::documentsRead)
        .containsExactly(1L, 3_600L, 2L, 3_600L);
    // what each layout stores: bucketer's documents, and one per reading with its index
    // (every granularity, 1m, 1h, one document per reading)
    assertThat(results.storage())
        .extracting(StoredFootprint::documents)
        .containsExactly(bucketDocuments, 4L * 90, 4L * 2, fleetReadings + 4);
    assertThat(results.storage().get(0).indexBytes()).isPositive();
    assertThat(results.storage().get(0).bytesPerReading(fleetReadings))
        .isLessThan(results.storage().get(3).bytesPerReading(fleetReadings));
    // the same hour answered from buckets and from single readings gives the same average
    assertThat(reads.get(0).average()).isCloseTo(reads.get(1).average(), within(1e-9));
    assertThat(reads.get(2).average()).isCloseTo(reads.get(3).average(), within(1e-9));

    assertThat(printed.toString(StandardCharsets.UTF_8))
        .contains(
            "2/1 end-to-end vs raw consume",
            "2/3 end-to-end vs sink connector",
            "CPU per reading, 2/1b (bucketer vs floor)",
            "2s/2p over SASL_SSL vs PLAINTEXT, readings/s",
            "CPU per reading, 2s/2p (SASL_SSL vs PLAINTEXT)",
            "2p/2n quantile sketches on vs off, readings/s",
            "CPU per reading, 2p/2n (quantile sketches on vs off)",
            "bytes per reading, 2p/2n (quantile sketches on vs off)",
            "BSON bytes per reading stored, 2p (quantile sketches on) and 2n (off)",
            "CPU per reading, 2/4 (bucketer vs windowed aggregate)",
            "the same, without MongoDB's CPU and the JIT's",
            "Kafka records written per reading",
            "changelogs total",
            "bytes per reading, bucketer / one document per reading",
            "machine: ",
            " cores, ",
            "load average at the start: ",
            "load average at the end: ",
            "Over 2 measured rounds",
            "Where row 2's CPU went, ms per 1,000 readings",
            "median (min - max)");
    // Rows 2s and 2p log in with generated SCRAM passwords: none reaches the bench's output.
    assertThat(printed.toString(StandardCharsets.UTF_8))
        .doesNotContain("password=", "ScramLoginModule", "sasl.jaas.config");
  }

  /**
   * Row 2's CPU by stage, on 60 sensors for 90 minutes (324,060 readings): about 270 samples of row
   * 2, of which decode, the smallest stage asserted, has about 15 (seen at 40 sensors: 181 samples,
   * decode 8 and 14); the test above, 15 times smaller, had 23 to 48 samples in all, too few for
   * every stage to have one. The rows this test has no use for are left out, but for 2p and 2n,
   * which every round runs.
   */
  @Test
  void shouldSayWhereRowTwosCpuWent() throws Exception {
    final ByteArrayOutputStream printed = new ByteArrayOutputStream();
    final BenchRounds rounds =
        new ThroughputBench(
                new ThroughputBench.Options(
                    60,
                    Duration.ofSeconds(1),
                    Duration.ofMinutes(90),
                    Duration.ZERO,
                    0,
                    1,
                    2,
                    false,
                    false,
                    PHASE_TIMEOUT,
                    Map.of()),
                new PrintStream(printed, true, StandardCharsets.UTF_8))
            .run();

    final BenchResults round = rounds.last();
    final StageBreakdown stages = round.stages();
    assertThat(stages).isNotNull();
    final Map<String, Double> byLine =
        stages.lines().stream()
            .collect(
                Collectors.toMap(
                    StageBreakdown.Line::name, StageBreakdown.Line::millisPerThousand));
    assertThat(byLine.get(StageClassifier.Stage.DECODE.label())).isPositive();
    assertThat(byLine.get(StageClassifier.Stage.AGGREGATE.label())).isPositive();
    assertThat(byLine.get(StageClassifier.Stage.SINK.label())).isPositive();
    // the embedded broker is another machine in production: a line of its own, in no stage
    assertThat(byLine.get(StageClassifier.Stage.BROKER.label())).isPositive();
    // the lines add up to the row's measured CPU per 1,000 readings
    assertThat(stages.total()).isCloseTo(round.processor().cpuMillisPerThousand(), within(1e-9));
    assertThat(sum(stages.lines())).isCloseTo(stages.total(), within(0.01));
    assertThat(stages.recorderShare()).isBetween(0.0, 0.1);
    assertThat(printed.toString(StandardCharsets.UTF_8))
        .contains(
            "Where row 2's CPU went, ms per 1,000 readings (JFR, 10 ms samples",
            "the recording's own threads took",
            "each line's own median",
            StageClassifier.Stage.BROKER.label(),
            StageBreakdown.TOTAL);
  }

  private static double sum(final List<StageBreakdown.Line> lines) {
    return lines.stream().mapToDouble(StageBreakdown.Line::millisPerThousand).sum();
  }

  @Test
  void shouldMeasureALiveFleetSampleBySampleAndInATable() throws Exception {
    final ByteArrayOutputStream printed = new ByteArrayOutputStream();
    final LiveBench.Result result =
        new LiveBench(
                List.of(2_000),
                List.of(LivePeer.Kind.STREAMS_FLOOR, LivePeer.Kind.WINDOWED_AGGREGATE),
                new MemoryBench.Options(
                    0,
                    Duration.ofSeconds(1),
                    Duration.ofSeconds(8),
                    Duration.ofSeconds(16),
                    Duration.ofSeconds(4),
                    "256m",
                    2,
                    Map.of(),
                    BucketerCli.class),
                Duration.ofHours(2),
                new PrintStream(printed, true, StandardCharsets.UTF_8))
            .run();

    // the same build's backlog, drained first: all of it processed, its CPU per reading measured
    // over the part after its first third
    final BacklogRun.Result backlog = result.backlog();
    assertThat(backlog.readings()).isEqualTo(100L * 2 * 3600 + 100);
    assertThat(backlog.measured()).isBetween(1L, backlog.readings());
    assertThat(backlog.cpuMillisPerThousand()).isPositive();
    final List<LiveBench.Row> rows = result.rows();
    assertThat(rows).hasSize(1);
    final MemorySample.Measured measured = rows.get(0).measured();
    assertThat(measured.series()).isEqualTo(2_000);
    assertThat(measured.processed()).isPositive();
    assertThat(measured.sent()).isPositive();
    assertThat(measured.behindAtTheEnd()).isNotNegative();
    assertThat(measured.cpuMillisPerThousand()).isPositive();
    assertThat(measured.peakHeapBytes()).isBetween(1L, 256L * 1024 * 1024);
    assertThat(measured.peakResidentBytes()).isPositive();
    assertThat(measured.stateDirectoryBytes()).isPositive();
    // the cores the processor and the benchmark's JVM (the broker) took over the stretch
    assertThat(rows.get(0).cores().processor()).isPositive();
    assertThat(rows.get(0).cores().broker()).isPositive();
    // the live fleet's cost to the cluster: its repartition, well under a record per reading
    assertThat(rows.get(0).perReading().records()).isPositive();
    assertThat(rows.get(0).perReading().bytes()).as("bytes from the broker's meters").isPositive();
    // the processor's CPU split by stage, from a recording of its own JVM: the lines add up to the
    // process's CPU, every stage has its line, and the aggregate was seen. Not the decode: about
    // 2 % of the processor's CPU, it may take no 10 ms sample in a stretch this short (it took
    // none in one full verify of 2026-12-02)
    final ProcessorStages.Breakdown stages = rows.get(0).stages();
    assertThat(stages.samples()).isPositive();
    assertThat(sum(stages.lines())).isCloseTo(stages.total(), within(1e-6));
    assertThat(stages.total()).isPositive();
    assertThat(stages.lines())
        .extracting(StageBreakdown.Line::name)
        .contains(StageClassifier.Stage.DECODE.label(), StageClassifier.Stage.AGGREGATE.label());
    assertThat(stages.lines())
        .filteredOn(line -> line.name().equals(StageClassifier.Stage.AGGREGATE.label()))
        .singleElement()
        .satisfies(line -> assertThat(line.millisPerThousand()).isPositive());
    // the JIT's deoptimizations, counted from the same recording (a JVM this young may well have
    // some, or none, in its stretch: the count is asserted to be read and printed, not its size)
    assertThat(stages.deoptimizationsPerThousand()).isNotNegative();
    // the same fleet through the peers, each in its own JVM: each processed some of it, wrote to
    // its repartition topic at least, and had its CPU split by stage (a stretch this short says
    // nothing of their rates: their JVMs start with the fleet)
    final List<LivePeerRun.Result> peers = rows.get(0).peers();
    assertThat(peers)
        .extracting(LivePeerRun.Result::kind)
        .containsExactly(LivePeer.Kind.STREAMS_FLOOR, LivePeer.Kind.WINDOWED_AGGREGATE);
    assertThat(peers)
        .allSatisfy(
            peer -> {
              assertThat(peer.keptUpShare()).isPositive();
              assertThat(peer.cpuMillisPerThousand()).isPositive();
              assertThat(peer.perReading().records()).isPositive();
              assertThat(sum(peer.stages().lines())).isCloseTo(peer.stages().total(), within(1e-6));
            });
    assertThat(printed.toString(StandardCharsets.UTF_8))
        .contains("The same fleets through the peers")
        .containsPattern("state directory by store: [^\n]*window-log-store [0-9.]+ MiB")
        .contains("Where the processor's CPU went, ms per 1,000 readings, by fleet:")
        .containsPattern("The JIT's deoptimizations per 1,000 readings: [0-9]+\\.[0-9]{3} ")
        .containsPattern("the JIT's deoptimizations per 1,000 readings \\(a count\\) +[0-9.]+\n")
        .containsPattern("processing rate +[0-9,]+ readings/s")
        .containsPattern("CPU per 1,000 readings processed +[0-9.]+ ms")
        .containsPattern("the benchmark's own heap reads +[0-9.]+ ms per 1,000 readings")
        .containsPattern(
            "garbage collection +[0-9.]+ MiB allocated and [0-9]+ KiB promoted per 1,000 readings")
        .containsPattern(
            "close -> visible in MongoDB +p50 (<=|>) [0-9,]+ ms|close -> visible in MongoDB +p50 -")
        .containsPattern(
            "bucketer-bench-memory-readings-by-series-repartition +0\\.[0-9]+ +[0-9.]+ ")
        .containsPattern("all of bucketer's topics together +[0-9]+\\.[0-9]+ +[0-9.]+ ")
        .containsPattern("Live fleets, one reading per sensor every 1s")
        .containsPattern("\n +2,000 +[0-9.]+% ")
        // who had the machine's cores, sample by sample and over the stretch
        .containsPattern("over the measured stretch +[0-9]+\\.[0-9]{2} +[0-9]+\\.[0-9]{2} ")
        .contains("Where the machine's cores went over the measured stretch, by fleet:")
        // the fleet beside the same build's backlog
        .contains("Live against the same build's backlog (100 sensors, 2h of event time")
        .containsPattern("\n +2,000 +[0-9]+\\.[0-9] +[0-9]+\\.[0-9]{2}\n");
  }
}
