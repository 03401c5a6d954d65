package io.bucketer.sink;

import de.bwaldvogel.mongo.backend.memory.MemoryBackend;
import de.bwaldvogel.mongo.bson.Document;
import de.bwaldvogel.mongo.wire.message.MongoMessage;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A fault for tests: the MongoDB stand-in's memory backend, whose first insert commands into one
 * collection fail, by the client's connection closed on them or by no answer until {@link
 * #release}; every other command is served. Counts the documents of each insert command, per
 * collection, faulted ones included.
 */
final class FaultyInserts extends MemoryBackend {

  /** What an insert into the faulty collection meets. */
  enum Fault {
    /** The connection is closed on it: the driver sees a network error. */
    CLOSE_CONNECTION,
    /** No answer until {@link #release}: the writer's timeout runs out. */
    NO_ANSWER
  }

  /** Long enough for any test; a held insert is released at its end in any case. */
  private static final long LONGEST_HOLD_SECONDS = 60;

  private final String collection;
  private final Fault fault;
  private final AtomicInteger faultsLeft;
  private final CountDownLatch released = new CountDownLatch(1);
  private final Map<String, List<Integer>> insertedByCollection = new ConcurrentHashMap<>();

  /**
   * @param collection the collection whose inserts fail
   * @param faults how many of its inserts fail, the first ones
   */
  FaultyInserts(final String collection, final Fault fault, final int faults) {
    this.collection = collection;
    this.fault = fault;
    this.faultsLeft = new AtomicInteger(faults);
  }

  @Override
  public Document handleMessage(final MongoMessage message) {
    final Document command = message.getDocument();
    if (!command.isEmpty() && "insert".equals(command.keySet().iterator().next())) {
      final Object target = command.get("insert");
      final int documents = command.get("documents") instanceof List<?> list ? list.size() : 0;
      insertedByCollection
          .computeIfAbsent(String.valueOf(target), name -> new CopyOnWriteArrayList<>())
          .add(documents);
      if (collection.equals(target) && faultsLeft.getAndDecrement() > 0) {
        if (fault == Fault.CLOSE_CONNECTION) {
          message.getChannel().close();
          return new Document("ok", 0.0); // written to a closed channel: never read
        }
        awaitRelease();
      }
    }
    return super.handleMessage(message);
  }

  /** Answers the inserts held so far and from now on. */
  void release() {
    released.countDown();
  }

  /** The number of documents in each insert command {@code name} received, in order. */
  List<Integer> insertsInto(final String name) {
    return List.copyOf(insertedByCollection.getOrDefault(name, List.of()));
  }

  private void awaitRelease() {
    try {
      released.await(LONGEST_HOLD_SECONDS, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
