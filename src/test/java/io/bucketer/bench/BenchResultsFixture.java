package io.bucketer.bench;

import io.bucketer.embedded.MongoOperationCounter;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * Rounds of made-up figures, whole enough to print, for the tests of what {@link BenchResults} and
 * {@link BenchRounds} print about rows 2p and 2n.
 */
final class BenchResultsFixture {

  /** Readings sent in every round: a million, so that a figure per reading reads off easily. */
  static final long READINGS = 1_000_000;

  private BenchResultsFixture() {}

  /** Rows 2p or 2n: how long the row took, its CPU time, and the BSON it stored per granularity. */
  record Twin(long elapsedMillis, long cpuMillis, long minuteBytes, long hourBytes) {}

  /**
   * A round in which every other row took 2 s and 8 s of CPU, and 2p and 2n took what they say;
   * with or without row 2s. Of every row's CPU time, 0.5 s was the MongoDB server's.
   */
  static BenchResults round(final Twin on, final Twin off, final boolean withSaslSsl) {
    final BenchResults.Rate other = rate(2_000, 8_000);
    return new BenchResults(
        new BenchFleet.Sent(
            READINGS,
            READINGS - 100,
            Instant.EPOCH,
            Instant.EPOCH.plus(Duration.ofHours(6)),
            Instant.EPOCH.plus(Duration.ofHours(7)),
            Map.of()),
        other,
        other,
        other,
        other,
        withSaslSsl ? other : null,
        rate(on.elapsedMillis(), on.cpuMillis()),
        rate(off.elapsedMillis(), off.cpuMillis()),
        null,
        new BenchResults.WindowedAggregate(other, 36_000, READINGS, 0),
        120,
        480,
        36_600,
        Map.of(),
        List.of(),
        List.of(),
        stored("2p, quantile sketches on: every granularity", on),
        stored("2n, quantile sketches off: every granularity", off),
        null);
  }

  private static BenchResults.Rate rate(final long elapsedMillis, final long cpuMillis) {
    return new BenchResults.Rate(
        READINGS,
        new PhaseClock.Measured(
            Duration.ofMillis(elapsedMillis),
            Duration.ofMillis(cpuMillis),
            Duration.ZERO,
            Duration.ofMillis(500)),
        new MongoOperationCounter.Counts(100, 36_600, 0, 0),
        new ProducedRecords("bench", Map.of()));
  }

  /** Every granularity together, then 36,000 minute documents and 600 hour documents. */
  private static List<StoredFootprint> stored(final String layout, final Twin twin) {
    final List<StoredFootprint> byGranularity =
        List.of(
            new StoredFootprint("  of which 1m: readings", 36_000, twin.minuteBytes(), 0),
            new StoredFootprint("  of which 1h: summaries of 1m", 600, twin.hourBytes(), 0));
    return List.of(
        StoredFootprint.sum(layout, byGranularity), byGranularity.get(0), byGranularity.get(1));
  }
}
