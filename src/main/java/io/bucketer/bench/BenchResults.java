package io.bucketer.bench;

import io.bucketer.embedded.MongoOperationCounter;
import java.io.PrintStream;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The figures of one benchmark run, and the table that shows them next to their targets. {@code
 * storedWithQuantiles} and {@code storedWithoutQuantiles} are what rows 2p and 2n stored: every
 * granularity together, then each apart.
 */
public record BenchResults(
    BenchFleet.Sent sent,
    Rate raw,
    Rate streamsFloor,
    Rate processor,
    Rate processorKeyedBySensor,
    Rate processorOverSaslSsl,
    Rate processorPlaintextTwin,
    Rate processorWithoutQuantiles,
    Rate connector,
    WindowedAggregate windowedAggregate,
    double latencyP50Millis,
    double latencyP99Millis,
    long latencySamples,
    Map<String, Map<String, Long>> stateOperations,
    List<RangeReads.Answer> rangeReads,
    List<StoredFootprint> storage,
    List<StoredFootprint> storedWithQuantiles,
    List<StoredFootprint> storedWithoutQuantiles,
    StageBreakdown stages) {

  /**
   * One contender: readings per second, the MongoDB work it asked for (null: none), and the Kafka
   * records its Kafka Streams producers wrote (null: not a Kafka Streams application).
   */
  public record Rate(
      long readings,
      PhaseClock.Measured time,
      MongoOperationCounter.Counts mongo,
      ProducedRecords kafka) {

    public double readingsPerSecond() {
      return readings / (time.elapsed().toNanos() / 1e9);
    }

    /** CPU milliseconds, of every process involved, per thousand readings. */
    public double cpuMillisPerThousand() {
      return perThousand(time.cpu());
    }

    /** Of {@link #cpuMillisPerThousand}, the MongoDB server's. */
    public double mongoCpuMillisPerThousand() {
      return perThousand(time.mongo());
    }

    /** Of {@link #cpuMillisPerThousand}, what is neither the MongoDB server's nor the JIT's. */
    public double steadyCpuMillisPerThousand() {
      return perThousand(time.cpuWithoutMongoOrJit());
    }

    private double perThousand(final Duration cpu) {
      return cpu.toNanos() / 1e6 / (readings / 1000.0);
    }

    /** Write statements (documents inserted or updated) per reading. */
    public double writesPerReading() {
      return mongo.writeStatements() / (double) readings;
    }

    public double commandsPerReading() {
      return mongo.writeCommands() / (double) readings;
    }

    /** Kafka records written to {@code topic} per reading. */
    public double kafkaRecordsPerReading(final String topic) {
      return kafka.to(topic) / (double) readings;
    }

    /** Kafka records written to all changelog topics together, per reading. */
    public double changelogRecordsPerReading() {
      return kafka.changelogs() / (double) readings;
    }
  }

  /**
   * Kafka Streams' own windowed aggregation on the same readings: its rate, the closed windows it
   * emitted, the readings they hold, and the readings it dropped as late.
   */
  public record WindowedAggregate(
      Rate rate, long windows, long readingsInWindows, long droppedAsLate) {

    /** Of the readings that could close, the share dropped: work the row's figures leave out. */
    public double droppedShare() {
      return droppedAsLate / (double) (readingsInWindows + droppedAsLate);
    }
  }

  // Issue 11's targets.
  static final double MIN_FLOOR_RATIO = 0.6;
  static final double MIN_CONNECTOR_RATIO = 3;
  static final double MAX_CPU_TO_FLOOR = 2;
  static final double MAX_CPU_TO_WINDOWED_AGGREGATE = 1.0;
  static final double MAX_WRITES_PER_READING = 1 / 50.0;
  static final double MAX_P99_MILLIS = 1_000;

  /** 2/1: no longer a target (no Kafka Streams design reaches it), printed for information. */
  public double processorToRaw() {
    return processor.readingsPerSecond() / raw.readingsPerSecond();
  }

  /** 2/1b: bucketer's share of what Kafka Streams alone does with the same readings. */
  public double processorToFloor() {
    return processor.readingsPerSecond() / streamsFloor.readingsPerSecond();
  }

  public double processorToConnector() {
    return processor.readingsPerSecond() / connector.readingsPerSecond();
  }

  /** 2k/3: bucketer on input keyed by sensor against the connector. */
  public double keyedProcessorToConnector() {
    return processorKeyedBySensor.readingsPerSecond() / connector.readingsPerSecond();
  }

  /**
   * 2s/2p: bucketer over SASL_SSL (TLS, SCRAM, ACLs) against its twin over PLAINTEXT run right
   * after it, on the same broker and readings.
   */
  public double saslSslToPlaintext() {
    return processorOverSaslSsl.readingsPerSecond() / processorPlaintextTwin.readingsPerSecond();
  }

  /** bucketer's CPU per reading over SASL_SSL over that of its PLAINTEXT twin. */
  public double cpuSaslSslToPlaintext() {
    return processorOverSaslSsl.cpuMillisPerThousand()
        / processorPlaintextTwin.cpuMillisPerThousand();
  }

  /**
   * 2p/2n: bucketer with quantile sketches (the default) against the same without them, run right
   * after it. Which of two rows runs first swings their ratio by more than the sketches cost: in
   * three default runs 2n, run second, took more CPU per reading than 2p (docs/benchmarks.md).
   */
  public double quantilesOnToOff() {
    return processorPlaintextTwin.readingsPerSecond()
        / processorWithoutQuantiles.readingsPerSecond();
  }

  /** bucketer's CPU per reading with quantile sketches over that without: what they cost. */
  public double cpuQuantilesOnToOff() {
    return processorPlaintextTwin.cpuMillisPerThousand()
        / processorWithoutQuantiles.cpuMillisPerThousand();
  }

  /**
   * The same without the MongoDB server's CPU time and the JIT compilers': the processor's side
   * alone. The stand-in's CPU grows with the bytes of the documents it stores, and is not a MongoDB
   * server's.
   */
  public double steadyCpuQuantilesOnToOff() {
    return processorPlaintextTwin.steadyCpuMillisPerThousand()
        / processorWithoutQuantiles.steadyCpuMillisPerThousand();
  }

  /**
   * The BSON bytes of the documents bucketer stored with quantile sketches over those without,
   * every granularity together: the same readings, so also the ratio of their bytes per reading.
   */
  public double bytesQuantilesOnToOff() {
    return storedWithQuantiles.get(0).documentBytes()
        / (double) storedWithoutQuantiles.get(0).documentBytes();
  }

  /** bucketer's CPU per reading over the floor's. */
  public double cpuToFloor() {
    return processor.cpuMillisPerThousand() / streamsFloor.cpuMillisPerThousand();
  }

  /** bucketer's CPU per reading over that of Kafka Streams' own windowed aggregation. */
  public double cpuToWindowedAggregate() {
    return processor.cpuMillisPerThousand() / windowedAggregate.rate().cpuMillisPerThousand();
  }

  /**
   * The same, without the MongoDB server's CPU time and the JIT compilers': what each costs per
   * reading in a processor's steady state, on the processor's side. Row 4 writes nothing to
   * MongoDB, so the target's figure charges bucketer alone for a database's work; and it is the
   * stand-in's work, which is not what a mongod does per document.
   */
  public double steadyCpuToWindowedAggregate() {
    return processor.steadyCpuMillisPerThousand()
        / windowedAggregate.rate().steadyCpuMillisPerThousand();
  }

  void print(final PrintStream out) {
    out.println();
    out.printf(
        "%-58s %12s %9s %13s %7s %9s %13s %15s %12s%n",
        "",
        "readings/s",
        "seconds",
        "CPU ms/1k",
        "JIT",
        "MongoDB",
        "write cmds",
        "docs written",
        "writes/read");
    row(out, "1 raw consume + decode (the limit)", raw);
    row(out, "1b Kafka Streams floor (repartition only)", streamsFloor);
    row(out, "2 bucketer: produced -> in MongoDB", processor);
    row(out, "2k bucketer, input keyed by sensor (no repartition)", processorKeyedBySensor);
    if (processorOverSaslSsl != null) {
      row(out, "2s bucketer over SASL_SSL (SCRAM, TLS, ACLs)", processorOverSaslSsl);
    }
    row(
        out,
        processorOverSaslSsl != null
            ? "2p bucketer over PLAINTEXT, right after 2s"
            : "2p bucketer again, PLAINTEXT",
        processorPlaintextTwin);
    row(out, "2n bucketer, quantiles.enabled=false, right after 2p", processorWithoutQuantiles);
    if (connector != null) {
      row(out, "3 MongoDB sink connector, 1 doc/read", connector);
    }
    row(
        out,
        "4 Kafka Streams windowed aggregate (count/sum/min/max, 1m)",
        windowedAggregate.rate());
    out.printf(
        "%-58s %,d in %,d closed windows, %,d (%.0f%%) dropped as late%n",
        "  4's readings",
        windowedAggregate.readingsInWindows(),
        windowedAggregate.windows(),
        windowedAggregate.droppedAsLate(),
        100.0 * windowedAggregate.droppedShare());
    out.println(
        "  like for like: 4's grace is all of its input's event time, so that none of the readings"
            + " is late however the backlog reorders them (bucketer merges late ones into the"
            + " buckets it wrote); its windows close at the end, when ticks stamped past them all"
            + " arrive, where a live stream's would close minute by minute");
    if (connector != null) {
      out.println(
          "  3 writes each reading as it comes and aggregates nothing; its JVM starts cold each"
              + " round, so it is timed over its last "
              + Math.round(100 * (1 - ConnectorRun.WARMUP_SHARE))
              + "% of the readings");
    }
    out.println(
        "  2n: 2p without quantile sketches, right after it; the rows' order swings 2p/2n by more"
            + " than the sketches cost (docs/benchmarks.md)");
    out.println(
        "  JIT: the share of the CPU time this JVM's compilers took during the row (the"
            + " connector's own JVM not counted)");
    out.println(
        "  MongoDB: of the CPU ms/1k, the MongoDB server's (the stand-in's JVM; in production,"
            + " the database's own machines)");
    if (stages != null) {
      out.println();
      stages.print(out);
    }
    out.println();
    out.println(
        "Kafka records written per reading, by topic (the Kafka Streams producers'"
            + " record-send-total):");
    kafkaRecords(out, "1b Kafka Streams floor", streamsFloor);
    kafkaRecords(out, "2 bucketer", processor);
    kafkaRecords(out, "2k bucketer, keyed by sensor", processorKeyedBySensor);
    if (processorOverSaslSsl != null) {
      kafkaRecords(out, "2s bucketer over SASL_SSL", processorOverSaslSsl);
    }
    kafkaRecords(out, "4 Kafka Streams windowed aggregate", windowedAggregate.rate());
    out.println();
    out.println(
        "State operations per reading (what reached RocksDB behind the aggregator's window cache;"
            + " a put is also a changelog record):");
    stateOperations.forEach(
        (row, operations) -> {
          final Rate rate = row.startsWith("2k") ? processorKeyedBySensor : processor;
          final StringBuilder line = new StringBuilder();
          operations.forEach(
              (operation, count) ->
                  line.append(
                      String.format("  %s %.3f", operation, count / (double) rate.readings())));
          out.printf("  %-56s%s%n", row, line);
        });
    out.println();
    out.printf("%-58s %8s   %s%n", "ratio", "measured", "target");
    target(
        out,
        "2/1b end-to-end vs Kafka Streams floor",
        processorToFloor(),
        ">= 0.6",
        processorToFloor() >= MIN_FLOOR_RATIO);
    if (connector != null) {
      out.printf(
          "%-58s %8.2f   %s%n",
          "2/3 end-to-end vs sink connector",
          processorToConnector(),
          "(information: about 2 when 2/1b is 0.6)");
      target(
          out,
          "2k/3 input keyed by sensor vs sink connector",
          keyedProcessorToConnector(),
          ">= 3",
          keyedProcessorToConnector() >= MIN_CONNECTOR_RATIO);
    }
    if (processorOverSaslSsl != null) {
      out.printf(
          "%-58s %8.2f   %s%n",
          "2s/2p over SASL_SSL vs PLAINTEXT, readings/s",
          saslSslToPlaintext(),
          "(information: the same broker, readings and settings)");
      out.printf(
          "%-58s %8.2f   %s%n",
          "CPU per reading, 2s/2p (SASL_SSL vs PLAINTEXT)",
          cpuSaslSslToPlaintext(),
          "(information: TLS on both ends, in this JVM, counted)");
    }
    out.printf(
        "%-58s %8.2f   %s%n",
        "2p/2n quantile sketches on vs off, readings/s",
        quantilesOnToOff(),
        "(information: 2n runs after 2p: order swings it both ways)");
    out.printf(
        "%-58s %8.2f   %s%n",
        "CPU per reading, 2p/2n (quantile sketches on vs off)",
        cpuQuantilesOnToOff(),
        "(information: 2n runs after 2p: order swings it both ways)");
    out.printf(
        "%-58s %8.2f   %s%n",
        "  the same, without MongoDB's CPU and the JIT's",
        steadyCpuQuantilesOnToOff(),
        "(information: the processor's side alone)");
    out.printf(
        "%-58s %8.2f   %s%n",
        "bytes per reading, 2p/2n (quantile sketches on vs off)",
        bytesQuantilesOnToOff(),
        "(information: BSON of the documents, every granularity)");
    target(
        out,
        "CPU per reading, 2/1b (bucketer vs floor)",
        cpuToFloor(),
        "<= 2",
        cpuToFloor() <= MAX_CPU_TO_FLOOR);
    target(
        out,
        "CPU per reading, 2/4 (bucketer vs windowed aggregate)",
        cpuToWindowedAggregate(),
        "<= 1.0",
        cpuToWindowedAggregate() <= MAX_CPU_TO_WINDOWED_AGGREGATE);
    out.printf(
        "%-58s %8.2f   %s%n",
        "  the same, without MongoDB's CPU and the JIT's",
        steadyCpuToWindowedAggregate(),
        "(information: the processors' steady state; 4 writes nothing to MongoDB)");
    if (windowedAggregate.droppedAsLate() > 0) {
      out.printf(
          "  (4 dropped %.0f%% of the readings that can close as late: its CPU leaves their"
              + " work out; with one input partition it drops none)%n",
          100.0 * windowedAggregate.droppedShare());
    }
    out.printf(
        "%-58s %8.2f   %s%n",
        "2/1 end-to-end vs raw consume", processorToRaw(), "(information, no longer a target)");
    out.println();
    out.printf(
        "%-40s 1 per %.1f readings (target <= 1 per 50: %s)%n",
        "MongoDB writes, bucketer",
        1 / processor.writesPerReading(),
        verdict(processor.writesPerReading() <= MAX_WRITES_PER_READING));
    if (connector != null) {
      out.printf(
          "%-40s %.2f per reading, %.4f write commands per reading%n",
          "MongoDB writes, sink connector",
          connector.writesPerReading(),
          connector.commandsPerReading());
    }
    out.printf(
        "%-40s p50 %.0f ms, p99 %.0f ms over %,d buckets (target p99 <= 1000 ms: %s)%n",
        "close -> visible in MongoDB, bucketer",
        latencyP50Millis,
        latencyP99Millis,
        latencySamples,
        verdict(latencyP99Millis <= MAX_P99_MILLIS));
    out.println();
    printQuantileBytes(out);
    out.println();
    out.println("reads of sensor-0000 temperature, documents MongoDB returned for each:");
    out.printf("  %-46s %10s %12s%n", "question and layout", "docs read", "average");
    for (final RangeReads.Answer answer : rangeReads) {
      out.printf(
          "  %-46s %,10d %12.6f%n", answer.layout(), answer.documentsRead(), answer.average());
    }
    if (storage.isEmpty()) {
      return;
    }
    out.println();
    out.println(
        "stored in MongoDB for the same readings (BSON of every document; index entries"
            + " uncompressed, key + 8-byte record id):");
    out.printf(
        "  %-42s %10s %10s %12s %12s %10s%n",
        "layout", "documents", "docs/read", "doc B/read", "index B/read", "B/read");
    final long readings = sent.readings();
    for (final StoredFootprint footprint : storage) {
      out.printf(
          "  %-42s %,10d %10.4f %12.1f %12.1f %10.1f%n",
          footprint.layout(),
          footprint.documents(),
          footprint.documentsPerReading(readings),
          footprint.documentBytesPerReading(readings),
          footprint.indexBytes() / (double) readings,
          footprint.bytesPerReading(readings));
    }
    final StoredFootprint last = storage.get(storage.size() - 1);
    if (last.layout().contains("one document per reading")) {
      out.printf(
          "  bytes per reading, bucketer / one document per reading: %.2f%n",
          storage.get(0).bytesPerReading(readings) / last.bytesPerReading(readings));
    }
  }

  /** What 2p and 2n stored for the same readings: the documents' bytes, which sketches grow. */
  private void printQuantileBytes(final PrintStream out) {
    out.println(
        "stored in MongoDB by 2p (quantile sketches on) and 2n (off), BSON of every document:");
    out.printf("  %-46s %10s %12s%n", "layout", "documents", "doc B/read");
    for (final StoredFootprint footprint :
        Stream.concat(storedWithQuantiles.stream(), storedWithoutQuantiles.stream()).toList()) {
      out.printf(
          "  %-46s %,10d %12.2f%n",
          footprint.layout(),
          footprint.documents(),
          footprint.documentBytesPerReading(sent.readings()));
    }
  }

  private static void row(final PrintStream out, final String name, final Rate rate) {
    out.printf(
        "%-58s %,12.0f %9.1f %13.1f %6.0f%% %9.1f %13s %15s %12s%n",
        name,
        rate.readingsPerSecond(),
        rate.time().elapsed().toNanos() / 1e9,
        rate.cpuMillisPerThousand(),
        100 * rate.time().jitShare(),
        rate.mongoCpuMillisPerThousand(),
        rate.mongo() == null ? "-" : String.format("%,d", rate.mongo().writeCommands()),
        rate.mongo() == null ? "-" : String.format("%,d", rate.mongo().writeStatements()),
        rate.mongo() == null ? "-" : String.format("%.4f", rate.writesPerReading()));
  }

  private static void kafkaRecords(final PrintStream out, final String name, final Rate rate) {
    out.printf("  %s%n", name);
    for (final String topic : rate.kafka().topics()) {
      out.printf(
          "    %-54s %8.3f%n", rate.kafka().shortName(topic), rate.kafkaRecordsPerReading(topic));
    }
    out.printf("    %-54s %8.3f%n", "changelogs total", rate.changelogRecordsPerReading());
  }

  private static void target(
      final PrintStream out,
      final String name,
      final double value,
      final String target,
      final boolean met) {
    out.printf("%-58s %8.2f   %-8s %s%n", name, value, target, verdict(met));
  }

  private static String verdict(final boolean met) {
    return met ? "met" : "MISSED";
  }
}
