package io.bucketer.bench;

import com.mongodb.reactivestreams.client.MongoClient;
import com.mongodb.reactivestreams.client.MongoClients;
import com.mongodb.reactivestreams.client.MongoDatabase;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.bson.BsonDocument;
import org.bson.BsonNull;
import org.bson.RawBsonDocument;
import org.bson.codecs.BsonDocumentCodec;
import reactor.core.publisher.Flux;

/**
 * What one layout's documents take in MongoDB, counted document by document: the BSON size of each
 * document, and for each index on its collection the BSON size of the document's key in that index
 * plus 8 bytes for the record id. Index sizes are uncompressed (WiredTiger prefix-compresses keys
 * and compresses pages, data too): the same rule for every layout, so the ratio is what counts. The
 * MongoDB stand-in reports no storage sizes of its own (no {@code collStats}).
 *
 * @param documents documents in the layout's collections
 * @param documentBytes BSON bytes of those documents
 * @param indexBytes estimated bytes of their index entries
 */
record StoredFootprint(String layout, long documents, long documentBytes, long indexBytes) {

  private static final long RECORD_ID_BYTES = 8;
  private static final Duration TIMEOUT = Duration.ofMinutes(2);

  /** Measures the documents of {@code collections} in {@code database}. */
  static StoredFootprint measure(
      final String mongoUri,
      final String database,
      final List<String> collections,
      final String layout) {
    try (MongoClient client = MongoClients.create(mongoUri)) {
      final MongoDatabase db = client.getDatabase(database);
      long documents = 0;
      long documentBytes = 0;
      long indexBytes = 0;
      for (final String name : collections) {
        final List<List<String>> indexKeys = indexKeys(db, name);
        for (final RawBsonDocument document :
            Flux.from(db.getCollection(name, RawBsonDocument.class).find()).toIterable()) {
          documents++;
          documentBytes += document.getByteBuffer().remaining();
          for (final List<String> fields : indexKeys) {
            indexBytes += keyBytes(document, fields) + RECORD_ID_BYTES;
          }
        }
      }
      return new StoredFootprint(layout, documents, documentBytes, indexBytes);
    }
  }

  /** The footprints of several collections together. */
  static StoredFootprint sum(final String layout, final List<StoredFootprint> parts) {
    return new StoredFootprint(
        layout,
        parts.stream().mapToLong(StoredFootprint::documents).sum(),
        parts.stream().mapToLong(StoredFootprint::documentBytes).sum(),
        parts.stream().mapToLong(StoredFootprint::indexBytes).sum());
  }

  double documentsPerReading(final long readings) {
    return documents / (double) readings;
  }

  /** BSON bytes of the documents alone, per reading. */
  double documentBytesPerReading(final long readings) {
    return documentBytes / (double) readings;
  }

  double bytesPerReading(final long readings) {
    return (documentBytes + indexBytes) / (double) readings;
  }

  /** The fields of each index of the collection, in key order. */
  private static List<List<String>> indexKeys(final MongoDatabase db, final String collection) {
    final List<List<String>> keys = new ArrayList<>();
    for (final BsonDocument index :
        Flux.from(db.getCollection(collection).listIndexes(BsonDocument.class))
            .collectList()
            .block(TIMEOUT)) {
      keys.add(new ArrayList<>(index.getDocument("key").keySet()));
    }
    return keys;
  }

  /** The BSON size of {@code {field: value, ...}} for the index's fields (absent ones as null). */
  private static long keyBytes(final RawBsonDocument document, final List<String> fields) {
    final BsonDocument key = new BsonDocument();
    for (final String field : fields) {
      key.append(field, document.containsKey(field) ? document.get(field) : BsonNull.VALUE);
    }
    return new RawBsonDocument(key, new BsonDocumentCodec()).getByteBuffer().remaining();
  }
}
