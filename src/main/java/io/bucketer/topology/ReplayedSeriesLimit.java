package io.bucketer.topology;

import io.bucketer.ingest.InputDecoder;
import io.bucketer.ingest.JsonReadingDecoder;
import io.bucketer.ingest.ReadingMapping;
import io.bucketer.topics.DeadLetterHeaders;
import io.bucketer.topics.ReplayHeaders;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;

/**
 * A reading over a series limit that {@code dead-letters replay} sent back to the input topic: the
 * reading as JSON, its fields those of bucketer's own Reading, which is how the aggregator wrote it
 * ({@link UnplacedReadings}), with the replay's reason header {@code series-limit}. It was decoded
 * once already, and its original bytes did not cross the repartition topic, so it is read as that
 * JSON whatever the input's format: Avro, JSON, SenML and Sparkplug B alike.
 */
final class ReplayedSeriesLimit {

  /** Reads the reading's JSON. */
  static final InputDecoder DECODER = new JsonReadingDecoder(ReadingMapping.DEFAULT);

  private static final byte[] REASON =
      DeadLetterHeaders.SERIES_LIMIT.getBytes(StandardCharsets.UTF_8);

  private ReplayedSeriesLimit() {}

  /** Whether the record carries the replay's reason {@code series-limit}: a look at the headers. */
  static boolean isReplayed(final Headers headers) {
    final Header reason = headers.lastHeader(ReplayHeaders.REASON);
    return reason != null && Arrays.equals(reason.value(), REASON);
  }
}
