package io.bucketer.bench;

import com.mongodb.reactivestreams.client.MongoClient;
import com.mongodb.reactivestreams.client.MongoClients;
import io.bucketer.avro.Reading;
import io.bucketer.buckets.BucketDocumentNames;
import io.bucketer.buckets.Granularity;
import io.bucketer.config.InputSettings;
import io.bucketer.config.KafkaSettings;
import io.bucketer.config.MongoSettings;
import io.bucketer.config.WindowSettings;
import io.bucketer.embedded.EmbeddedKafkaBroker;
import io.bucketer.embedded.InProcessSchemaRegistry;
import io.bucketer.embedded.MongoServerProcess;
import io.bucketer.ingest.SchemaRegistryClient;
import io.bucketer.query.StoredDocuments;
import io.bucketer.simulate.GatewayFleet;
import io.bucketer.simulate.GatewayMessage;
import io.bucketer.simulate.GatewayRecord;
import io.bucketer.simulate.MessageEncoder;
import io.bucketer.simulate.ReadingGenerator;
import io.bucketer.simulate.ReadingSimulator;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.utils.Utils;
import reactor.core.publisher.Mono;

/**
 * bucketer reading the same readings in each input format, side by side in one run: for each format
 * its own topic holds the same gateways' messages, written as that format writes them, and
 * bucketer, with its production defaults and the settings a user would set for that format, drains
 * it until MongoDB holds every bucket document. The first row is the reference: bucketer's own Avro
 * {@code Reading}, one reading a record; every other row sends three readings a record (a gateway's
 * temperature, humidity and battery), as gateways of those formats do.
 *
 * <p>Each round runs every row, starting one row further each round, so that no row is always first
 * (rows that run later in a round ran faster in {@link ThroughputBench}); the figures are the
 * medians over the rounds, with their spread, and each row's ratio to the reference row is taken
 * within each round.
 */
public final class FormatsBench {

  private static final List<Granularity> GRANULARITIES =
      List.of(Granularity.parse("1m"), Granularity.parse("1h"));
  private static final int SERIES_PARTITIONS = 6;

  /**
   * @param devices gateways, each sending one message of three values every {@code interval}
   * @param span event time each round's fleet covers
   * @param warmupSpan event time of the warm-up round's fleet (the JIT's); zero: no warm-up
   * @param rounds measured rounds
   * @param formats the formats to compare, the reference first
   */
  public record Options(
      int devices,
      Duration interval,
      Duration span,
      Duration warmupSpan,
      int rounds,
      int inputPartitions,
      Duration phaseTimeout,
      List<Row> formats,
      Map<String, String> processorSettings) {}

  /**
   * A contender: records of {@code shape} in {@code format}; with {@link
   * GatewayFleet.Shape#READING} each of a gateway's messages goes as its three readings, one record
   * each.
   */
  public record Row(String label, GatewayFleet.Shape shape, GatewayFleet.Format format) {

    /** bucketer's own Avro Reading, one reading a record: the reference. */
    public static final Row REFERENCE =
        new Row("avro, Reading (1 a record)", GatewayFleet.Shape.READING, GatewayFleet.Format.AVRO);

    /** Every format the simulator writes, the reference first. */
    public static List<Row> all() {
      final List<Row> rows = new ArrayList<>(List.of(REFERENCE));
      for (final GatewayFleet.Format format : GatewayFleet.Format.values()) {
        rows.add(
            new Row(format.label() + ", gateway (3 a record)", GatewayFleet.Shape.GATEWAY, format));
      }
      return rows;
    }

    String slug() {
      return (shape.name() + "-" + format.label()).toLowerCase().replaceAll("[^a-z0-9]+", "-");
    }
  }

  /** One row of one round. */
  record Figures(Row row, long readings, long records, long valueBytes, PhaseClock.Measured time) {

    double readingsPerSecond() {
      return readings / (time.elapsed().toNanos() / 1e9);
    }

    /**
     * This JVM's CPU (broker, processor) per 1,000 readings, without the stand-in's or the JIT's.
     */
    double cpuMillisPerThousand() {
      return time.cpuWithoutMongoOrJit().toNanos() / 1e6 / readings * 1000;
    }
  }

  private final Options options;
  private final PrintStream out;

  public FormatsBench(final Options options, final PrintStream out) {
    this.options = options;
    this.out = out;
  }

  /**
   * Warms up, runs the measured rounds, prints each and the medians; returns every round's rows.
   */
  public List<List<Figures>> run() throws Exception {
    out.println(Machine.describe());
    out.println(Machine.load("at the start"));
    try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.start();
        MongoServerProcess mongo = MongoServerProcess.start();
        StandInOperations operations = new StandInOperations(mongo.connectionString());
        InProcessSchemaRegistry registry = InProcessSchemaRegistry.start()) {
      final Infrastructure infrastructure = new Infrastructure(broker, mongo, registry, operations);
      if (!options.warmupSpan().isZero()) {
        out.println("warm-up round (the JIT compiles every format's code; not measured)");
        round(infrastructure, "warmup", options.warmupSpan(), 0);
      }
      final List<List<Figures>> rounds = new ArrayList<>();
      for (int number = 1; number <= options.rounds(); number++) {
        out.printf("measured round %d of %d%n", number, options.rounds());
        final List<Figures> figures =
            round(infrastructure, "round" + number, options.span(), number - 1);
        FormatsTable.printRound(out, figures);
        rounds.add(figures);
      }
      FormatsTable.printMedians(out, rounds);
      out.println(Machine.load("at the end"));
      return rounds;
    }
  }

  private record Infrastructure(
      EmbeddedKafkaBroker broker,
      MongoServerProcess mongo,
      InProcessSchemaRegistry registry,
      StandInOperations operations) {}

  /** Every row once, the first being {@code first}; returns the rows in {@link Options} order. */
  private List<Figures> round(
      final Infrastructure infrastructure, final String name, final Duration span, final int first)
      throws Exception {
    final List<Row> rows = options.formats();
    final Figures[] figures = new Figures[rows.size()];
    for (int i = 0; i < rows.size(); i++) {
      final int index = (first + i) % rows.size();
      figures[index] = row(infrastructure, name, span, rows.get(index));
    }
    return List.of(figures);
  }

  private Figures row(
      final Infrastructure infrastructure, final String round, final Duration span, final Row row)
      throws Exception {
    final String id = "formats-" + round + "-" + row.slug();
    infrastructure.broker().createTopic(id, options.inputPartitions(), Map.of());
    final Fleet fleet = new Fleet(options.devices(), options.interval(), span);
    out.printf("[%s] %s: filling %s%n", round, row.label(), id);
    final Sent sent = fleet.send(infrastructure, id, row);
    final Path stateDir = Files.createTempDirectory("bucketer-formats-");
    final Map<String, Object> settings = new HashMap<>();
    settings.put(KafkaSettings.BOOTSTRAP_SERVERS, infrastructure.broker().bootstrapServers());
    settings.put(InputSettings.SCHEMA_REGISTRY_URL, infrastructure.registry().url());
    settings.put(MongoSettings.URI, infrastructure.mongo().connectionString());
    settings.put(MongoSettings.DATABASE, id.replace('-', '_'));
    settings.put(InputSettings.TOPIC, id);
    settings.put(KafkaSettings.BUCKETS_TOPIC, id + "-buckets");
    settings.put(KafkaSettings.DEAD_LETTER_TOPIC, id + "-dead-letters");
    settings.put(KafkaSettings.APPLICATION_ID, "bucketer-" + id);
    settings.put(KafkaSettings.SERIES_PARTITIONS, Integer.toString(SERIES_PARTITIONS));
    settings.put(KafkaSettings.TOPIC_REPLICATION_FACTOR, "1");
    // The trailing messages close every window by event time; nothing should close by wall clock.
    settings.put(WindowSettings.IDLE_TIMEOUT, "1h");
    settings.put(KafkaSettings.CLIENT_PREFIX + "state.dir", stateDir.toString());
    settings.putAll(GatewayFleet.inputSettings(GatewayFleet.Shape.GATEWAY, row.format()));
    if (row.shape() == GatewayFleet.Shape.READING) {
      settings.putAll(GatewayFleet.inputSettings(row.shape(), row.format()));
      for (final String mapping :
          List.of(
              InputSettings.SENSOR_ID_FIELD,
              InputSettings.TIME_FIELD,
              InputSettings.METRIC_FIELD,
              InputSettings.UTC_OFFSET_FIELD,
              InputSettings.VALUE_FIELDS)) {
        settings.remove(mapping); // the defaults read bucketer's own Reading
      }
    }
    settings.putAll(options.processorSettings());
    final String database = (String) settings.get(MongoSettings.DATABASE);
    // As in ThroughputBench: the stand-in's collector, whose work grows with what earlier rows
    // wrote, would otherwise run in the middle of whichever row came next.
    Jcmd.run(infrastructure.mongo().processHandle().pid(), "GC.run");
    final long before = infrastructure.operations().counts().writeStatements();
    final ProcessorRun.Result result;
    try {
      result =
          ProcessorRun.run(
              PhaseClock.counting(infrastructure.mongo().processHandle()),
              settings,
              sent.documents(),
              () -> infrastructure.operations().counts().writeStatements() - before,
              () -> storedDocuments(infrastructure.mongo(), database),
              options.phaseTimeout(),
              false,
              n -> out.printf("    %,d of %,d documents written%n", n, sent.documents()));
    } finally {
      Utils.delete(stateDir.toFile());
    }
    checkEveryReadingIsInABucket(infrastructure.mongo(), database, sent.fleetReadings());
    // Checked, the documents have done their part. The stand-in keeps every document on its heap:
    // kept, the rows' documents slowed every later row (the third round's ran at a fifth of the
    // first's rate), where a MongoDB server would have them on disk.
    try (MongoClient client = MongoClients.create(infrastructure.mongo().connectionString())) {
      Mono.from(client.getDatabase(database).drop()).block(Duration.ofMinutes(1));
    }
    final Figures figures =
        new Figures(row, sent.readings(), sent.records(), sent.valueBytes(), result.time());
    out.printf(
        "    %,.0f readings/s, %.2f ms CPU per 1k readings%n",
        figures.readingsPerSecond(), figures.cpuMillisPerThousand());
    return figures;
  }

  /** What one row's topic holds. */
  private record Sent(
      long readings, long fleetReadings, long records, long valueBytes, long documents) {}

  /**
   * The gateways: {@code devices} of them, one message every {@code interval} for {@code span} of
   * event time from an hour in the past, then one trailing message each, an hour and a minute
   * later, which closes every window of the fleet's by event time.
   */
  private record Fleet(int devices, Duration interval, Duration span) {

    Sent send(final Infrastructure infrastructure, final String topic, final Row row) {
      final Instant start =
          Instant.now().truncatedTo(ChronoUnit.HOURS).minus(Duration.ofHours(3 + span.toHours()));
      final long messages = devices * (span.toMillis() / interval.toMillis());
      final List<Reading> trailing = new ArrayList<>();
      final Instant trailingTime = start.plus(span).plus(Duration.ofMinutes(61));
      for (int device = 0; device < devices; device++) {
        trailing.add(
            Reading.newBuilder()
                .setSensorId(String.format("sensor-%04d", device))
                .setMetric("temperature")
                .setTimestamp(trailingTime)
                .setValue(20)
                .build());
      }
      final Iterator<Reading> generated =
          new ReadingGenerator(
              new ReadingGenerator.Options(
                  devices, start, interval, Duration.ZERO, 0, 0, messages, 42));
      final Set<String> windows = new HashSet<>();
      final AtomicLong fleetReadings = new AtomicLong();
      final Iterator<Reading> counted =
          new Iterator<>() {
            @Override
            public boolean hasNext() {
              return generated.hasNext() || !trailing.isEmpty();
            }

            @Override
            public Reading next() {
              if (generated.hasNext()) {
                final Reading reading = generated.next();
                for (final Reading inMessage : GatewayMessage.of(reading).readings()) {
                  fleetReadings.incrementAndGet();
                  for (final Granularity granularity : GRANULARITIES) {
                    windows.add(
                        granularity
                            + "/"
                            + inMessage.getSensorId()
                            + "/"
                            + inMessage.getMetric()
                            + "/"
                            + granularity.windowStart(inMessage.getTimestamp().toEpochMilli()));
                  }
                }
                return reading;
              }
              return trailing.remove(0);
            }
          };
      final SchemaRegistryClient registry =
          new SchemaRegistryClient(infrastructure.registry().url());
      final AtomicLong records = new AtomicLong();
      final AtomicLong valueBytes = new AtomicLong();
      final MessageEncoder encoder = counting(encoder(row, registry, topic), records, valueBytes);
      try (KafkaProducer<byte[], byte[]> producer =
          FleetProducer.to(infrastructure.broker().bootstrapServers(), topic)) {
        new ReadingSimulator(producer, encoder, topic).run(counted, 0);
      }
      final long readings = fleetReadings.get() + 3L * devices;
      return new Sent(
          readings, fleetReadings.get(), records.get(), valueBytes.get(), windows.size());
    }

    /** For the reference row, a gateway's message goes as its three readings, one record each. */
    private static MessageEncoder encoder(
        final Row row, final SchemaRegistryClient registry, final String topic) {
      if (row.shape() == GatewayFleet.Shape.GATEWAY) {
        return GatewayFleet.encoder(row.shape(), row.format(), registry, topic);
      }
      final MessageEncoder single =
          GatewayFleet.encoder(row.shape(), row.format(), registry, topic);
      return reading -> {
        final List<GatewayRecord> records = new ArrayList<>(3);
        for (final Reading inMessage : GatewayMessage.of(reading).readings()) {
          records.addAll(single.records(inMessage));
        }
        return records;
      };
    }

    private static MessageEncoder counting(
        final MessageEncoder encoder, final AtomicLong records, final AtomicLong valueBytes) {
      return reading -> {
        final List<GatewayRecord> made = encoder.records(reading);
        records.addAndGet(made.size());
        made.forEach(record -> valueBytes.addAndGet(record.value().length));
        return made;
      };
    }
  }

  private static long storedDocuments(final MongoServerProcess mongo, final String database) {
    try (StoredDocuments reader =
        new StoredDocuments(
            mongo.connectionString(), database, BucketDocumentNames.DEFAULT_COLLECTION_PREFIX)) {
      return GRANULARITIES.stream().mapToLong(reader::documents).sum();
    }
  }

  /** A fast row that lost readings would be worthless: the buckets must hold every reading. */
  private static void checkEveryReadingIsInABucket(
      final MongoServerProcess mongo, final String database, final long fleetReadings) {
    try (StoredDocuments reader =
        new StoredDocuments(
            mongo.connectionString(), database, BucketDocumentNames.DEFAULT_COLLECTION_PREFIX)) {
      for (final Granularity granularity : GRANULARITIES) {
        final long inBuckets = reader.readingsInBuckets(granularity);
        if (inBuckets != fleetReadings) {
          throw new IllegalStateException(
              database
                  + ": "
                  + granularity
                  + " buckets hold "
                  + inBuckets
                  + " readings, expected "
                  + fleetReadings);
        }
      }
    }
  }
}
