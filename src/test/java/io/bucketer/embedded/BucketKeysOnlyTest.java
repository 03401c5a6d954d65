package io.bucketer.embedded;

import static com.mongodb.client.model.Filters.and;
import static com.mongodb.client.model.Filters.eq;
import static com.mongodb.client.model.Filters.lt;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.mongodb.MongoWriteException;
import com.mongodb.client.model.ReplaceOptions;
import com.mongodb.reactivestreams.client.MongoClient;
import com.mongodb.reactivestreams.client.MongoClients;
import com.mongodb.reactivestreams.client.MongoCollection;
import io.bucketer.buckets.BucketDocumentNames;
import java.time.Duration;
import java.util.List;
import org.bson.Document;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

/**
 * The stand-in that stores of each bucket only the fields the sink matches on, for the live
 * benchmarks: a revision the sink reads back is there, its readings and computed fields are not.
 */
class BucketKeysOnlyTest {

  private static final Duration TIMEOUT = Duration.ofSeconds(10);

  private EmbeddedMongoServer server;
  private MongoClient client;
  private MongoCollection<Document> buckets;

  @BeforeEach
  void startTheStandInStoringKeysAlone() {
    server = EmbeddedMongoServer.start(new BucketKeysOnly(), MongoOperationCounter::new);
    client = MongoClients.create(server.connectionString());
    buckets = client.getDatabase("bucketer").getCollection("buckets_1m");
  }

  @AfterEach
  void stopIt() {
    client.close();
    server.close();
  }

  private static Document bucket(final int revision, final int readings) {
    return new Document("_id", "s-1|0")
        .append(BucketDocumentNames.SENSOR_ID, "s-1")
        .append(BucketDocumentNames.REVISION, revision)
        .append(BucketDocumentNames.MEASUREMENTS, List.of(new Document("t", 1).append("v", 2.5)))
        .append("count", readings);
  }

  @Test
  void shouldStoreInsertedAndReplacedDocumentsWithTheirKeysAlone() {

    Mono.from(buckets.insertOne(bucket(0, 1))).block(TIMEOUT);
    final Document inserted = Mono.from(buckets.find(eq("_id", "s-1|0")).first()).block(TIMEOUT);
    Mono.from(
            buckets.replaceOne(eq("_id", "s-1|0"), bucket(1, 2), new ReplaceOptions().upsert(true)))
        .block(TIMEOUT);
    final Document replaced = Mono.from(buckets.find(eq("_id", "s-1|0")).first()).block(TIMEOUT);

    assertThat(inserted)
        .doesNotContainKeys(BucketDocumentNames.MEASUREMENTS, "count")
        .containsEntry("_id", "s-1|0")
        .containsEntry(BucketDocumentNames.SENSOR_ID, "s-1")
        .containsEntry(BucketDocumentNames.REVISION, 0);
    assertThat(replaced)
        .doesNotContainKeys(BucketDocumentNames.MEASUREMENTS, "count")
        .containsEntry(BucketDocumentNames.SENSOR_ID, "s-1")
        .containsEntry(BucketDocumentNames.REVISION, 1);
  }

  @Test
  void shouldStillRefuseAnOlderRevisionAsTheSinksWritesExpect() {
    Mono.from(buckets.insertOne(bucket(2, 3))).block(TIMEOUT);

    // the sink's write of a revision: replace only an older one, else the upsert collides
    final Mono<?> older =
        Mono.from(
            buckets.replaceOne(
                and(eq("_id", "s-1|0"), lt(BucketDocumentNames.REVISION, 1)),
                bucket(1, 2),
                new ReplaceOptions().upsert(true)));

    assertThatThrownBy(() -> older.block(TIMEOUT))
        .isInstanceOfSatisfying(
            MongoWriteException.class, e -> assertThat(e.getCode()).isEqualTo(11000));
    assertThat(Mono.from(buckets.find(eq("_id", "s-1|0")).first()).block(TIMEOUT))
        .containsEntry(BucketDocumentNames.REVISION, 2);
  }
}
