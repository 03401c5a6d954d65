package io.bucketer.embedded;

import de.bwaldvogel.mongo.MongoBackend;
import de.bwaldvogel.mongo.MongoDatabase;
import de.bwaldvogel.mongo.MongoVersion;
import de.bwaldvogel.mongo.backend.QueryResult;
import de.bwaldvogel.mongo.bson.Document;
import de.bwaldvogel.mongo.wire.message.MongoMessage;
import de.bwaldvogel.mongo.wire.message.MongoQuery;
import io.netty.channel.Channel;
import java.time.Clock;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Counts, on the server side, the work clients ask of the MongoDB stand-in: write commands (round
 * trips), the documents they insert or update (statements), and the documents queries return. It
 * wraps the stand-in's backend, so every client is counted the same way, in or out of this JVM —
 * the way {@code serverStatus.opcounters} would on a real server, which the stand-in does not
 * report. It reports them instead in its {@code serverStatus} answer, under {@value #STATUS_FIELD},
 * so that a stand-in in another JVM ({@link MongoServerProcess}) is counted too. Written here
 * because no library counts operations per statement for mongo-java-server.
 */
public final class MongoOperationCounter implements MongoBackend {

  /** The field of a {@code serverStatus} answer that holds the counts, named as {@link Counts}'. */
  public static final String STATUS_FIELD = "bucketerOperationCounts";

  /** A copy of the counters at one moment; differences between two give the work in between. */
  public record Counts(
      long writeCommands, long insertedDocuments, long updateStatements, long documentsReturned) {

    public long writeStatements() {
      return insertedDocuments + updateStatements;
    }

    public Counts minus(final Counts earlier) {
      return new Counts(
          writeCommands - earlier.writeCommands,
          insertedDocuments - earlier.insertedDocuments,
          updateStatements - earlier.updateStatements,
          documentsReturned - earlier.documentsReturned);
    }
  }

  private final MongoBackend backend;
  private final AtomicLong writeCommands = new AtomicLong();
  private final AtomicLong insertedDocuments = new AtomicLong();
  private final AtomicLong updateStatements = new AtomicLong();
  private final AtomicLong documentsReturned = new AtomicLong();

  public MongoOperationCounter(final MongoBackend backend) {
    this.backend = backend;
  }

  public Counts counts() {
    return new Counts(
        writeCommands.get(),
        insertedDocuments.get(),
        updateStatements.get(),
        documentsReturned.get());
  }

  @Override
  public Document handleMessage(final MongoMessage message) {
    final Document command = message.getDocument();
    final Document response = backend.handleMessage(message);
    count(command, response);
    if (!command.isEmpty() && "serverStatus".equals(command.keySet().iterator().next())) {
      response.put(STATUS_FIELD, countsDocument());
    }
    return response;
  }

  private Document countsDocument() {
    final Counts counts = counts();
    final Document document = new Document();
    document.put("writeCommands", counts.writeCommands());
    document.put("insertedDocuments", counts.insertedDocuments());
    document.put("updateStatements", counts.updateStatements());
    document.put("documentsReturned", counts.documentsReturned());
    return document;
  }

  @Override
  public Document handleCommand(
      final Channel channel, final String database, final String command, final Document query) {
    final Document response = backend.handleCommand(channel, database, command, query);
    count(query, response);
    return response;
  }

  private void count(final Document command, final Document response) {
    if (command.isEmpty()) {
      return;
    }
    // The command's name is its first key, as in MongoDB's own dispatch.
    switch (command.keySet().iterator().next()) {
      case "insert" -> {
        writeCommands.incrementAndGet();
        insertedDocuments.addAndGet(sizeOf(command.get("documents")));
      }
      case "update" -> {
        writeCommands.incrementAndGet();
        updateStatements.addAndGet(sizeOf(command.get("updates")));
      }
      case "find", "aggregate", "getMore" -> documentsReturned.addAndGet(batchSize(response));
      default -> {}
    }
  }

  private static long batchSize(final Document response) {
    if (response != null && response.get("cursor") instanceof Document cursor) {
      final Object batch =
          cursor.containsKey("firstBatch") ? cursor.get("firstBatch") : cursor.get("nextBatch");
      return sizeOf(batch);
    }
    return 0;
  }

  private static long sizeOf(final Object list) {
    return list instanceof List<?> values ? values.size() : 0;
  }

  @Override
  public QueryResult handleQuery(final MongoQuery query) {
    return backend.handleQuery(query);
  }

  @Override
  public void handleClose(final Channel channel) {
    backend.handleClose(channel);
  }

  @Override
  public void dropDatabase(final String database) {
    backend.dropDatabase(database);
  }

  @Override
  public Collection<Document> getCurrentOperations(final MongoQuery query) {
    return backend.getCurrentOperations(query);
  }

  @Override
  public Document getServerStatus() {
    return backend.getServerStatus();
  }

  @Override
  public void close() {
    backend.close();
  }

  @Override
  public void closeCursors(final List<Long> cursorIds) {
    backend.closeCursors(cursorIds);
  }

  @Override
  public Clock getClock() {
    return backend.getClock();
  }

  @Override
  public void enableOplog() {
    backend.enableOplog();
  }

  @Override
  public void disableOplog() {
    backend.disableOplog();
  }

  @Override
  public MongoDatabase resolveDatabase(final String database) {
    return backend.resolveDatabase(database);
  }

  @Override
  public MongoBackend version(final MongoVersion version) {
    backend.version(version);
    return this;
  }
}
