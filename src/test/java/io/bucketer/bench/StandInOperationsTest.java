package io.bucketer.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.mongodb.client.model.Filters;
import com.mongodb.client.model.Updates;
import com.mongodb.reactivestreams.client.MongoClient;
import com.mongodb.reactivestreams.client.MongoClients;
import com.mongodb.reactivestreams.client.MongoCollection;
import io.bucketer.embedded.EmbeddedMongoServer;
import io.bucketer.embedded.MongoOperationCounter;
import io.bucketer.embedded.MongoOperationCounter.Counts;
import java.time.Duration;
import java.util.List;
import org.bson.Document;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/** The stand-in's counts, read over the wire as the benchmark reads those of its own JVM's. */
class StandInOperationsTest {

  private static final Duration TIMEOUT = Duration.ofSeconds(10);

  @Test
  void shouldReadTheCommandsStatementsAndReturnedDocumentsFromServerStatus() {
    try (EmbeddedMongoServer server = EmbeddedMongoServer.start(MongoOperationCounter::new);
        StandInOperations operations = new StandInOperations(server.connectionString());
        MongoClient client = MongoClients.create(server.connectionString())) {
      final Counts before = operations.counts();
      final MongoCollection<Document> readings =
          client.getDatabase("bench").getCollection("readings");

      Mono.from(readings.insertMany(List.of(new Document("v", 1), new Document("v", 2))))
          .block(TIMEOUT);
      Mono.from(readings.insertOne(new Document("v", 3))).block(TIMEOUT);
      Mono.from(readings.updateOne(Filters.eq("v", 3), Updates.set("v", 4))).block(TIMEOUT);
      Flux.from(readings.find()).collectList().block(TIMEOUT);

      assertThat(operations.counts().minus(before)).isEqualTo(new Counts(3, 3, 1, 3));
    }
  }

  @Test
  void shouldSayWhenTheStandInDoesNotCount() {
    try (EmbeddedMongoServer server = EmbeddedMongoServer.start();
        StandInOperations operations = new StandInOperations(server.connectionString())) {
      assertThatThrownBy(operations::counts)
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining(MongoOperationCounter.STATUS_FIELD);
    }
  }
}
