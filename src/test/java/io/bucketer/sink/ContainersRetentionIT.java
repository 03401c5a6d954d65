package io.bucketer.sink;

import static io.bucketer.buckets.TestBuckets.MINUTE;
import static io.bucketer.buckets.TestBuckets.minute;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.mongodb.ConnectionString;
import com.mongodb.MongoClientSettings;
import com.mongodb.event.CommandListener;
import com.mongodb.event.CommandStartedEvent;
import com.mongodb.reactivestreams.client.MongoClient;
import com.mongodb.reactivestreams.client.MongoClients;
import com.mongodb.reactivestreams.client.MongoDatabase;
import io.bucketer.buckets.ClosedBucket;
import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.Retention;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.bson.BsonDocument;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;
import org.testcontainers.mongodb.MongoDBContainer;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Retention against a real mongod, wherever Docker runs (reported as skipped without it): the TTL
 * monitor, told to run every second, deletes the documents whose window ended longer ago than the
 * retention, and a changed retention is applied in place with {@code collMod}. The in-JVM stand-in
 * creates TTL indexes but never expires anything (MongoBucketWriterTest checks the index there).
 */
@Testcontainers(disabledWithoutDocker = true)
@Timeout(180)
class ContainersRetentionIT {

  private static final Duration TIMEOUT = Duration.ofSeconds(30);
  private static final List<Granularity> GRANULARITIES = List.of(MINUTE);

  @Container
  static final MongoDBContainer MONGO =
      new MongoDBContainer("mongo:8.0").withCommand("--setParameter", "ttlMonitorSleepSecs=1");

  private final List<String> commands = new CopyOnWriteArrayList<>();

  @Test
  void shouldExpireDocumentsPastTheirRetentionAndChangeItInPlace() {
    try (MongoClient client = client()) {
      final MongoDatabase database = client.getDatabase("retention");
      final long now = Instant.now().toEpochMilli();
      final ClosedBucket old = minute("sensor-old", MINUTE.windowStart(now - 3_600_000L));
      final ClosedBucket recent = minute("sensor-recent", MINUTE.windowStart(now));
      final MongoBucketWriter writer = writer(database, "1m=60s");
      writer.ensureIndexes(TIMEOUT);
      writer.write(List.of(old, recent), TIMEOUT);

      await()
          .atMost(Duration.ofSeconds(120))
          .pollInterval(Duration.ofSeconds(1))
          .until(() -> sensors(database).equals(List.of("sensor-recent")));

      commands.clear();
      writer(database, "1m=3600s").ensureIndexes(TIMEOUT);

      assertThat(commands).contains("collMod").doesNotContain("dropIndexes");
      assertThat(ttlIndex(database).getNumber("expireAfterSeconds").longValue()).isEqualTo(3_600);
    }
  }

  private MongoClient client() {
    final CommandListener listener =
        new CommandListener() {
          @Override
          public void commandStarted(final CommandStartedEvent event) {
            commands.add(event.getCommandName());
          }
        };
    return MongoClients.create(
        MongoClientSettings.builder()
            .applyConnectionString(new ConnectionString(MONGO.getConnectionString()))
            .addCommandListener(listener)
            .build());
  }

  private static MongoBucketWriter writer(final MongoDatabase database, final String retention) {
    return new MongoBucketWriter(
        database, "buckets_", GRANULARITIES, Retention.parse(retention, GRANULARITIES), 10, 4);
  }

  private static List<String> sensors(final MongoDatabase database) {
    return Flux.from(database.getCollection("buckets_1m", BsonDocument.class).find())
        .map(document -> document.getString("sensor_id").getValue())
        .sort()
        .collectList()
        .block(TIMEOUT);
  }

  private static BsonDocument ttlIndex(final MongoDatabase database) {
    return Flux.from(
            database
                .getCollection("buckets_1m", BsonDocument.class)
                .listIndexes(BsonDocument.class))
        .filter(index -> index.getString("name").getValue().equals(RetentionIndexes.INDEX_NAME))
        .next()
        .switchIfEmpty(Mono.error(new AssertionError("no TTL index")))
        .block(TIMEOUT);
  }
}
