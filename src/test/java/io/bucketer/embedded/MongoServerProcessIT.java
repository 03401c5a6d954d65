package io.bucketer.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.mongodb.MongoTimeoutException;
import com.mongodb.reactivestreams.client.MongoClient;
import com.mongodb.reactivestreams.client.MongoClients;
import com.mongodb.reactivestreams.client.MongoCollection;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.bson.Document;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import reactor.core.publisher.Mono;

@Timeout(value = 2, unit = TimeUnit.MINUTES)
class MongoServerProcessIT {

  private static final Duration TIMEOUT = Duration.ofSeconds(10);

  @Test
  void shouldServeTheWireProtocolFromItsOwnJvmUntilClosed() {
    final String connectionString;
    try (MongoServerProcess server = MongoServerProcess.start();
        MongoClient client = MongoClients.create(server.connectionString())) {
      connectionString = server.connectionString();
      assertThat(connectionString).matches("mongodb://127\\.0\\.0\\.1:\\d+");
      final MongoCollection<Document> buckets = client.getDatabase("bucketer").getCollection("b");

      Mono.from(buckets.insertOne(new Document("sensor", "s-1").append("count", 3))).block(TIMEOUT);

      assertThat(Mono.from(buckets.find().first()).block(TIMEOUT).getInteger("count")).isEqualTo(3);
      final Document status =
          Mono.from(client.getDatabase("admin").runCommand(new Document("serverStatus", 1)))
              .block(TIMEOUT);
      assertThat(status.get(MongoOperationCounter.STATUS_FIELD, Document.class))
          .as("it counts what its clients asked, for a benchmark in another JVM")
          .containsEntry("writeCommands", 1L)
          .containsEntry("insertedDocuments", 1L)
          .containsEntry("documentsReturned", 1L);
    }

    try (MongoClient client =
        MongoClients.create(connectionString + "/?serverSelectionTimeoutMS=1000")) {
      assertThatThrownBy(
              () ->
                  Mono.from(client.getDatabase("bucketer").getCollection("b").countDocuments())
                      .block(TIMEOUT))
          .as("nothing listens once it is closed")
          .isInstanceOf(MongoTimeoutException.class);
    }
  }
}
