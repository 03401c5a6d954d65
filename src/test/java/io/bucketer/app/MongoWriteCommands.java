package io.bucketer.app;

import com.mongodb.event.CommandListener;
import com.mongodb.event.CommandStartedEvent;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The write commands a MongoDB client sends, as the driver reports them to its listeners, and the
 * documents they carry: {@code insert} its {@code documents}, {@code update} its {@code updates},
 * {@code delete} its {@code deletes}. Counted on the client, so what the MongoDB stand-in does with
 * them does not matter; a bulk write the driver splits into several commands counts as several.
 */
final class MongoWriteCommands implements CommandListener {

  /** Each write command's name, and the field of its statements. */
  private static final Map<String, String> STATEMENTS =
      Map.of("insert", "documents", "update", "updates", "delete", "deletes");

  private final AtomicLong commands = new AtomicLong();
  private final AtomicLong documents = new AtomicLong();

  @Override
  public void commandStarted(final CommandStartedEvent event) {
    final String statements = STATEMENTS.get(event.getCommandName());
    if (statements != null) {
      commands.incrementAndGet();
      documents.addAndGet(event.getCommand().getArray(statements).size());
    }
  }

  long commands() {
    return commands.get();
  }

  long documents() {
    return documents.get();
  }

  /** Forgets what was counted: the writes before, creating the indexes, are not the run's. */
  void reset() {
    commands.set(0);
    documents.set(0);
  }
}
