package io.bucketer.embedded;

import static com.mongodb.client.model.Filters.eq;
import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.reactivestreams.client.MongoClient;
import com.mongodb.reactivestreams.client.MongoClients;
import com.mongodb.reactivestreams.client.MongoCollection;
import java.time.Duration;
import java.util.Date;
import org.bson.Document;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

class EmbeddedMongoServerTest {

  private static final Duration TIMEOUT = Duration.ofSeconds(10);

  @Test
  void shouldLetTheReactiveDriverInsertAndFindADocument() {
    try (EmbeddedMongoServer server = EmbeddedMongoServer.start();
        MongoClient client = MongoClients.create(server.connectionString())) {
      assertThat(server.connectionString()).matches("mongodb://127\\.0\\.0\\.1:\\d+");
      final MongoCollection<Document> buckets = client.getDatabase("bucketer").getCollection("b");
      final Date start = new Date(1_700_000_000_000L);
      final Document bucket =
          new Document("sensor", "s-1").append("start", start).append("count", 3);

      Mono.from(buckets.insertOne(bucket)).block(TIMEOUT);
      final Document found = Mono.from(buckets.find(eq("sensor", "s-1")).first()).block(TIMEOUT);

      assertThat(found).isNotNull();
      assertThat(found.getString("sensor")).isEqualTo("s-1");
      assertThat(found.getDate("start")).isEqualTo(start);
      assertThat(found.getInteger("count")).isEqualTo(3);
    }
  }

  @Test
  void shouldKeepTheDataOfTwoServersApart() {
    try (EmbeddedMongoServer first = EmbeddedMongoServer.start();
        EmbeddedMongoServer second = EmbeddedMongoServer.start();
        MongoClient firstClient = MongoClients.create(first.connectionString());
        MongoClient secondClient = MongoClients.create(second.connectionString())) {
      assertThat(first.connectionString()).isNotEqualTo(second.connectionString());

      Mono.from(collection(firstClient).insertOne(new Document("sensor", "s-1"))).block(TIMEOUT);

      assertThat(Mono.from(collection(firstClient).countDocuments()).block(TIMEOUT)).isEqualTo(1L);
      assertThat(Mono.from(collection(secondClient).countDocuments()).block(TIMEOUT)).isZero();
    }
  }

  private static MongoCollection<Document> collection(final MongoClient client) {
    return client.getDatabase("bucketer").getCollection("b");
  }
}
