package io.bucketer.ingest.senml;

import io.bucketer.avro.Reading;
import io.bucketer.ingest.InputDecoder;
import io.bucketer.ingest.InputRecord;
import io.bucketer.ingest.InvalidReadingException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Decodes a record value that is one SenML pack (RFC 8428, input.format=senml), in JSON or CBOR,
 * into a reading for each numeric value ({@code v}) and each sum ({@code s}) of its records, once
 * resolved ({@link SenmlResolver}). The sensor id is the resolved name, base name and name
 * concatenated; the metric as {@link SenmlMetric} says, by default the unit; a sum is a series of
 * its own. A record with both a value and a sum gives both readings.
 *
 * <p>String, boolean and data values give no reading and are reported to {@link SkippedValues}: a
 * pack of only those is valid and gives no reading at all (an empty list, not a dead letter). A
 * pack that breaks RFC 8428, or whose records measure nothing, is dead-lettered whole with its
 * reason. Stateless apart from the counter it reports to, and safe for concurrent use if that is.
 */
public final class SenmlDecoder implements InputDecoder {

  private final SenmlPackParser parser;
  private final SenmlMetric metric;
  private final SkippedValues skipped;

  public SenmlDecoder(final SenmlOptions options) {
    Objects.requireNonNull(options, "options");
    this.parser = new SenmlPackParser(options.encoding());
    this.metric = options.metric();
    this.skipped = options.skipped();
  }

  /**
   * @return the pack's readings in its order, the value's before the sum's of one record; empty
   *     when all its values are strings, booleans or data
   */
  @Override
  public List<Reading> readings(final InputRecord record) throws InvalidReadingException {
    final List<SenmlResolver.Resolved> measured =
        SenmlResolver.resolve(parser.records(record.value()), record.timestamp());
    final List<Reading> readings = new ArrayList<>(measured.size());
    for (final SenmlResolver.Resolved resolved : measured) {
      final Instant time = Instant.ofEpochMilli(resolved.timeMillis());
      if (resolved.value() != null) {
        readings.add(
            new Reading(
                resolved.name(), time, resolved.value(), metric.ofValue(resolved.unit()), null));
      }
      if (resolved.sum() != null) {
        readings.add(
            new Reading(
                resolved.name(), time, resolved.sum(), metric.ofSum(resolved.unit()), null));
      }
    }
    // Only once the whole pack is read: a dead-lettered pack, replayed, counts its values once.
    for (final SenmlResolver.Resolved resolved : measured) {
      if (resolved.otherValue() != null) {
        skipped.skipped(resolved.otherValue());
      }
    }
    return readings;
  }
}
