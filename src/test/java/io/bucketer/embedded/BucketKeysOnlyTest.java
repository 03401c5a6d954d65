package io.bucketer.embedded;

import static com.mongodb.client.model.Filters.eq;
import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.client.model.ReplaceOptions;
import com.mongodb.reactivestreams.client.MongoClient;
import com.mongodb.reactivestreams.client.MongoClients;
import com.mongodb.reactivestreams.client.MongoCollection;
import io.bucketer.buckets.BucketDocumentNames;
import java.time.Duration;
import java.util.List;
import org.bson.Document;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

/** The stand-in that stores buckets without their readings, for the live benchmarks. */
class ReadingsLeftOutTest {

  private static final Duration TIMEOUT = Duration.ofSeconds(10);

  private static Document bucket(final int revision, final int readings) {
    return new Document("_id", "s-1|0")
        .append(BucketDocumentNames.SENSOR_ID, "s-1")
        .append(BucketDocumentNames.REVISION, revision)
        .append(BucketDocumentNames.MEASUREMENTS, List.of(new Document("t", 1).append("v", 2.5)))
        .append("count", readings);
  }

  @Test
  void shouldStoreInsertedAndReplacedDocumentsWithoutTheirReadingsAndAllElse() {
    try (EmbeddedMongoServer server =
            EmbeddedMongoServer.start(new ReadingsLeftOut(), MongoOperationCounter::new);
        MongoClient client = MongoClients.create(server.connectionString())) {
      final MongoCollection<Document> buckets =
          client.getDatabase("bucketer").getCollection("buckets_1m");

      Mono.from(buckets.insertOne(bucket(0, 1))).block(TIMEOUT);
      final Document inserted = Mono.from(buckets.find(eq("_id", "s-1|0")).first()).block(TIMEOUT);
      Mono.from(
              buckets.replaceOne(
                  eq("_id", "s-1|0"), bucket(1, 2), new ReplaceOptions().upsert(true)))
          .block(TIMEOUT);
      final Document replaced = Mono.from(buckets.find(eq("_id", "s-1|0")).first()).block(TIMEOUT);

      assertThat(inserted)
          .doesNotContainKey(BucketDocumentNames.MEASUREMENTS)
          .containsEntry(BucketDocumentNames.SENSOR_ID, "s-1")
          .containsEntry("count", 1);
      assertThat(replaced)
          .doesNotContainKey(BucketDocumentNames.MEASUREMENTS)
          .containsEntry(BucketDocumentNames.REVISION, 1)
          .containsEntry("count", 2);
    }
  }
}
