package io.bucketer.windows;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.bucketer.buckets.BucketLayout;
import io.bucketer.buckets.ClosedBucket;
import io.bucketer.buckets.Granularity;
import io.bucketer.buckets.Measurement;
import io.bucketer.buckets.SeriesKey;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The window cache in front of a store: what reaches the store, when, and within what memory. */
class WriteBehindWindowsTest {

  private static final Granularity MINUTE = Granularity.parse("1m");
  private static final Granularity HOUR = Granularity.parse("1h");
  private static final SeriesKey SERIES = new SeriesKey("s1", "temperature");
  private static final SeriesKey OTHER = new SeriesKey("s2", "temperature");
  private static final long TEN = Instant.parse("2025-06-01T10:00:00Z").toEpochMilli();

  private final InMemoryWindowStore store = new InMemoryWindowStore();
  private final WindowCacheBudget budget = new WindowCacheBudget(1L << 30);
  private final WriteBehindWindows windows = new WriteBehindWindows(store, MINUTE, budget);

  private static WindowState minuteWith(final int readings) {
    WindowState state = WindowState.openWith(new Measurement(TEN, 0), null);
    for (int i = 1; i < readings; i++) {
      state = state.withReading(new Measurement(TEN + i * 1_000L, i), null);
    }
    return state;
  }

  @Test
  void shouldWriteAWindowChangedManyTimesOnceWhenAskedToWriteChanges() {
    for (int readings = 1; readings <= 50; readings++) {
      windows.put(SERIES, MINUTE, TEN, minuteWith(readings));
    }
    assertThat(store.puts).isZero();
    assertThat(store.get(SERIES, MINUTE, TEN)).isNull();

    windows.writeChanges();

    assertThat(store.puts).isEqualTo(1);
    assertThat(store.get(SERIES, MINUTE, TEN).stats().count()).isEqualTo(50);
    windows.writeChanges();
    assertThat(store.puts).isEqualTo(1);
  }

  @Test
  void shouldAnswerAnOpenWindowFromMemoryAcrossCommits() {
    final WindowState open = minuteWith(3);
    windows.put(SERIES, MINUTE, TEN, open);
    windows.writeChanges();
    final int gets = store.gets;

    assertThat(windows.get(SERIES, MINUTE, TEN)).usingRecursiveComparison().isEqualTo(open);
    assertThat(store.gets).isEqualTo(gets);
  }

  @Test
  void shouldReadAWindowMissingFromMemoryFromTheStoreAndKeepItIfOpen() {
    store.put(SERIES, MINUTE, TEN, minuteWith(2));

    assertThat(windows.get(SERIES, MINUTE, TEN).stats().count()).isEqualTo(2);
    assertThat(windows.get(SERIES, MINUTE, TEN).stats().count()).isEqualTo(2);
    assertThat(store.gets).isEqualTo(1);
  }

  @Test
  void shouldLogAWindowAsNewToTheStoreWithoutALookupOnlyWhenPutAsNew() {
    windows.putNew(SERIES, MINUTE, TEN, minuteWith(1)); // the lifecycle knows it is new
    windows.get(SERIES, HOUR, TEN); // none, but put without saying so: not taken as new
    windows.put(SERIES, HOUR, TEN, WindowState.open(minuteWith(1).stats()));
    store.put(OTHER, HOUR, TEN, WindowState.open(minuteWith(2).stats()).close());
    windows.get(OTHER, HOUR, TEN); // closed: read, not cached
    windows.put(OTHER, HOUR, TEN, WindowState.open(minuteWith(3).stats()).close());

    windows.writeChanges();

    assertThat(store.loggedNew).as("windows logged as new without a lookup").isEqualTo(1);
    assertThat(store.get(OTHER, HOUR, TEN).stats().count())
        .as("the revised closed hour")
        .isEqualTo(3);
    windows.put(SERIES, MINUTE, TEN, minuteWith(2));
    windows.writeChanges();
    assertThat(store.loggedNew).as("a window's second change").isEqualTo(1);
  }

  @Test
  void shouldWriteAWindowPutAsNewThroughAsNewWhenTheBudgetIsSpent() {
    final InMemoryWindowStore through = new InMemoryWindowStore();
    final WriteBehindWindows spent =
        new WriteBehindWindows(through, MINUTE, new WindowCacheBudget(0));

    spent.putNew(SERIES, MINUTE, TEN, minuteWith(1));
    spent.put(SERIES, HOUR, TEN, WindowState.open(minuteWith(1).stats()));

    assertThat(through.newPuts).as("written through as new").isEqualTo(1);
    assertThat(through.get(SERIES, MINUTE, TEN).stats().count()).isEqualTo(1);
    assertThat(through.get(SERIES, HOUR, TEN).stats().count()).isEqualTo(1);
  }

  @Test
  void shouldLetAClosedWindowGoOnceWritten() {
    windows.put(SERIES, MINUTE, TEN, minuteWith(2).close());
    windows.writeChanges();
    final int gets = store.gets;

    assertThat(windows.get(SERIES, MINUTE, TEN).closed()).isTrue();
    assertThat(store.gets).isEqualTo(gets + 1);
  }

  @Test
  void shouldReadWindowsByRangeWithTheCachedOnesInPlaceOfTheStoredOnes() {
    store.put(SERIES, MINUTE, TEN - 60_000, minuteWith(7));
    store.put(SERIES, MINUTE, TEN, minuteWith(1));
    windows.put(SERIES, MINUTE, TEN, minuteWith(2)); // newer than the stored one
    windows.put(SERIES, MINUTE, TEN + 60_000, minuteWith(3)); // not stored yet
    windows.put(SERIES, HOUR, TEN, WindowState.open(minuteWith(9).stats()));
    final int puts = store.puts;

    assertThat(windows.range(SERIES, MINUTE, TEN - 60_000, TEN + 60_000))
        .extracting(window -> window.start(), window -> window.state().stats().count())
        .containsExactly(tuple(TEN - 60_000, 7L), tuple(TEN, 2L), tuple(TEN + 60_000, 3L));
    assertThat(windows.range(SERIES, MINUTE, TEN, TEN))
        .extracting(window -> window.state().stats().count())
        .containsExactly(2L);
    assertThat(windows.latestStart(SERIES, MINUTE)).hasValue(TEN + 60_000);
    assertThat(windows.latestStart(OTHER, MINUTE)).isEmpty();
    assertThat(store.puts).isEqualTo(puts); // nothing written before the commit
  }

  @Test
  void shouldHoldAnyNumberOfASeriesWindowsAndKeepTheRestWhenOnesInTheMiddleLeave() {
    for (int minute = 0; minute < 9; minute++) {
      final WindowState window = minuteWith(minute + 1);
      windows.put(
          SERIES, MINUTE, TEN + minute * 60_000L, minute % 3 == 1 ? window.close() : window);
    }
    windows.put(SERIES, HOUR, TEN, WindowState.open(minuteWith(45).stats()));

    windows.writeChanges(); // the closed minutes 1, 4 and 7 leave the cache for the store
    final int gets = store.gets;

    assertThat(windows.range(SERIES, MINUTE, TEN, TEN + 8 * 60_000L))
        .extracting(window -> window.state().stats().count())
        .containsExactly(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L);
    for (final int open : List.of(0, 2, 3, 5, 6, 8)) {
      assertThat(windows.get(SERIES, MINUTE, TEN + open * 60_000L).stats().count())
          .isEqualTo(open + 1);
    }
    assertThat(windows.get(SERIES, HOUR, TEN).stats().count()).isEqualTo(45);
    assertThat(store.gets).as("open windows answered from memory").isEqualTo(gets);
    assertThat(windows.latestStart(SERIES, MINUTE)).hasValue(TEN + 8 * 60_000L);
  }

  @Test
  void shouldNotWriteBackAWindowDeletedBeforeItsChangeWasWritten() {
    windows.put(SERIES, MINUTE, TEN, minuteWith(2));
    windows.put(SERIES, HOUR, TEN, WindowState.open(minuteWith(2).stats()));

    windows.deleteBetween(SERIES, MINUTE, Long.MIN_VALUE, TEN);
    windows.writeChanges();

    assertThat(store.get(SERIES, MINUTE, TEN)).isNull();
    assertThat(windows.get(SERIES, MINUTE, TEN)).isNull();
    assertThat(store.get(SERIES, HOUR, TEN)).isNotNull();
  }

  @Test
  void shouldWriteThroughTheWindowsThatFindTheBudgetSpentAndKeepTheCachedOnes() {
    final WindowCacheBudget small = new WindowCacheBudget(2_000); // one minute at its largest
    final WriteBehindWindows bounded = new WriteBehindWindows(store, MINUTE, small);
    bounded.put(SERIES, MINUTE, TEN, minuteWith(40));
    bounded.put(OTHER, MINUTE, TEN, minuteWith(40));

    assertThat(store.get(SERIES, MINUTE, TEN)).isNull(); // cached, written at the commit
    assertThat(store.get(OTHER, MINUTE, TEN).stats().count()).isEqualTo(40); // written through
    assertThat(small.heldBytes()).isLessThanOrEqualTo(2_000);

    final int gets = store.gets;
    assertThat(bounded.get(SERIES, MINUTE, TEN).stats().count()).isEqualTo(40);
    assertThat(store.gets).isEqualTo(gets);
    assertThat(bounded.get(OTHER, MINUTE, TEN).stats().count()).isEqualTo(40);
    assertThat(store.gets).isEqualTo(gets + 1);
  }

  @Test
  void shouldChargeAWindowItsLargestSizeSoThatGrowingNeverOverrunsTheBudget() {
    final WindowCacheBudget budget = new WindowCacheBudget(1L << 20);
    final WriteBehindWindows windows = new WriteBehindWindows(store, MINUTE, budget);
    windows.put(SERIES, MINUTE, TEN, minuteWith(1));
    final long charged = budget.heldBytes();

    windows.put(SERIES, MINUTE, TEN, minuteWith(WindowLifecycle.TAIL_CAPACITY));
    windows.put(SERIES, HOUR, TEN, WindowState.open(minuteWith(3).stats()));

    assertThat(charged)
        .isGreaterThanOrEqualTo(12L * WindowLifecycle.TAIL_CAPACITY); // its full tail's arrays
    assertThat(budget.heldBytes()).isLessThan(2 * charged); // an hour of sums costs less
  }

  @Test
  void shouldChargeEightBytesATimestampOnlyWhereAWindowOutlastsAnIntOfMilliseconds() {
    final Granularity month = Granularity.ofMillis(Duration.ofDays(30).toMillis());
    final WindowCacheBudget minutes = new WindowCacheBudget(1L << 20);
    final WindowCacheBudget months = new WindowCacheBudget(1L << 20);

    new WriteBehindWindows(store, MINUTE, minutes).put(SERIES, MINUTE, TEN, minuteWith(1));
    new WriteBehindWindows(store, month, months).put(SERIES, month, 0, minuteWith(1));

    assertThat(months.heldBytes() - minutes.heldBytes())
        .isEqualTo((long) Integer.BYTES * WindowLifecycle.TAIL_CAPACITY);
  }

  @Test
  void shouldMakeRoomWhenAClosedWindowIsWritten() {
    final WindowCacheBudget small = new WindowCacheBudget(2_000);
    final WriteBehindWindows bounded = new WriteBehindWindows(store, MINUTE, small);
    bounded.put(SERIES, MINUTE, TEN, minuteWith(3).close());
    bounded.writeChanges();

    bounded.put(OTHER, MINUTE, TEN, minuteWith(3));

    assertThat(store.get(OTHER, MINUTE, TEN)).isNull(); // cached: the closed minute left room
  }

  @Test
  void shouldGiveTheBudgetBackAndForgetUnwrittenChangesOnDiscard() {
    windows.put(SERIES, MINUTE, TEN, minuteWith(5));
    assertThat(budget.heldBytes()).isPositive();

    windows.discard();
    windows.writeChanges();

    assertThat(budget.heldBytes()).isZero();
    assertThat(store.puts).isZero();
  }

  /**
   * Live, a commit brings a reading of each series: each window's change is logged at every commit,
   * and the window written where reads by key find it only when it closes.
   */
  @Test
  void shouldLogAChangedWindowAtEachCommitAndKeepItInTheStoreOnlyWhenItCloses() {
    final InMemoryWindowStore logging = new InMemoryWindowStore(true);
    final WriteBehindWindows live = new WriteBehindWindows(logging, MINUTE, budget);
    for (int readings = 1; readings <= 30; readings++) {
      live.put(SERIES, MINUTE, TEN, minuteWith(readings));
      live.writeChanges();
    }

    assertThat(logging.logged).isEqualTo(30);
    assertThat(logging.puts).isZero();
    assertThat(logging.get(SERIES, MINUTE, TEN)).isNull();

    live.put(SERIES, MINUTE, TEN, minuteWith(31).close());
    live.writeChanges();

    assertThat(logging.logged).isEqualTo(31);
    assertThat(logging.puts).isEqualTo(1);
    assertThat(logging.get(SERIES, MINUTE, TEN).closed()).isTrue();
  }

  /**
   * Queries on other threads read the windows a commit logged, from memory until the store keeps
   * them: never a change the commit did not log, never a gap when a window moves to the store.
   */
  @Test
  void shouldPublishTheWindowsEachCommitLoggedUntilTheStoreKeepsThem() {
    final InMemoryWindowStore logging = new InMemoryWindowStore(true);
    final WriteBehindWindows live = new WriteBehindWindows(logging, MINUTE, budget);
    final WindowReader queried = live.published().over(logging);
    live.put(SERIES, MINUTE, TEN, minuteWith(3));
    assertThat(queried.get(SERIES, MINUTE, TEN)).isNull(); // not logged yet

    live.writeChanges();
    live.put(SERIES, MINUTE, TEN, minuteWith(4)); // after the commit: not published

    assertThat(queried.get(SERIES, MINUTE, TEN).stats().count()).isEqualTo(3);
    assertThat(queried.range(SERIES, MINUTE, TEN - 60_000, TEN + 60_000))
        .extracting(window -> window.state().stats().count())
        .containsExactly(3L);
    assertThat(queried.latestStart(SERIES, MINUTE)).hasValue(TEN);
    assertThat(queried.get(OTHER, MINUTE, TEN)).isNull();

    live.put(SERIES, MINUTE, TEN, minuteWith(5).close());
    live.writeChanges();

    assertThat(queried.get(SERIES, MINUTE, TEN).stats().count()).isEqualTo(5); // from the store
    assertThat(live.published().over(new InMemoryWindowStore()).get(SERIES, MINUTE, TEN))
        .isNull(); // no longer published
  }

  /**
   * Whether a series holds one window, two or more, and whichever of them a commit changed, the
   * published windows are each as the last commit logged it.
   */
  @Test
  void shouldPublishEveryLoggedWindowOfASeriesAsItsLastCommitLoggedIt() {
    final InMemoryWindowStore logging = new InMemoryWindowStore(true);
    final WriteBehindWindows live = new WriteBehindWindows(logging, MINUTE, budget);
    final WindowReader queried = live.published().over(new InMemoryWindowStore());
    live.put(SERIES, MINUTE, TEN, minuteWith(3));
    live.writeChanges();
    assertThat(queried.get(SERIES, MINUTE, TEN).stats().count()).isEqualTo(3);

    live.put(SERIES, HOUR, TEN, minuteWith(7));
    live.writeChanges();
    live.put(SERIES, MINUTE, TEN, minuteWith(4)); // the hour unchanged from here on
    live.writeChanges();

    assertThat(queried.get(SERIES, MINUTE, TEN).stats().count()).isEqualTo(4);
    assertThat(queried.get(SERIES, HOUR, TEN).stats().count()).isEqualTo(7);

    live.put(SERIES, MINUTE, TEN + 60_000, minuteWith(1));
    live.put(SERIES, MINUTE, TEN, minuteWith(5));
    live.writeChanges();

    assertThat(queried.range(SERIES, MINUTE, TEN, TEN + 60_000))
        .extracting(window -> window.state().stats().count())
        .containsExactly(5L, 1L);
    assertThat(queried.get(SERIES, HOUR, TEN).stats().count()).isEqualTo(7);

    live.put(SERIES, HOUR, TEN, minuteWith(8));
    live.writeChanges();

    assertThat(queried.get(SERIES, HOUR, TEN).stats().count()).isEqualTo(8);
    assertThat(queried.get(SERIES, MINUTE, TEN + 60_000).stats().count()).isEqualTo(1);
  }

  /**
   * The cache writes a window's values over in place rather than holding the states readings make
   * (a live fleet's states would otherwise each live a second and be promoted): a state it gave
   * out, to the stream thread or to a query, stays as it was however many readings the window takes
   * after it, its tail's arrays growing or not.
   */
  @Test
  void shouldLeaveEveryStateItGaveOutAsItWasWhateverTheWindowTakesAfter() {
    final InMemoryWindowStore logging = new InMemoryWindowStore(true);
    final WriteBehindWindows live = new WriteBehindWindows(logging, MINUTE, budget);
    final WindowReader queried = live.published().over(new InMemoryWindowStore());
    live.put(SERIES, MINUTE, TEN, minuteWith(3));
    live.writeChanges();
    final WindowState current = live.get(SERIES, MINUTE, TEN);
    final WindowState published = queried.get(SERIES, MINUTE, TEN);

    for (int reading = 3; reading < 60; reading++) {
      addReading(live, reading);
      live.writeChanges();
    }

    for (final WindowState given : List.of(current, published)) {
      assertThat(given.stats().count()).isEqualTo(3);
      assertThat(given.stats().lastTimestamp()).isEqualTo(TEN + 2_000);
      assertThat(given.tail().measurements())
          .extracting(Measurement::value)
          .containsExactly(0.0, 1.0, 2.0);
    }
    assertThat(queried.get(SERIES, MINUTE, TEN).stats().count()).isEqualTo(60);
    assertThat(queried.get(SERIES, MINUTE, TEN).tail().size()).isEqualTo(60);
  }

  /**
   * At live traffic each commit logs a reading or two appended to what the log had: the window as
   * the log had it is handed over with it, reading the same arrays, so that the log records the
   * readings appended and not the window whole.
   */
  @Test
  void shouldLogEachCommitsReadingsAsAppendedToWhatTheLogHad() {
    final InMemoryWindowStore logging = new InMemoryWindowStore(true);
    final WriteBehindWindows live = new WriteBehindWindows(logging, MINUTE, budget);
    live.put(SERIES, MINUTE, TEN, minuteWith(1));
    live.writeChanges();
    for (int reading = 1; reading < 40; reading++) {
      addReading(live, reading);
      live.writeChanges();
    }

    assertThat(logging.changes).hasSize(40);
    assertThat(logging.changes.get(0).before()).isNull();
    for (int i = 1; i < logging.changes.size(); i++) {
      final WindowState before = logging.changes.get(i).before();
      final WindowState after = logging.changes.get(i).after();
      assertThat(before.stats()).isEqualTo(logging.changes.get(i - 1).after().stats());
      assertThat(after.stats().count()).isEqualTo(before.stats().count() + 1);
      assertThat(after.tail().startsWith(before.tail())).isTrue();
    }
  }

  /**
   * A commit hands a window's change over as the readings appended, found from the values the cache
   * holds, exactly when that is the whole change: readings kept and summed in order, and perhaps
   * the close. A reading counted but not kept, a resend's count, or readings moved to new arrays
   * (left to the log's own comparison) go over as the two states.
   */
  @Test
  void shouldHandOverAsReadingsAppendedExactlyTheChangesThatAreReadingsAppended() {
    final InMemoryWindowStore logging = new InMemoryWindowStore(true);
    final WriteBehindWindows live = new WriteBehindWindows(logging, MINUTE, budget);
    final List<WindowState> states = new ArrayList<>();
    WindowState window = WindowState.openWith(new Measurement(TEN, 1.5), 60);
    states.add(window);
    live.put(SERIES, MINUTE, TEN, window);
    live.writeChanges();
    window =
        window
            .withReading(new Measurement(TEN + 1_000, 2.5), 60)
            .withReading(new Measurement(TEN + 2_000, -0.5), 120);
    states.add(window);
    live.put(SERIES, MINUTE, TEN, window);
    live.writeChanges();
    window = window.withSums(new Measurement(TEN + 2_500, 9), 120); // counted, not kept
    states.add(window);
    live.put(SERIES, MINUTE, TEN, window);
    live.writeChanges();
    window = window.withReading(new Measurement(TEN + 3_000, 4), null).close();
    states.add(window);
    live.put(SERIES, MINUTE, TEN, window);
    live.writeChanges();

    final WindowState other = WindowState.openWith(new Measurement(TEN, 1), null);
    WindowState growing = other;
    live.put(OTHER, MINUTE, TEN, other);
    live.writeChanges();
    for (int reading = 1; reading <= 4; reading++) {
      growing = growing.withReading(new Measurement(TEN + reading * 1_000L, reading), null);
    }
    live.put(OTHER, MINUTE, TEN, growing); // the fifth reading: its tail moved to longer arrays
    live.writeChanges();
    live.put(OTHER, MINUTE, TEN, growing.withResend());
    live.writeChanges();

    assertThat(logging.appended)
        .containsExactly(
            new InMemoryWindowStore.AppendedChange(
                List.of(new Measurement(TEN + 1_000, 2.5), new Measurement(TEN + 2_000, -0.5)),
                false,
                120),
            new InMemoryWindowStore.AppendedChange(
                List.of(new Measurement(TEN + 3_000, 4)), true, 120));
    assertThat(logging.changes).hasSize(7);
    for (int i = 0; i < states.size(); i++) {
      // as text: a run of readings has no equals of its own; a double's text is exact
      assertThat(logging.changes.get(i).after()).hasToString(states.get(i).toString());
      if (i > 0) {
        assertThat(logging.changes.get(i).before()).hasToString(states.get(i - 1).toString());
      }
    }
    assertThat(logging.changes.get(0).before()).isNull();
  }

  /**
   * A window that took one change between two commits (a live sensor's) has its next changes logged
   * as they are made, while the commit that follows does not touch it; one that took several (a
   * backlog) is logged once, at the commit. Either way each change is logged once, after what the
   * log had, and queries read the window as the last commit had it.
   */
  @Test
  void shouldLogAsTheyAreMadeTheChangesOfAWindowThatTookOneChangeBetweenTwoCommits() {
    final InMemoryWindowStore logging = new InMemoryWindowStore(true);
    final WriteBehindWindows live = new WriteBehindWindows(logging, MINUTE, budget);
    final WindowReader queried = live.published().over(new InMemoryWindowStore());
    live.put(SERIES, MINUTE, TEN, minuteWith(1));
    assertThat(logging.logged).as("a new window: logged at the commit").isZero();
    live.writeChanges();
    assertThat(logging.logged).isEqualTo(1);

    addReading(live, 1);
    assertThat(logging.logged).as("one change the commit before: logged as made").isEqualTo(2);
    assertThat(queried.get(SERIES, MINUTE, TEN).stats().count()).isEqualTo(1);
    live.writeChanges();
    assertThat(logging.logged).isEqualTo(2);
    assertThat(queried.get(SERIES, MINUTE, TEN).stats().count()).isEqualTo(2);

    addReading(live, 2);
    addReading(live, 3);
    assertThat(logging.logged).as("both logged as made, after what the log had").isEqualTo(4);
    assertThat(queried.get(SERIES, MINUTE, TEN).stats().count()).isEqualTo(2);
    live.writeChanges();
    assertThat(queried.get(SERIES, MINUTE, TEN).stats().count()).isEqualTo(4);

    addReading(live, 4);
    addReading(live, 5);
    assertThat(logging.logged)
        .as("two changes the commit before: logged at the commit")
        .isEqualTo(4);
    live.writeChanges();
    assertThat(logging.logged).isEqualTo(5);
    assertThat(queried.get(SERIES, MINUTE, TEN).stats().count()).isEqualTo(6);

    addReading(live, 6);
    live.writeChanges();
    assertThat(logging.logged).isEqualTo(6);
    addReading(live, 7);
    assertThat(logging.logged).as("one change again: logged as made again").isEqualTo(7);
    live.put(SERIES, MINUTE, TEN, live.get(SERIES, MINUTE, TEN).close());
    assertThat(logging.logged).isEqualTo(8);
    assertThat(logging.puts).as("kept only at the commit").isZero();
    live.writeChanges();

    assertThat(logging.puts).isEqualTo(1);
    assertThat(logging.get(SERIES, MINUTE, TEN).stats().count()).isEqualTo(8);
    assertThat(logging.get(SERIES, MINUTE, TEN).closed()).isTrue();
    assertThat(logging.changes.get(0).before()).isNull();
    for (int i = 1; i < logging.changes.size(); i++) {
      assertThat(logging.changes.get(i).before())
          .hasToString(logging.changes.get(i - 1).after().toString());
    }
    assertThat(logging.changes.get(logging.changes.size() - 1).after().stats().count())
        .isEqualTo(8);
  }

  /**
   * A change logged as it was made and not yet committed is not kept when the task closes: the
   * store keeps the window as the last commit had it, which is what a rolled-back log holds.
   */
  @Test
  void shouldKeepAWindowAsTheLastCommitHadItThoughALaterChangeWasLoggedAsItWasMade() {
    final InMemoryWindowStore logging = new InMemoryWindowStore(true);
    final WriteBehindWindows live = new WriteBehindWindows(logging, MINUTE, budget);
    live.put(SERIES, MINUTE, TEN, minuteWith(1));
    live.writeChanges();
    addReading(live, 1);
    live.writeChanges();
    addReading(live, 2);
    assertThat(logging.logged).isEqualTo(3);

    live.keepAll();

    assertThat(logging.get(SERIES, MINUTE, TEN).stats().count()).isEqualTo(2);
  }

  /** Adds reading number {@code reading} to the minute as the lifecycle does: get, add, put. */
  private static void addReading(final WriteBehindWindows windows, final int reading) {
    final WindowState before = windows.get(SERIES, MINUTE, TEN);
    windows.put(
        SERIES,
        MINUTE,
        TEN,
        before.withReading(new Measurement(TEN + reading * 1_000L, reading), null));
  }

  @Test
  void shouldKeepEveryCachedWindowAsItsLogHasItWhenAskedToKeepAll() {
    final InMemoryWindowStore logging = new InMemoryWindowStore(true);
    final WriteBehindWindows live = new WriteBehindWindows(logging, MINUTE, budget);
    live.put(SERIES, MINUTE, TEN, minuteWith(3));
    live.put(OTHER, MINUTE, TEN, minuteWith(2));
    live.writeChanges();
    live.put(SERIES, MINUTE, TEN, minuteWith(4)); // never logged: the task closes first
    live.put(OTHER, MINUTE, TEN + 60_000, minuteWith(1)); // never logged either

    live.keepAll();

    assertThat(logging.get(SERIES, MINUTE, TEN).stats().count()).isEqualTo(3);
    assertThat(logging.get(OTHER, MINUTE, TEN).stats().count()).isEqualTo(2);
    assertThat(logging.get(OTHER, MINUTE, TEN + 60_000)).isNull();
    assertThat(logging.puts).isEqualTo(2);
  }

  /** The store logs a deletion of what it holds: a logged window is kept first, then deleted. */
  @Test
  void shouldHandAWindowItLoggedToTheStoreBeforeDeletingIt() {
    final InMemoryWindowStore logging = new InMemoryWindowStore(true);
    final WriteBehindWindows live = new WriteBehindWindows(logging, MINUTE, budget);
    live.put(SERIES, MINUTE, TEN, minuteWith(3));
    live.writeChanges();
    live.put(SERIES, MINUTE, TEN + 60_000, minuteWith(1)); // not logged: nothing to delete

    live.deleteBetween(SERIES, MINUTE, Long.MIN_VALUE, TEN + 60_000);

    assertThat(logging.puts).isEqualTo(1);
    assertThat(logging.windowsDeleted).isEqualTo(1);
    assertThat(live.published().over(logging).range(SERIES, MINUTE, 0, Long.MAX_VALUE)).isEmpty();
    assertThat(live.get(SERIES, MINUTE, TEN + 60_000)).isNull();
  }

  @Test
  void shouldWithdrawWhatItPublishedOnDiscard() {
    final InMemoryWindowStore logging = new InMemoryWindowStore(true);
    final WriteBehindWindows live = new WriteBehindWindows(logging, MINUTE, budget);
    live.put(SERIES, MINUTE, TEN, minuteWith(3));
    live.writeChanges();

    live.discard();

    assertThat(live.published().over(logging).get(SERIES, MINUTE, TEN)).isNull();
  }

  /**
   * The lifecycle over the cache emits what it emits over the store alone, whatever the budget and
   * however often changes are written: readings out of order, late ones, several series, windows
   * sealing runs, quiet series closed by the wall clock.
   */
  @Test
  void shouldLeaveTheLifecycleEmittingTheSameBucketsAsTheStoreAlone() {
    final WindowLifecycle.Settings settings =
        new WindowLifecycle.Settings(
            List.of(MINUTE, HOUR),
            Duration.ofSeconds(10),
            Duration.ofSeconds(30),
            Duration.ofMinutes(20),
            BucketLayout.finestKeepsMeasurements(1000));
    for (final long budgetBytes : new long[] {0, 4_000, 1L << 30}) {
      final List<ClosedBucket> plain = new ArrayList<>();
      final List<ClosedBucket> cached = new ArrayList<>();
      final WriteBehindWindows front =
          new WriteBehindWindows(
              new InMemoryWindowStore(), MINUTE, new WindowCacheBudget(budgetBytes));
      final WindowLifecycle overStore =
          new WindowLifecycle(settings, new InMemoryWindowStore(), delta -> {});
      final WindowLifecycle overCache = new WindowLifecycle(settings, front, delta -> {});
      final SplittableRandom random = new SplittableRandom(budgetBytes);
      long wallClock = TEN;
      for (int i = 0; i < 20_000; i++) {
        final SeriesKey series = new SeriesKey("s" + random.nextInt(5), "temperature");
        // 120 readings a minute per series: windows seal runs off their tails
        final long timestamp =
            TEN + i * 100L - (random.nextInt(10) == 0 ? random.nextInt(900_000) : 0);
        final Measurement measurement = new Measurement(timestamp, random.nextInt(1_000) / 10.0);
        wallClock += 100;
        overStore.accept(series, measurement, null, wallClock, plain::add);
        overCache.accept(series, measurement, null, wallClock, cached::add);
        if (random.nextInt(50) == 0) {
          front.writeChanges();
        }
        if (random.nextInt(500) == 0) {
          final long quietLater = wallClock + random.nextInt(120_000);
          overStore.closeIdleSeries(quietLater, plain::add);
          overCache.closeIdleSeries(quietLater, cached::add);
        }
      }
      assertThat(cached).as("budget %d", budgetBytes).hasSameSizeAs(plain);
      assertThat(cached).as("budget %d", budgetBytes).isEqualTo(plain);
    }
  }
}
