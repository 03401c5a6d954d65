package io.bucketer.query;

import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where a reader tells of the stored quantile sketches it found that do not decode: each one to
 * {@code counted} (the query API's is the meter {@code bucketer.query.malformed.sketches}), the
 * first one also to the log, with why. One per reader, for the reader's life: the query API has one
 * reader, so its first is the process's.
 */
final class MalformedSketches {

  private static final Logger LOG = LoggerFactory.getLogger(MalformedSketches.class);

  private final Runnable counted;
  private final AtomicBoolean logged = new AtomicBoolean();

  MalformedSketches(final Runnable counted) {
    this.counted = counted;
  }

  /**
   * One more sketch that does not decode, for {@code why}: logged only, never counted by name, so
   * that nothing of the document or the exception reaches a meter's tags.
   */
  void found(final String why) {
    counted.run();
    if (logged.compareAndSet(false, true)) {
      LOG.warn(
          "a stored quantile sketch does not decode ({}): windows whose sketch does not decode are"
              + " answered without quantiles; later ones are not logged"
              + " (the query API counts them in bucketer_query_malformed_sketches_total)",
          why);
    }
  }
}
