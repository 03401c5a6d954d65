package io.bucketer.rescale;

import static org.assertj.core.api.Assertions.assertThat;

import io.bucketer.topics.BucketKey;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class BucketWritersTest {

  private static final Instant HANDOVER = Instant.parse("2026-12-05T08:00:00Z");
  private static final Instant SINCE = HANDOVER.minusSeconds(3_600);

  private static String key(final String start) {
    return "[\"1m\"," + Instant.parse(start).toEpochMilli() + ",\"sensor-1\",null,0]";
  }

  @Test
  void shouldAgreeWhenEachWindowHasOneWriterOnItsSide() {
    final BucketAgreement agreement =
        BucketWriters.agreement(
            SINCE,
            Map.of(
                key("2026-12-05T07:59:00Z"), Set.of("old"),
                key("2026-12-05T08:00:00Z"), Set.of("new"),
                key("2026-12-05T08:01:00Z"), Set.of("new")),
            HANDOVER,
            "old",
            "new",
            BucketKey::windowStartOf);
    assertThat(agreement.agrees()).isTrue();
    assertThat(agreement.buckets()).isEqualTo(3);
    assertThat(agreement.byReplaced()).isEqualTo(1);
    assertThat(agreement.byNew()).isEqualTo(2);
  }

  @Test
  void shouldDisagreeOnAWindowWrittenByBothOrOnTheWrongSide() {
    final BucketAgreement agreement =
        BucketWriters.agreement(
            SINCE,
            Map.of(
                key("2026-12-05T07:59:00Z"), Set.of("old", "new"),
                key("2026-12-05T08:00:00Z"), Set.of("old"),
                key("2026-12-05T07:58:00Z"), Set.of("new")),
            HANDOVER,
            "old",
            "new",
            BucketKey::windowStartOf);
    assertThat(agreement.agrees()).isFalse();
    assertThat(agreement.byBoth()).isEqualTo(1);
    assertThat(agreement.wrongSide()).isEqualTo(2);
  }
}
