package io.bucketer.embedded;

import de.bwaldvogel.mongo.backend.memory.MemoryBackend;
import de.bwaldvogel.mongo.bson.Document;
import de.bwaldvogel.mongo.wire.message.MongoMessage;
import io.bucketer.buckets.BucketDocumentNames;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The MongoDB stand-in's memory backend, storing of every document it is sent only the fields the
 * sink's writes match on and read back (its id, series, granularity, window, part and revision):
 * for benchmarks of a live fleet, which read nothing else back. The stand-in keeps its documents as
 * Java objects: whole, about 450 bytes a reading, so that 100,000 sensors' minute buckets grew its
 * heap by 2.7 GB a minute and its young collections, copying gigabytes of documents that all live,
 * stopped it for seconds on both cores, the processor under test included; without their readings
 * still about 6 KB a bucket (the computed fields, the sketch's bins, each number an object), so
 * that its old generation was full after ten minutes and its full collections took a core. A
 * MongoDB keeps its documents on disk. The documents arrive whole, as bucketer sends them, and are
 * decoded whole; only what is stored is smaller.
 */
final class BucketKeysOnly extends MemoryBackend {

  /** What is kept: the fields the sink's filters and its reads of stored revisions name. */
  static final Set<String> KEPT =
      Set.of(
          BucketDocumentNames.ID,
          BucketDocumentNames.SCHEMA_VERSION,
          BucketDocumentNames.SENSOR_ID,
          BucketDocumentNames.METRIC,
          BucketDocumentNames.GRANULARITY,
          BucketDocumentNames.START_DATE,
          BucketDocumentNames.END_DATE,
          BucketDocumentNames.SEQ,
          BucketDocumentNames.REVISION);

  @Override
  public Document handleMessage(final MongoMessage message) {
    final Document command = message.getDocument();
    if (!command.isEmpty()) {
      // The command's name is its first key, as in MongoDB's own dispatch.
      switch (command.keySet().iterator().next()) {
        case "insert" -> forEachDocument(command.get("documents"), BucketKeysOnly::keepKeys);
        case "update" ->
            forEachDocument(
                command.get("updates"),
                statement -> {
                  if (statement.get("u") instanceof Document replacement) {
                    keepKeys(replacement);
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

  private static void keepKeys(final Document document) {
    document.keySet().retainAll(KEPT);
  }
}
