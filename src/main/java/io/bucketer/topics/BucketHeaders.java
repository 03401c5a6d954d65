package io.bucketer.topics;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.OptionalLong;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeader;

/**
 * Headers of a record on the buckets topic. {@value #CLOSED_AT} is the wall-clock time, in epoch
 * milliseconds, at which the topology closed the bucket's window (or closed it again after a late
 * reading): with the time MongoDB acknowledged the document, it gives the close-to-visible latency.
 * Both clocks are the processors' own, so across machines the figure includes their clock skew.
 * {@value #WRITTEN_BY} is the {@code application.id} of the deployment that closed it: during a
 * rescale two write the same topic, and each window must be written by one of them.
 */
public final class BucketHeaders {

  public static final String CLOSED_AT = "bucketer.closed.at";
  public static final String WRITTEN_BY = "bucketer.written.by";

  private BucketHeaders() {}

  public static Header closedAt(final long wallClockMillis) {
    return new RecordHeader(
        CLOSED_AT, ByteBuffer.allocate(Long.BYTES).putLong(wallClockMillis).array());
  }

  /** The close time of the bucket, if the record carries a well-formed one. */
  public static OptionalLong closedAt(final Headers headers) {
    final Header header = headers.lastHeader(CLOSED_AT);
    if (header == null || header.value() == null || header.value().length != Long.BYTES) {
      return OptionalLong.empty();
    }
    return OptionalLong.of(ByteBuffer.wrap(header.value()).getLong());
  }

  /** The header naming the deployment, its {@code application.id} in UTF-8. */
  public static Header writtenBy(final byte[] applicationId) {
    return new RecordHeader(WRITTEN_BY, applicationId);
  }

  /** The deployment that wrote the bucket, if the record names one. */
  public static Optional<String> writtenBy(final Headers headers) {
    final Header header = headers.lastHeader(WRITTEN_BY);
    return header == null || header.value() == null
        ? Optional.empty()
        : Optional.of(new String(header.value(), StandardCharsets.UTF_8));
  }
}
