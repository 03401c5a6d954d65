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
    final PackReadings pack = new PackReadings(metric);
    final SenmlResolver resolver = new SenmlResolver(record.timestamp(), pack);
    parser.read(record.value(), resolver);
    resolver.finish();
    // Only once the whole pack is read: a dead-lettered pack, replayed, counts its values once.
    pack.reportSkipped(skipped);
    return pack.readings;
  }

  /** The readings of one pack as they are resolved, and the values it skipped. */
  private static final class PackReadings implements SenmlResolver.Measurements {
    private final SenmlMetric metric;
    private final List<Reading> readings = new ArrayList<>();
    private final int[] skipped = new int[SkippedValues.Kind.values().length];

    PackReadings(final SenmlMetric metric) {
      this.metric = metric;
    }

    @Override
    public void value(
        final String name, final String unit, final long timeMillis, final double value) {
      readings.add(
          new Reading(name, Instant.ofEpochMilli(timeMillis), value, metric.ofValue(unit), null));
    }

    @Override
    public void sum(final String name, final String unit, final long timeMillis, final double sum) {
      readings.add(
          new Reading(name, Instant.ofEpochMilli(timeMillis), sum, metric.ofSum(unit), null));
    }

    @Override
    public void other(final SkippedValues.Kind kind) {
      skipped[kind.ordinal()]++;
    }

    void reportSkipped(final SkippedValues counter) {
      for (final SkippedValues.Kind kind : SkippedValues.Kind.values()) {
        for (int i = 0; i < skipped[kind.ordinal()]; i++) {
          counter.skipped(kind);
        }
      }
    }
  }
}
