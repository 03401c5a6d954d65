package io.bucketer.backfill;

import io.bucketer.buckets.WindowQuality;
import io.bucketer.query.StoredWindows.StoredWindow;
import java.util.function.Function;

/**
 * What a source window's stored documents say of how its readings arrived, which a backfill carries
 * into the window it builds ({@link RolledUpWindow}).
 *
 * @param quality the source window's resends and late readings; null when unknown (a document older
 *     than {@code schema_version} 4)
 * @param expectedIntervalMillis its metric's expected interval; null when it has none
 */
record SourceQuality(WindowQuality quality, Long expectedIntervalMillis) {

  /** Nothing known: a document older than {@code schema_version} 4. */
  static final SourceQuality UNKNOWN = new SourceQuality(null, null);

  /**
   * The quality of every source window as its documents say (the query side's reader): unknown for
   * a document older than {@code schema_version} 4, and then the window a backfill builds from it
   * is written without counts (version 3), never with made-up ones.
   */
  static final Function<StoredWindow, SourceQuality> AS_READ =
      stored -> new SourceQuality(stored.quality(), stored.expectedIntervalMillis());
}
