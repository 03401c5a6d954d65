package io.bucketer.ingest.senml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bucketer.avro.Reading;
import io.bucketer.ingest.InputRecord;
import io.bucketer.ingest.InvalidReadingException;
import io.bucketer.ingest.InvalidReadingException.Reason;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * RFC 8428's resolution rules, each on the RFC's own examples of section 5.1 where it has one, in
 * JSON and in CBOR; every way a pack can be refused, with its reason and a message naming the field
 * or the rule.
 */
class SenmlDecoderTest {

  /** The Kafka record's timestamp: "now" for relative times. */
  private static final Instant NOW = Instant.parse("2025-06-01T12:00:00Z");

  // RFC 8428 section 5.1.1, Single Data Point.
  private static final String SINGLE_DATA_POINT =
      """
      [{"n":"urn:dev:ow:10e2073a01080063","u":"Cel","v":23.1}]""";

  // Section 5.1.2, Multiple Data Points: "now", then at a base time.
  private static final String MULTIPLE_DATA_POINTS_NOW =
      """
      [{"bn":"urn:dev:ow:10e2073a01080063:","n":"voltage","u":"V","v":120.1},
       {"n":"current","u":"A","v":1.2}]""";
  private static final String MULTIPLE_DATA_POINTS =
      """
      [{"bn":"urn:dev:ow:10e2073a0108006:","bt":1.276020076001e+09,"bu":"A","bver":5,
        "n":"voltage","u":"V","v":120.1},
       {"n":"current","t":-5,"v":1.2},
       {"n":"current","t":-4,"v":1.3},
       {"n":"current","t":-3,"v":1.4},
       {"n":"current","t":-2,"v":1.5},
       {"n":"current","t":-1,"v":1.6},
       {"n":"current","v":1.7}]""";

  // Section 5.1.3, Multiple Measurements, and section 5.1.4, the same resolved.
  private static final String MULTIPLE_MEASUREMENTS =
      """
      [{"bn":"urn:dev:ow:10e2073a01080063","bt":1.320067464e+09,"bu":"%RH","v":20},
       {"u":"lon","v":24.30621},
       {"u":"lat","v":60.07965},
       {"t":60,"v":20.3},
       {"u":"lon","t":60,"v":24.30622},
       {"u":"lat","t":60,"v":60.07965},
       {"t":120,"v":20.7},
       {"u":"lon","t":120,"v":24.30623},
       {"u":"lat","t":120,"v":60.07966},
       {"u":"%EL","t":150,"v":98},
       {"t":180,"v":21.2},
       {"u":"lon","t":180,"v":24.30628},
       {"u":"lat","t":180,"v":60.07967}]""";
  private static final String RESOLVED_DATA =
      """
      [{"n":"urn:dev:ow:10e2073a01080063","u":"%RH","t":1.320067464e+09,"v":20},
       {"n":"urn:dev:ow:10e2073a01080063","u":"lon","t":1.320067464e+09,"v":24.30621},
       {"n":"urn:dev:ow:10e2073a01080063","u":"lat","t":1.320067464e+09,"v":60.07965},
       {"n":"urn:dev:ow:10e2073a01080063","u":"%RH","t":1.320067524e+09,"v":20.3},
       {"n":"urn:dev:ow:10e2073a01080063","u":"lon","t":1.320067524e+09,"v":24.30622},
       {"n":"urn:dev:ow:10e2073a01080063","u":"lat","t":1.320067524e+09,"v":60.07965},
       {"n":"urn:dev:ow:10e2073a01080063","u":"%RH","t":1.320067584e+09,"v":20.7},
       {"n":"urn:dev:ow:10e2073a01080063","u":"lon","t":1.320067584e+09,"v":24.30623},
       {"n":"urn:dev:ow:10e2073a01080063","u":"lat","t":1.320067584e+09,"v":60.07966},
       {"n":"urn:dev:ow:10e2073a01080063","u":"%EL","t":1.320067614e+09,"v":98},
       {"n":"urn:dev:ow:10e2073a01080063","u":"%RH","t":1.320067644e+09,"v":21.2},
       {"n":"urn:dev:ow:10e2073a01080063","u":"lon","t":1.320067644e+09,"v":24.30628},
       {"n":"urn:dev:ow:10e2073a01080063","u":"lat","t":1.320067644e+09,"v":60.07967}]""";

  // Section 5.1.5, Multiple Data Types.
  private static final String MULTIPLE_DATA_TYPES =
      """
      [{"bn":"urn:dev:ow:10e2073a01080063:","n":"temp","u":"Cel","v":23.1},
       {"n":"label","vs":"Machine Room"},
       {"n":"open","vb":false},
       {"n":"nfc-reader","vd":"aGkgCg"}]""";

  // Section 5.1.6, Collection of Resources: the last record has the third's base name and the
  // first's base time.
  private static final String COLLECTION_OF_RESOURCES =
      """
      [{"bn":"2001:db8::2/","bt":1.320078429e+09,"n":"temperature","u":"Cel","v":25.2},
       {"n":"humidity","u":"%RH","v":30},
       {"bn":"2001:db8::1/","n":"temperature","u":"Cel","v":12.3},
       {"n":"humidity","u":"%RH","v":67}]""";

  // Section 5.1.7, Setting an Actuator: a thermostat, and two lights dimmed then turned off.
  private static final String SETTING_AN_ACTUATOR =
      """
      [{"bn":"urn:dev:ow:10e2073a01080063:"},
       {"n":"temp","u":"Cel","v":23.1},
       {"n":"heat","u":"/","v":1},
       {"n":"fan","u":"/","v":0}]""";
  private static final String TWO_LIGHTS =
      """
      [{"bt":1.320078429e+09,"bu":"/","n":"2001:db8::3","v":0.5},
       {"n":"2001:db8::4","v":0.5},
       {"n":"2001:db8::3","t":0.1,"v":0},
       {"n":"2001:db8::4","t":0.1,"v":0}]""";

  /**
   * The RFC's own CBOR dump of section 6, the pack of {@link #MULTIPLE_DATA_POINTS}: integer
   * labels, half-precision floats among doubles.
   */
  private static final String RFC_CBOR_HEX =
      "87a721781b75726e3a6465763a6f773a31306532303733613031303830303"
          + "63a22fb41d303a15b00106223614120050067766f6c7461676501615602"
          + "fb405e066666666666a3006763757272656e740624"
          + "02fb3ff3333333333333a3006763757272656e740623"
          + "02fb3ff4cccccccccccda3006763757272656e740622"
          + "02fb3ff6666666666666a3006763757272656e740621"
          + "02f93e00a3006763757272656e740620"
          + "02fb3ff999999999999aa3006763757272656e740600"
          + "02fb3ffb333333333333";

  private final Map<SkippedValues.Kind, Integer> skipped = new EnumMap<>(SkippedValues.Kind.class);

  @ParameterizedTest
  @EnumSource(SenmlEncoding.class)
  void shouldReadASingleDataPointTakenNow(final SenmlEncoding encoding) throws Exception {
    assertThat(decode(encoding, SINGLE_DATA_POINT))
        .containsExactly(reading("urn:dev:ow:10e2073a01080063", NOW, 23.1, "Cel"));
  }

  @ParameterizedTest
  @EnumSource(SenmlEncoding.class)
  void shouldConcatenateTheBaseNameAndTheNameOfEachRecord(final SenmlEncoding encoding)
      throws Exception {
    assertThat(decode(encoding, MULTIPLE_DATA_POINTS_NOW))
        .containsExactly(
            reading("urn:dev:ow:10e2073a01080063:voltage", NOW, 120.1, "V"),
            reading("urn:dev:ow:10e2073a01080063:current", NOW, 1.2, "A"));
  }

  /** The base unit A applies where no unit is given; voltage's own V wins over it. */
  @ParameterizedTest
  @EnumSource(SenmlEncoding.class)
  void shouldAddTheBaseTimeToEachTimeAndApplyTheBaseUnit(final SenmlEncoding encoding)
      throws Exception {
    final long bt = 1_276_020_076_001L; // Tue Jun 8 18:01:16.001 UTC 2010
    final String current = "urn:dev:ow:10e2073a0108006:current";

    assertThat(decode(encoding, MULTIPLE_DATA_POINTS))
        .containsExactly(
            reading("urn:dev:ow:10e2073a0108006:voltage", millis(bt), 120.1, "V"),
            reading(current, millis(bt - 5000), 1.2, "A"),
            reading(current, millis(bt - 4000), 1.3, "A"),
            reading(current, millis(bt - 3000), 1.4, "A"),
            reading(current, millis(bt - 2000), 1.5, "A"),
            reading(current, millis(bt - 1000), 1.6, "A"),
            reading(current, millis(bt), 1.7, "A"));
  }

  /** RFC 8428 section 6: the CBOR representation is equivalent to the JSON one. */
  @Test
  void shouldReadEveryExampleOfTheRfcAlikeInCborAndInJson() throws Exception {
    for (final String example :
        List.of(
            SINGLE_DATA_POINT,
            MULTIPLE_DATA_POINTS_NOW,
            MULTIPLE_DATA_POINTS,
            MULTIPLE_MEASUREMENTS,
            RESOLVED_DATA,
            MULTIPLE_DATA_TYPES,
            COLLECTION_OF_RESOURCES,
            SETTING_AN_ACTUATOR,
            TWO_LIGHTS)) {
      assertThat(decode(SenmlEncoding.CBOR, example))
          .as(example)
          .isNotEmpty()
          .isEqualTo(decode(SenmlEncoding.JSON, example));
    }
  }

  @Test
  void shouldReadTheRfcsOwnCborDumpAsItsJson() throws Exception {
    final byte[] rfcCbor = java.util.HexFormat.of().parseHex(RFC_CBOR_HEX);

    assertThat(decoder(SenmlEncoding.CBOR, SenmlMetric.UNIT).readings(at(rfcCbor, NOW)))
        .hasSize(7)
        .isEqualTo(decode(SenmlEncoding.JSON, MULTIPLE_DATA_POINTS));
  }

  /**
   * RFC 8428 section 6 lets CBOR carry a number as a decimal fraction (tag 4, {@code [exponent,
   * mantissa]}) when a float would not hold it exactly: 25.37 as {@code 4([-2, 2537])}, the base
   * time as {@code 4([-1, 17486496000])}, each read as the number it stands for.
   */
  @Test
  void shouldReadCborDecimalFractionsAsTheirNumbers() throws Exception {
    final byte[] pack =
        java.util.HexFormat.of()
            .parseHex(
                "81" // an array of one record
                    + "a3" // a map of three fields
                    + "00"
                    + "6474656d70" // n: "temp"
                    + "02"
                    + "c4"
                    + "82"
                    + "21"
                    + "1909e9" // v: 4([-2, 2537])
                    + "22"
                    + "c4"
                    + "82"
                    + "20"
                    + "1b000000041246c100"); // bt: 4([-1, ...])

    assertThat(decoder(SenmlEncoding.CBOR, SenmlMetric.NONE).readings(at(pack, NOW)))
        .singleElement()
        .satisfies(
            reading -> {
              assertThat(reading.getValue()).isEqualTo(25.37);
              assertThat(reading.getTimestamp()).isEqualTo(Instant.parse("2025-05-31T00:00:00Z"));
            });
  }

  /** Section 5.1.4 is section 5.1.3's pack resolved: both give the same readings. */
  @ParameterizedTest
  @EnumSource(SenmlEncoding.class)
  void shouldResolveMultipleMeasurementsToTheRfcsResolvedData(final SenmlEncoding encoding)
      throws Exception {
    final List<Reading> readings = decode(encoding, MULTIPLE_MEASUREMENTS);

    assertThat(readings).isEqualTo(decode(encoding, RESOLVED_DATA));
    assertThat(readings)
        .hasSize(13)
        .allSatisfy(r -> assertThat(r.getSensorId()).isEqualTo("urn:dev:ow:10e2073a01080063"))
        .extracting(Reading::getMetric)
        .containsExactly(
            "%RH",
            "lon", "lat", "%RH", "lon", "lat", "%RH", "lon", "lat", "%EL", "%RH", "lon", "lat");
    assertThat(readings.get(9))
        .isEqualTo(
            reading(
                "urn:dev:ow:10e2073a01080063", Instant.parse("2011-10-31T13:26:54Z"), 98, "%EL"));
  }

  @ParameterizedTest
  @EnumSource(SenmlEncoding.class)
  void shouldSkipAndCountStringBooleanAndDataValues(final SenmlEncoding encoding) throws Exception {
    assertThat(decode(encoding, MULTIPLE_DATA_TYPES))
        .containsExactly(reading("urn:dev:ow:10e2073a01080063:temp", NOW, 23.1, "Cel"));
    assertThat(skipped)
        .containsExactlyInAnyOrderEntriesOf(
            Map.of(
                SkippedValues.Kind.STRING, 1,
                SkippedValues.Kind.BOOLEAN, 1,
                SkippedValues.Kind.DATA, 1));
  }

  @ParameterizedTest
  @EnumSource(SenmlEncoding.class)
  void shouldKeepEachBaseFieldUntilARecordGivesItAgain(final SenmlEncoding encoding)
      throws Exception {
    final Instant bt = Instant.parse("2011-10-31T16:27:09Z");

    assertThat(decode(encoding, COLLECTION_OF_RESOURCES))
        .containsExactly(
            reading("2001:db8::2/temperature", bt, 25.2, "Cel"),
            reading("2001:db8::2/humidity", bt, 30, "%RH"),
            reading("2001:db8::1/temperature", bt, 12.3, "Cel"),
            reading("2001:db8::1/humidity", bt, 67, "%RH"));
  }

  /** Its first record holds a base name only: it measures nothing and gives no reading. */
  @ParameterizedTest
  @EnumSource(SenmlEncoding.class)
  void shouldReadTheActuatorExamples(final SenmlEncoding encoding) throws Exception {
    final Instant bt = Instant.parse("2011-10-31T16:27:09Z");

    assertThat(decode(encoding, SETTING_AN_ACTUATOR))
        .containsExactly(
            reading("urn:dev:ow:10e2073a01080063:temp", NOW, 23.1, "Cel"),
            reading("urn:dev:ow:10e2073a01080063:heat", NOW, 1, "/"),
            reading("urn:dev:ow:10e2073a01080063:fan", NOW, 0, "/"));
    assertThat(decode(encoding, TWO_LIGHTS))
        .containsExactly(
            reading("2001:db8::3", bt, 0.5, "/"),
            reading("2001:db8::4", bt, 0.5, "/"),
            reading("2001:db8::3", bt.plusMillis(100), 0, "/"),
            reading("2001:db8::4", bt.plusMillis(100), 0, "/"));
  }

  @ParameterizedTest
  @EnumSource(SenmlEncoding.class)
  void shouldAddTheBaseValueToEachValueAndNeverMakeAValueOfItAlone(final SenmlEncoding encoding)
      throws Exception {
    final String pack =
        """
        [{"bn":"boiler:","bv":20,"bu":"Cel","n":"in","v":1.5},
         {"n":"out","v":-0.5},
         {"n":"state","vs":"on"},
         {"bv":100,"n":"in","t":-10,"v":0.25},
         {"n":"out","t":-10,"s":3}]""";

    assertThat(decode(encoding, pack))
        .containsExactly(
            reading("boiler:in", NOW, 21.5, "Cel"),
            reading("boiler:out", NOW, 19.5, "Cel"),
            reading("boiler:in", NOW.minusSeconds(10), 100.25, "Cel"),
            reading("boiler:out", NOW.minusSeconds(10), 3, "Cel_sum"));
  }

  /** A sum is the integral of the values: a series of its own, beside the value's. */
  @ParameterizedTest
  @EnumSource(SenmlEncoding.class)
  void shouldAddTheBaseSumToEachSumAndGiveBothAValueAndASum(final SenmlEncoding encoding)
      throws Exception {
    final String pack =
        """
        [{"bn":"meter-7","bt":1.7487e9,"bs":1000,"bu":"W","v":230,"s":5},
         {"t":60,"v":240,"s":13.5},
         {"t":120,"s":22},
         {"bs":0,"t":180,"s":1}]""";
    final Instant bt = Instant.ofEpochSecond(1_748_700_000L);

    assertThat(decode(encoding, pack))
        .containsExactly(
            reading("meter-7", bt, 230, "W"),
            reading("meter-7", bt, 1005, "W_sum"),
            reading("meter-7", bt.plusSeconds(60), 240, "W"),
            reading("meter-7", bt.plusSeconds(60), 1013.5, "W_sum"),
            reading("meter-7", bt.plusSeconds(120), 1022, "W_sum"),
            reading("meter-7", bt.plusSeconds(180), 1, "W_sum"));
  }

  /** Below 2^28 s a time is relative to the Kafka record's timestamp, in the past or future. */
  @ParameterizedTest
  @EnumSource(SenmlEncoding.class)
  void shouldTakeTimesBelow2To28RelativeToTheRecordsTimestamp(final SenmlEncoding encoding)
      throws Exception {
    final String pack =
        """
        [{"bn":"probe","bt":-60,"v":1},
         {"t":30.25,"v":2},
         {"bt":0,"t":10,"v":3},
         {"bt":268435455,"v":4},
         {"bt":268435456,"v":5}]""";

    assertThat(decode(encoding, pack))
        .extracting(Reading::getTimestamp)
        .containsExactly(
            NOW.minusSeconds(60),
            NOW.minusMillis(29_750),
            NOW.plusSeconds(10),
            NOW.plusSeconds(268_435_455),
            Instant.parse("1978-07-04T21:24:16Z"));
  }

  @Test
  void shouldRefuseARelativeTimeWhenTheRecordHasNoTimestamp() {
    assertRefused(
        SenmlEncoding.JSON,
        at(bytes(SINGLE_DATA_POINT), null),
        Reason.NOT_A_TIME,
        "record 1",
        "no timestamp");
  }

  @Test
  void shouldDropTheUnitOrFixTheMetricWhenSetToDoSo() throws Exception {
    final String pack =
        """
        [{"bn":"meter-7","bu":"W","v":230,"s":5}]""";

    assertThat(decoder(SenmlEncoding.JSON, SenmlMetric.NONE).readings(at(bytes(pack), NOW)))
        .containsExactly(reading("meter-7", NOW, 230, null), reading("meter-7", NOW, 5, "sum"));
    assertThat(
            decoder(SenmlEncoding.JSON, SenmlMetric.parse("power")).readings(at(bytes(pack), NOW)))
        .containsExactly(
            reading("meter-7", NOW, 230, "power"), reading("meter-7", NOW, 5, "power_sum"));
  }

  @Test
  void shouldGiveNoReadingAndCountTheValuesOfAPackOfNoNumbers() throws Exception {
    final String pack =
        """
        [{"bn":"door-3:","n":"open","vb":true},{"n":"label","vs":"back door"}]""";

    assertThat(decode(SenmlEncoding.JSON, pack)).isEmpty();
    assertThat(skipped)
        .containsExactlyInAnyOrderEntriesOf(
            Map.of(SkippedValues.Kind.BOOLEAN, 1, SkippedValues.Kind.STRING, 1));
  }

  /** Replaying the dead letter would count them again. */
  @Test
  void shouldCountNoSkippedValueOfARefusedPack() {
    final String pack =
        """
        [{"bn":"door-3:","n":"open","vb":true},{"n":"bad name","v":1}]""";

    assertRefused(SenmlEncoding.JSON, pack, Reason.SENML_INVALID_NAME, "record 2", "bad name");
    assertThat(skipped).isEmpty();
  }

  @Test
  void shouldIgnoreUnknownFieldsWhatEverTheyHold() throws Exception {
    final String pack =
        """
        [{"n":"a","v":1,"ut":60,"x":{"deep":[1,2]},"l":"link"}]""";

    assertThat(decode(SenmlEncoding.JSON, pack)).containsExactly(reading("a", NOW, 1, null));
    assertThat(decode(SenmlEncoding.CBOR, pack)).containsExactly(reading("a", NOW, 1, null));
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          [{"n":"a","v":1,"bver":11}]          | unsupported-senml-version | record 1 gives bver 11
          [{"bver":10,"n":"a","v":1},{"bver":5,"n":"b","v":2}] | malformed-senml | record 2 gives bver 5
          [{"bver":0,"n":"a","v":1}]           | malformed-senml           | bver holds 0
          [{"bver":2.5,"n":"a","v":1}]         | malformed-senml           | bver holds a number
          [{"v":1}]                            | senml-no-name             | record 1 has a value but no name
          [{"bn":"a"},{"bn":"","vb":true}]     | senml-no-name             | record 2
          [{"n":"-a","v":1}]                   | senml-invalid-name        | starts with '-'
          [{"bn":"dev#7/","n":"t","v":1}]      | senml-invalid-name        | character '#' at 3
          [{"n":"a","v":1,"ext_":true}]        | senml-must-understand     | the field ext_
          [{"bn":"a","bu":"W"}]                | no-values                 | none of the pack's 1 record(s)
          [{"n":"a","v":1,"t":1e300}]          | not-a-time                | record 1 has the time
          []                                   | malformed-senml           | holds no record
          {"n":"a","v":1}                      | malformed-senml           | expected an array of records, found an object
          [{"n":"a","v":1},7]                  | malformed-senml           | record 2 is a number
          [{"n":"a","v":"1"}]                  | malformed-senml           | record 1: v holds a string, expected a number
          [{"n":7,"v":1}]                      | malformed-senml           | record 1: n holds a number, expected a string
          [{"n":"a","vb":"true"}]              | malformed-senml           | record 1: vb holds a string, expected a boolean
          [{"n":"a","v":null}]                 | malformed-senml           | record 1: v holds null
          [{"n":"a","v":1,"vs":"x"}]           | malformed-senml           | record 1 holds more than one of v, vs, vb and vd
          [{"n":"a","v":1,"v":2}]              | malformed-senml           | Duplicate field
          [{"n":"a","v":1}] []                 | malformed-senml           | followed by an array
          [{"n":"a","v":1}                     | malformed-senml           | not JSON
          """)
  void shouldRefuseAPackThatBreaksARuleWithItsReason(
      final String pack, final String reason, final String message) {
    final Reason expected =
        java.util.Arrays.stream(Reason.values())
            .filter(r -> r.label().equals(reason))
            .findFirst()
            .orElseThrow();

    assertRefused(SenmlEncoding.JSON, pack, expected, message);
  }

  /** The same rules in CBOR, for the packs that CBOR can carry. */
  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          [{"n":"a","v":1,"bver":11}]      | unsupported-senml-version
          [{"v":1}]                        | senml-no-name
          [{"n":"a b","v":1}]              | senml-invalid-name
          [{"n":"a","v":1,"ext_":true}]    | senml-must-understand
          [{"bn":"a"}]                     | no-values
          [{"n":"a","v":"1"}]              | malformed-senml
          [{"n":"a","v":1,"vb":false}]     | malformed-senml
          """)
  void shouldRefuseTheSameRulesInCbor(final String pack, final String reason) {
    assertThatThrownBy(
            () ->
                decoder(SenmlEncoding.CBOR, SenmlMetric.UNIT).readings(at(CborPacks.of(pack), NOW)))
        .isInstanceOfSatisfying(
            InvalidReadingException.class, e -> assertThat(e.reason().label()).isEqualTo(reason));
  }

  @Test
  void shouldRefuseBytesThatAreNoCborPackAndJsonReadAsCbor() {
    assertRefused(
        SenmlEncoding.CBOR,
        at(bytes(SINGLE_DATA_POINT), NOW),
        Reason.MALFORMED_SENML,
        "expected an array of records");
    assertRefused(
        SenmlEncoding.CBOR, at(new byte[] {(byte) 0x82, 0x01}, NOW), Reason.MALFORMED_SENML, "");
    assertRefused(SenmlEncoding.JSON, at(null, NOW), Reason.MALFORMED_SENML, "null");
  }

  private List<Reading> decode(final SenmlEncoding encoding, final String jsonPack)
      throws InvalidReadingException {
    final byte[] pack = encoding == SenmlEncoding.CBOR ? CborPacks.of(jsonPack) : bytes(jsonPack);
    return decoder(encoding, SenmlMetric.UNIT).readings(at(pack, NOW));
  }

  private SenmlDecoder decoder(final SenmlEncoding encoding, final SenmlMetric metric) {
    return new SenmlDecoder(
        new SenmlOptions(encoding, metric, kind -> skipped.merge(kind, 1, Integer::sum)));
  }

  private void assertRefused(
      final SenmlEncoding encoding,
      final String pack,
      final Reason reason,
      final String... messageParts) {
    assertRefused(encoding, at(bytes(pack), NOW), reason, messageParts);
  }

  private void assertRefused(
      final SenmlEncoding encoding,
      final InputRecord record,
      final Reason reason,
      final String... messageParts) {
    assertThatThrownBy(() -> decoder(encoding, SenmlMetric.UNIT).readings(record))
        .isInstanceOfSatisfying(
            InvalidReadingException.class,
            e -> {
              assertThat(e.reason()).isEqualTo(reason);
              assertThat(e.detail()).contains(messageParts);
            });
  }

  private static InputRecord at(final byte[] value, final Instant timestamp) {
    return new InputRecord(
        null, value, InputRecord.Headers.NONE, timestamp == null ? -1 : timestamp.toEpochMilli());
  }

  private static byte[] bytes(final String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  private static Instant millis(final long epochMillis) {
    return Instant.ofEpochMilli(epochMillis);
  }

  private static Reading reading(
      final String sensor, final Instant time, final double value, final String metric) {
    return new Reading(sensor, time, value, metric, null);
  }
}
