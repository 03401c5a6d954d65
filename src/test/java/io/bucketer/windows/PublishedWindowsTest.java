package io.bucketer.windows;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.bucketer.buckets.BucketStats;
import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.Measurement;
import io.bucketer.buckets.SeriesKey;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The windows a task publishes for the queries, read over its store. */
class PublishedWindowsTest {

  /** A published window whose state never changes. */
  private record Fixed(Granularity granularity, long start, WindowState state)
      implements PublishedWindows.Published {}

  private static final Granularity MINUTE = Granularity.parse("1m");
  private static final Granularity HOUR = Granularity.parse("1h");
  private static final SeriesKey SERIES = new SeriesKey("s1", "temperature");

  private static WindowState window(final int readings) {
    BucketStats stats = BucketStats.of(new Measurement(0, 0), null);
    for (int i = 1; i < readings; i++) {
      stats = stats.add(new Measurement(i, i), null);
    }
    return WindowState.open(stats);
  }

  private static WindowReader.Window at(final long start, final int readings) {
    return new WindowReader.Window(start, window(readings));
  }

  @Test
  void shouldMergeTwoRangesInStartOrderTheNewerWindowInPlaceOfTheStoredOne() {
    final List<WindowReader.Window> merged =
        PublishedWindows.overlaid(
            List.of(at(0, 1), at(60, 1), at(180, 1)), List.of(at(60, 2), at(120, 2), at(240, 2)));

    assertThat(merged)
        .extracting(WindowReader.Window::start, window -> window.state().stats().count())
        .containsExactly(
            tuple(0L, 1L), tuple(60L, 2L), tuple(120L, 2L), tuple(180L, 1L), tuple(240L, 2L));
  }

  @Test
  void shouldReadEachGranularityOverTheStoreAndTheLatestStartOfEither() {
    final PublishedWindows published = new PublishedWindows();
    final InMemoryWindowStore store = new InMemoryWindowStore();
    store.put(SERIES, MINUTE, 0, window(5));
    store.put(SERIES, MINUTE, 60_000, window(1));
    published.publish(
        SERIES,
        List.of(
            new Fixed(MINUTE, 120_000, window(3)),
            new Fixed(MINUTE, 60_000, window(7)),
            new Fixed(HOUR, 0, window(15))));
    final WindowReader read = published.over(store);

    assertThat(read.range(SERIES, MINUTE, 0, 120_000))
        .extracting(window -> window.state().stats().count())
        .containsExactly(5L, 7L, 3L);
    assertThat(read.get(SERIES, HOUR, 0).stats().count()).isEqualTo(15);
    assertThat(read.latestStart(SERIES, MINUTE)).hasValue(120_000);
    assertThat(read.latestStart(SERIES, HOUR)).hasValue(0);

    published.publish(SERIES, List.of());

    assertThat(read.latestStart(SERIES, MINUTE)).hasValue(60_000);
    assertThat(read.get(SERIES, MINUTE, 60_000).stats().count()).isEqualTo(1);
  }

  @Test
  void shouldFindEachTasksWindowsByPartitionUntilThatTaskWithdrawsThem() {
    final PublishedWindows.Directory directory = new PublishedWindows.Directory();
    final PublishedWindows before = new PublishedWindows();
    final PublishedWindows after = new PublishedWindows();
    directory.register(3, before);
    directory.register(3, after); // the task started again on this instance

    directory.unregister(3, before); // the earlier one's late withdrawal withdraws nothing

    assertThat(directory.of(3)).isSameAs(after);
    directory.unregister(3, after);
    assertThat(directory.of(3)).isNull();
  }
}
