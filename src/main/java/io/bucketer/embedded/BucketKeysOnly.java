package io.bucketer.embedded;

import de.bwaldvogel.mongo.backend.memory.MemoryBackend;
import de.bwaldvogel.mongo.bson.Document;
import de.bwaldvogel.mongo.wire.message.MongoMessage;
import io.bucketer.buckets.BucketDocumentNames;
import java.util.List;
import java.util.function.Consumer;

/**
 * The MongoDB stand-in's memory backend, storing every document it is sent without its readings
 * (the {@value BucketDocumentNames#MEASUREMENTS} field of a bucket): for benchmarks of a live
 * fleet, which read nothing back. The stand-in keeps its documents as Java objects, about 450 bytes
 * a reading, so that 100,000 sensors' minute buckets grow its heap by 2.7 GB a minute: it is full
 * in under four minutes on a machine of 24 GiB, and before that its young collections, each copying
 * gigabytes of documents that all live, stop it for seconds on both cores, the processor under test
 * included. A MongoDB keeps its documents on disk. The documents arrive whole, as bucketer sends
 * them, and are decoded whole; only what is stored is smaller.
 */
final class ReadingsLeftOut extends MemoryBackend {

  @Override
  public Document handleMessage(final MongoMessage message) {
    final Document command = message.getDocument();
    if (!command.isEmpty()) {
      // The command's name is its first key, as in MongoDB's own dispatch.
      switch (command.keySet().iterator().next()) {
        case "insert" -> forEachDocument(command.get("documents"), ReadingsLeftOut::leaveOut);
        case "update" ->
            forEachDocument(
                command.get("updates"),
                statement -> {
                  if (statement.get("u") instanceof Document replacement) {
                    leaveOut(replacement);
                  }
                });
        default -> {}
      }
    }
    return super.handleMessage(message);
  }

  private static void forEachDocument(final Object documents, final Consumer<Document> action) {
    if (documents instanceof List<?> list) {
      for (final Object document : list) {
        if (document instanceof Document written) {
          action.accept(written);
        }
      }
    }
  }

  private static void leaveOut(final Document document) {
    document.remove(BucketDocumentNames.MEASUREMENTS);
  }
}
