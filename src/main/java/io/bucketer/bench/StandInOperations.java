package io.bucketer.bench;

import com.mongodb.reactivestreams.client.MongoClient;
import com.mongodb.reactivestreams.client.MongoClients;
import io.bucketer.embedded.MongoOperationCounter;
import io.bucketer.embedded.MongoOperationCounter.Counts;
import java.time.Duration;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import reactor.core.publisher.Mono;

/**
 * The operation counts of a MongoDB stand-in that runs {@link MongoOperationCounter}, in this JVM
 * or another, read from its {@code serverStatus} answer over one client connection.
 */
final class StandInOperations implements AutoCloseable {

  /**
   * How often a run polls the counts while it waits for MongoDB to receive its writes: each poll is
   * a round trip to the stand-in, and 20 ms is fine enough for rows that last seconds.
   */
  static final long POLL_MILLIS = 20;

  private static final Duration TIMEOUT = Duration.ofSeconds(30);
  private static final BsonDocument SERVER_STATUS =
      new BsonDocument("serverStatus", new BsonInt32(1));

  private final MongoClient client;

  StandInOperations(final String connectionString) {
    this.client = MongoClients.create(connectionString);
  }

  /** The counts at this moment. */
  Counts counts() {
    final BsonDocument status =
        Mono.from(client.getDatabase("admin").runCommand(SERVER_STATUS, BsonDocument.class))
            .block(TIMEOUT);
    if (status == null || !status.isDocument(MongoOperationCounter.STATUS_FIELD)) {
      throw new IllegalStateException(
          "the MongoDB stand-in does not count operations (no "
              + MongoOperationCounter.STATUS_FIELD
              + " in serverStatus)");
    }
    final BsonDocument counts = status.getDocument(MongoOperationCounter.STATUS_FIELD);
    return new Counts(
        counts.getNumber("writeCommands").longValue(),
        counts.getNumber("insertedDocuments").longValue(),
        counts.getNumber("updateStatements").longValue(),
        counts.getNumber("documentsReturned").longValue());
  }

  @Override
  public void close() {
    client.close();
  }
}
