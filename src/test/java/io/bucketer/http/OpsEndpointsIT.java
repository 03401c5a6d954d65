package io.bucketer.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.bucketer.app.BucketerApp;
import io.bucketer.avro.Reading;
import io.bucketer.buckets.Granularity;
import io.bucketer.config.BucketerConfig;
import io.bucketer.ingest.ReadingEncoder;
import io.bucketer.ingest.SchemaRegistryClient;
import io.bucketer.metrics.ProcessMeters;
import io.bucketer.simulate.ReadingGenerator;
import io.bucketer.simulate.ReadingSimulator;
import io.bucketer.sink.BucketReader;
import io.bucketer.testing.CuttableTcpProxy;
import io.bucketer.testing.LocalInfrastructure;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The operations endpoints of a running processor, wired as {@code bucketer run} wires them: the
 * scraped counters agree with what was produced and stored, and {@code /ready} follows MongoDB
 * (reached through a proxy the test cuts) while {@code /health} stays up.
 */
@Tag("integration")
class OpsEndpointsIT {

  private static final Granularity MINUTE = Granularity.parse("1m");
  private static final Granularity HOUR = Granularity.parse("1h");
  private static final Instant HISTORY = Instant.parse("2025-06-01T09:00:00Z");
  private static final Duration DEADLINE = Duration.ofSeconds(90);

  private static LocalInfrastructure infrastructure;

  @TempDir Path stateDir;
  private final HttpClient http = HttpClient.newHttpClient();
  private final PrometheusMeterRegistry meters =
      new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  private final String id = "h" + UUID.randomUUID().toString().substring(0, 8);
  private CuttableTcpProxy proxy;

  @BeforeAll
  static void startInfrastructure() {
    infrastructure = LocalInfrastructure.start();
  }

  @AfterAll
  static void stopInfrastructure() {
    infrastructure.close();
  }

  @BeforeEach
  void startProxy() {
    final URI target = URI.create(infrastructure.mongoUri());
    proxy = CuttableTcpProxy.start(target.getHost(), target.getPort());
  }

  @AfterEach
  void stopProxy() {
    proxy.close();
    meters.close();
  }

  @Test
  void scrapedCountersMatchTheReadingsProducedAndTheDocumentsStored() throws Exception {
    final BucketerConfig config = config();
    // In order, no jitter: every reading is on time.
    final List<Reading> readings = new ArrayList<>();
    new ReadingGenerator(
            new ReadingGenerator.Options(
                6, HISTORY, Duration.ofSeconds(2), Duration.ZERO, 0, 0, 1_800, 7))
        .forEachRemaining(readings::add);
    ProcessMeters.bindTo(meters);

    try (BucketerApp app = BucketerApp.start(config, meters);
        OpsServer ops = startOps(app);
        BucketReader store =
            new BucketReader(
                infrastructure.mongoUri(), config.mongoDatabase(), config.collectionPrefix())) {
      produce(readings);
      await()
          .atMost(DEADLINE)
          .until(
              () ->
                  store.readingsInBuckets(MINUTE) == readings.size()
                      && store.readingsInBuckets(HOUR) == readings.size());
      // The sink counts a batch after MongoDB acknowledged it, a moment after it is readable.
      await()
          .atMost(DEADLINE)
          .until(
              () ->
                  PrometheusText.parse(get(ops, "/metrics").body())
                          .value("bucketer_sink_buckets_written_total{granularity=\"1h\"}")
                      == store.documents(HOUR));

      final String scrape = get(ops, "/metrics").body();
      final PrometheusText metrics = PrometheusText.parse(scrape);
      assertThat(metrics.value("bucketer_readings_total{outcome=\"on-time\"}"))
          .isEqualTo(readings.size());
      assertThat(metrics.value("bucketer_sink_buckets_written_total{granularity=\"1m\"}"))
          .isEqualTo(store.documents(MINUTE));
      assertThat(metrics.value("bucketer_buckets_emitted_total{granularity=\"1m\"}"))
          .isEqualTo(store.documents(MINUTE));
      assertThat(metrics.value("bucketer_buckets_emitted_total{granularity=\"1h\"}"))
          .isEqualTo(store.documents(HOUR));
      assertThat(metrics.value("bucketer_sink_batch_size_buckets_sum"))
          .isEqualTo(store.documents(MINUTE) + store.documents(HOUR));
      assertThat(scrape)
          .contains("bucketer_sink_write_latency_seconds_bucket{outcome=\"success\",le=")
          .contains("jvm_memory_used_bytes")
          .contains("jvm_gc_")
          .contains("process_uptime_seconds")
          .contains("kafka_consumer_fetch_manager_records_consumed_total");
    }
  }

  @Test
  void readyFollowsMongoDbWhileHealthStaysUp() throws Exception {
    try (BucketerApp app = BucketerApp.start(config(), meters);
        OpsServer ops = startOps(app)) {
      await().atMost(DEADLINE).until(() -> get(ops, "/ready").statusCode() == 200);
      assertThat(get(ops, "/health").statusCode()).isEqualTo(200);

      proxy.cut();

      await().atMost(DEADLINE).until(() -> get(ops, "/ready").statusCode() == 503);
      assertThat(get(ops, "/ready").body()).contains("MongoDB does not answer a ping");
      assertThat(get(ops, "/health").statusCode()).isEqualTo(200);

      proxy.restore();

      await().atMost(DEADLINE).until(() -> get(ops, "/ready").statusCode() == 200);
      assertThat(get(ops, "/health").statusCode()).isEqualTo(200);
    }
  }

  /** As {@code bucketer run} starts it. */
  private OpsServer startOps(final BucketerApp app) {
    return OpsServer.start(
        new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
        meters::scrape,
        app::isHealthy,
        app::notReadyReason);
  }

  private HttpResponse<String> get(final OpsServer ops, final String path) throws Exception {
    return http.send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + ops.port() + path))
            .timeout(Duration.ofSeconds(10))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  /** Its own application id, topics and database; MongoDB through the proxy. */
  private BucketerConfig config() throws Exception {
    final Map<String, Object> settings = new HashMap<>();
    settings.put(BucketerConfig.BOOTSTRAP_SERVERS, infrastructure.bootstrapServers());
    settings.put(BucketerConfig.SCHEMA_REGISTRY_URL, infrastructure.schemaRegistryUrl());
    // Short client timeouts: a write to the cut proxy fails in about a second.
    settings.put(
        BucketerConfig.MONGODB_URI,
        "mongodb://127.0.0.1:"
            + proxy.port()
            + "/?serverSelectionTimeoutMS=1000&connectTimeoutMS=1000&socketTimeoutMS=2000");
    settings.put(BucketerConfig.MONGODB_DATABASE, id);
    settings.put(BucketerConfig.APPLICATION_ID, id);
    settings.put(BucketerConfig.INPUT_TOPIC, id + ".readings");
    settings.put(BucketerConfig.BUCKETS_TOPIC, id + ".buckets");
    settings.put(BucketerConfig.DEAD_LETTER_TOPIC, id + ".dlq");
    settings.put(BucketerConfig.SERIES_PARTITIONS, "3");
    settings.put(BucketerConfig.TOPIC_REPLICATION_FACTOR, "1");
    settings.put(BucketerConfig.IDLE_TIMEOUT, "2s");
    settings.put(BucketerConfig.SINK_WRITE_TIMEOUT, "3s");
    settings.put(BucketerConfig.SINK_RETRY_BACKOFF_MAX, "1s");
    settings.put(BucketerConfig.KAFKA_PREFIX + "state.dir", stateDir.toString());
    final BucketerConfig config = new BucketerConfig(settings);
    try (Admin admin = Admin.create(config.kafkaProperties())) {
      admin.createTopics(List.of(new NewTopic(config.inputTopic(), 2, (short) 1))).all().get();
    }
    return config;
  }

  private void produce(final List<Reading> readings) {
    final Map<String, Object> properties =
        Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, infrastructure.bootstrapServers());
    try (KafkaProducer<byte[], byte[]> producer =
        new KafkaProducer<>(properties, new ByteArraySerializer(), new ByteArraySerializer())) {
      final String topic = id + ".readings";
      final ReadingSimulator simulator =
          new ReadingSimulator(
              producer,
              new ReadingEncoder(
                  new SchemaRegistryClient(infrastructure.schemaRegistryUrl()), topic),
              topic);
      assertThat(simulator.send(readings)).isEqualTo(readings.size());
    }
  }
}
