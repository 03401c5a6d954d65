package io.bucketer.query;

import static io.bucketer.query.StoredRangeFixture.GRANULARITIES;
import static io.bucketer.query.StoredRangeFixture.HOUR;
import static io.bucketer.query.StoredRangeFixture.MINUTE;
import static io.bucketer.query.StoredRangeFixture.TEN;
import static io.bucketer.query.StoredRangeFixture.TIMEOUT;
import static org.assertj.core.api.Assertions.assertThat;

import io.bucketer.buckets.ClosedBucket;
import io.bucketer.buckets.IntegralUnits;
import io.bucketer.buckets.Interpolation;
import io.bucketer.buckets.Measurement;
import io.bucketer.buckets.Retention;
import io.bucketer.buckets.SeriesKey;
import io.bucketer.buckets.TimeWeighted;
import io.bucketer.buckets.TimeWeighting;
import io.bucketer.buckets.TimeWeightings;
import io.bucketer.buckets.WindowComputations;
import io.bucketer.query.SeriesQueries.TimeWeight;
import io.bucketer.sink.BucketDocuments;
import io.bucketer.sink.MongoBucketWriter;
import io.bucketer.testing.TimeWeightAssertions;
import io.bucketer.testing.TimeWeightOracle;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.bson.BsonDocument;
import org.bson.BsonDocumentReader;
import org.bson.BsonInt32;
import org.bson.BsonString;
import org.bson.BsonValue;
import org.bson.codecs.BsonDocumentCodec;
import org.bson.codecs.DecoderContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

/**
 * The time-weighted fields of a range's statistics, read from the documents the real emit path
 * writes for generated irregular streams, equal an independent computation over the raw readings
 * (BigDecimal sums, this class's own, not {@link TimeWeighted}'s): covered time and gaps exactly,
 * the integral and average to a relative 1e-9, for ranges that cut minutes and hours, start or end
 * inside uncovered stretches, and lie wholly inside the hold of one reading, with step and linear
 * interpolation (whose stretches between stored windows follow the line to the next window's first
 * reading, and at the range's end to the first reading after it). A range over documents written
 * before schema_version 3, or computed with another max gap, answers none, saying why.
 */
class StoredRangeTimeWeightTest {

  private static final long ELEVEN = TEN + 3_600_000;
  private static final SeriesKey TEMPERATURE = new SeriesKey("s1", "temperature");
  private static final SeriesKey POWER = new SeriesKey("s1", "power");

  /** Linear: its windows' last lines run to the next window's first reading. */
  private static final SeriesKey FLOW = new SeriesKey("s1", "flow");

  /** Its documents name an interpolation this build does not know, as a later build's might. */
  private static final SeriesKey LATER = new SeriesKey("s3", "temperature");

  /** Its documents of the hour from 11:00 are stored as schema_version 2 wrote them. */
  private static final SeriesKey OLDER = new SeriesKey("s2", "temperature");

  private static final TimeWeightings WEIGHTINGS =
      new TimeWeightings(
          new TimeWeighting(45_000),
          Map.of(
              "power",
              new TimeWeighting(180_000),
              "flow",
              new TimeWeighting(120_000, Interpolation.LINEAR)));

  private static final Map<SeriesKey, List<Measurement>> SENT =
      StoredRangeFixture.readings(List.of(TEMPERATURE, POWER, FLOW, OLDER, LATER));
  private static StoredRangeFixture fixture;
  private static StoredBuckets stored;
  private static SeriesQueries queries;

  @BeforeAll
  static void storeEmittedBuckets() {
    final List<ClosedBucket> emitted = StoredRangeFixture.emitted(SENT, WEIGHTINGS);
    fixture = StoredRangeFixture.start();
    final MongoBucketWriter writer =
        new MongoBucketWriter(
            fixture.database(), "buckets_", GRANULARITIES, Retention.NONE, 500, 4);
    final List<ClosedBucket> current = new ArrayList<>();
    for (final ClosedBucket bucket : emitted) {
      if (bucket.series().equals(OLDER) && HOUR.windowStart(bucket.windowStart()) == ELEVEN) {
        Mono.from(
                fixture
                    .collection(bucket.granularity())
                    .insertOne(asVersion2(BucketDocuments.toDocument(bucket))))
            .block(TIMEOUT);
      } else if (bucket.series().equals(LATER)) {
        final BsonDocument document = mutable(BucketDocuments.toDocument(bucket));
        document.getDocument("window").put("interpolation", new BsonString("spline"));
        Mono.from(fixture.collection(bucket.granularity()).insertOne(document)).block(TIMEOUT);
      } else {
        current.add(bucket);
      }
    }
    writer.write(current, TIMEOUT);
    stored = fixture.stored();
    queries =
        new SeriesQueries(
            stored,
            Retention.NONE,
            Clock.systemUTC(),
            WindowComputations.DEFAULT.withTimeWeightings(WEIGHTINGS),
            IntegralUnits.parse("power=hours"));
  }

  @AfterAll
  static void stop() {
    fixture.close();
  }

  @Test
  void shouldAnswerEveryKindOfRangeAsTheReadingsDefineIt() {
    final SplittableRandom random = new SplittableRandom(7);
    final Map<String, Integer> kinds = new LinkedHashMap<>();
    for (final SeriesKey series : List.of(TEMPERATURE, POWER, FLOW)) {
      final List<Measurement> all = sorted(SENT.get(series));
      final long maxGap = WEIGHTINGS.of(series).maxGapMillis();
      final List<long[]> ranges = new ArrayList<>();
      ranges.add(new long[] {TEN, TEN + 3 * 3_600_000}); // whole hours
      ranges.add(new long[] {TEN + 30_500, TEN + 305_250}); // cuts two minutes
      ranges.add(new long[] {TEN + 1_800_000, TEN + 3 * 3_600_000 + 1_800_000}); // cuts hours
      ranges.add(new long[] {TEN - 3_600_000, TEN + 5 * 3_600_000}); // beyond the readings
      for (int i = 0; i + 1 < all.size(); i++) {
        final long t = all.get(i).timestamp();
        final long next = all.get(i + 1).timestamp();
        if (next - t > maxGap + 20_000) {
          // wholly inside one reading's hold; and starting, ending inside the uncovered rest
          ranges.add(new long[] {t + 1, t + maxGap - 1});
          ranges.add(new long[] {t + maxGap + 10_000, next + 90_000});
          ranges.add(new long[] {t - 61_000, t + maxGap + 10_000});
        }
      }
      for (int i = 0; i < 150; i++) {
        final long from = TEN - 600_000 + random.nextLong(4 * 3_600_000);
        ranges.add(new long[] {from, from + 1 + random.nextLong(2 * 3_600_000)});
      }
      for (final long[] range : ranges) {
        final String what = series + " [" + range[0] + ", " + range[1] + ")";
        final SeriesQueries.Statistics answer =
            queries.statistics(series, range[0], range[1], LiveWindows.NONE);
        assertThat(answer.timeWeight().missing()).as(what).isNull();
        final TimeWeightOracle expected =
            TimeWeightOracle.of(all, range[0], range[1], WEIGHTINGS.of(series));
        assertMatches(answer.timeWeight(), expected, what);
        tally(kinds, all, range, maxGap, answer, expected);
      }
    }
    assertThat(kinds)
        .as("kinds of ranges checked")
        .containsKeys(
            "cuts minutes",
            "cuts hours",
            "starts uncovered",
            "ends uncovered",
            "inside one hold",
            "partly covered");
  }

  @Test
  void shouldReadTheDocumentBeforeARangeInsideOneReadingsHold() {
    final List<Measurement> all = sorted(SENT.get(POWER));
    for (int i = 0; i + 1 < all.size(); i++) {
      final long t = all.get(i).timestamp();
      if (all.get(i + 1).timestamp() - t > 190_000) {
        final SeriesQueries.Statistics answer =
            queries.statistics(POWER, t + 1_000, t + 171_000, LiveWindows.NONE);
        assertThat(answer.count()).isZero();
        assertThat(answer.timeWeight().part().coveredMillis()).isEqualTo(170_000);
        assertThat(answer.timeWeight().twa()).isEqualTo(all.get(i).value());
        assertThat(answer.timeWeight().coverage()).isEqualTo(1.0);
        assertThat(answer.documentsRead()).as("the document before the range").isPositive();
        return;
      }
    }
    throw new AssertionError("the stream has no silence of the power's max gap");
  }

  @Test
  void shouldGiveTheIntegralInTheConfiguredUnit() {
    final TimeWeight power =
        queries.statistics(POWER, TEN, TEN + 7_200_000, LiveWindows.NONE).timeWeight();
    final TimeWeight temperature =
        queries.statistics(TEMPERATURE, TEN, TEN + 7_200_000, LiveWindows.NONE).timeWeight();
    assertThat(power.integralUnit()).isEqualTo(IntegralUnits.Unit.HOURS);
    assertThat(power.integral()).isEqualTo(power.part().integral() / 3_600_000);
    assertThat(temperature.integralUnit()).isEqualTo(IntegralUnits.Unit.SECONDS);
    assertThat(temperature.integral()).isEqualTo(temperature.part().integral() / 1_000);
  }

  @Test
  void shouldAnswerNoneOverDocumentsWithoutTimeWeightedParts() {
    final List<Measurement> all = sorted(SENT.get(OLDER));
    final List<long[]> ranges = new ArrayList<>();
    ranges.add(new long[] {ELEVEN, ELEVEN + 3_600_000});
    ranges.add(new long[] {TEN + 1_800_000, ELEVEN + 1_800_000});
    // a range of raw readings alone, whose reading before is in a version 2 minute
    for (int i = 0; i + 1 < all.size() && ranges.size() < 3; i++) {
      final long t = all.get(i).timestamp();
      if (t > ELEVEN
          && all.get(i + 1).timestamp() > t + 2
          && MINUTE.windowStart(t) == MINUTE.windowStart(t + 2)) {
        ranges.add(new long[] {t + 1, t + 2});
      }
    }
    assertThat(ranges).hasSize(3);
    for (final long[] range : ranges) {
      final TimeWeight answer =
          queries.statistics(OLDER, range[0], range[1], LiveWindows.NONE).timeWeight();
      assertThat(answer.part()).as("%s", range[0]).isNull();
      assertThat(answer.missing()).isEqualTo(RangeTimeWeight.WITHOUT_PART);
      assertThat(answer.twa()).isNaN();
    }
    // the hour before, of schema_version 3, is answered
    final TimeWeight before =
        queries.statistics(OLDER, TEN, ELEVEN - 30_000, LiveWindows.NONE).timeWeight();
    assertMatches(before, TimeWeightOracle.of(all, TEN, ELEVEN - 30_000, 45_000), "hour before");
  }

  @Test
  void shouldAnswerNoneFromDocumentsOfAnotherMaxGap() {
    final SeriesQueries otherGap =
        new SeriesQueries(
            stored,
            Retention.NONE,
            Clock.systemUTC(),
            WindowComputations.DEFAULT,
            IntegralUnits.SECONDS);
    final TimeWeight answer =
        otherGap.statistics(TEMPERATURE, TEN, ELEVEN, LiveWindows.NONE).timeWeight();
    assertThat(answer.part()).isNull();
    assertThat(answer.missing()).isEqualTo(RangeTimeWeight.MAX_GAP_CHANGED);
  }

  @Test
  void shouldAnswerNoneFromDocumentsOfAnInterpolationItDoesNotKnow() {
    for (final long[] range :
        List.of(
            new long[] {TEN, ELEVEN}, // the hour's own part
            new long[] {TEN + 1_800_000, ELEVEN})) { // minutes from its summaries
      final TimeWeight answer =
          queries.statistics(LATER, range[0], range[1], LiveWindows.NONE).timeWeight();
      assertThat(answer.part()).as("%s", range[0]).isNull();
      assertThat(answer.missing()).isEqualTo(RangeTimeWeight.WITHOUT_PART);
    }
    assertThat(
            queries.windows(LATER, MINUTE, TEN, ELEVEN, LiveWindows.NONE).windows().stream()
                .map(WindowTotals::timeWeighted))
        .isNotEmpty()
        .containsOnlyNulls();
    // raw readings alone are this build's to weigh
    final long from = TEN + 1_800_000 + 20_000;
    assertMatches(
        queries.statistics(LATER, from, from + 80_000, LiveWindows.NONE).timeWeight(),
        TimeWeightOracle.of(sorted(SENT.get(LATER)), from, from + 80_000, 45_000),
        "raw readings");
  }

  private static void tally(
      final Map<String, Integer> kinds,
      final List<Measurement> all,
      final long[] range,
      final long maxGap,
      final SeriesQueries.Statistics answer,
      final TimeWeightOracle expected) {
    if (range[0] % 60_000 != 0 || range[1] % 60_000 != 0) {
      kinds.merge("cuts minutes", 1, Integer::sum);
    }
    if (range[0] % 3_600_000 != 0 && range[1] % 3_600_000 != 0 && range[1] - range[0] > 3_600_000) {
      kinds.merge("cuts hours", 1, Integer::sum);
    }
    if (expected.gapAtStart() > 0) {
      kinds.merge("starts uncovered", 1, Integer::sum);
    }
    if (expected.gapAtEnd() > 0) {
      kinds.merge("ends uncovered", 1, Integer::sum);
    }
    if (answer.count() == 0 && expected.covered() == range[1] - range[0]) {
      kinds.merge("inside one hold", 1, Integer::sum);
    }
    if (expected.covered() > 0 && expected.covered() < range[1] - range[0]) {
      kinds.merge("partly covered", 1, Integer::sum);
    }
  }

  private static void assertMatches(
      final TimeWeight answer, final TimeWeightOracle expected, final String what) {
    TimeWeightAssertions.assertPartMatches(answer.part(), expected, what);
    assertThat(answer.coverage())
        .as(what)
        .isEqualTo((double) expected.covered() / answer.spanMillis());
  }

  private static List<Measurement> sorted(final List<Measurement> readings) {
    final List<Measurement> sorted = new ArrayList<>(readings);
    sorted.sort(Comparator.comparingLong(Measurement::timestamp));
    return sorted;
  }

  /** The document as schema_version 2 wrote it: no time-weighted fields anywhere. */
  /** A mutable copy: the bucket writer's documents are raw BSON. */
  private static BsonDocument mutable(final BsonDocument document) {
    return new BsonDocumentCodec()
        .decode(new BsonDocumentReader(document), DecoderContext.builder().build());
  }

  private static BsonDocument asVersion2(final BsonDocument document) {
    final BsonDocument old = mutable(document);
    final List<BsonDocument> parts = new ArrayList<>(List.of(old.getDocument("window")));
    if (old.containsKey("summaries")) {
      for (final BsonValue summary : old.getArray("summaries")) {
        parts.add(summary.asDocument());
      }
    }
    for (final BsonDocument fields : parts) {
      for (final String name :
          List.of(
              "covered_ms",
              "coverage",
              "integral",
              "twa",
              "gaps",
              "longest_gap_ms",
              "gap_at_start_ms",
              "gap_at_end_ms",
              "carry_in",
              "max_gap_ms",
              "interpolation")) {
        fields.remove(name);
      }
    }
    old.put("schema_version", new BsonInt32(2));
    return old;
  }
}
