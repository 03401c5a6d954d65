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
   * The quality of every source window as the query side's reader gives it: unknown, as long as
   * {@link io.bucketer.query.StoredWindows} does not read the counts and expected interval of a
   * window's documents. Then every window a backfill builds has unknown counts and no expected
   * interval (its documents are {@code schema_version} 3), never made-up ones.
   */
  static final Function<StoredWindow, SourceQuality> AS_READ = stored -> UNKNOWN;
}
