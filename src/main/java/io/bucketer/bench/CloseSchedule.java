package io.bucketer.bench;

import java.time.Duration;
import java.time.Instant;

/**
 * When the windows of a processor fed in real time close, and so when to look at its meters between
 * two closes. With every series reporting steadily, event time follows the wall clock and every
 * window of the finest granularity closes at once, when event time passes its end plus the grace:
 * {@code :10} past each minute for one-minute windows and the default grace of 10 s. Half a window
 * after a close ({@code :40}), that close's buckets are in MongoDB and the next close is half a
 * window away: a scrape then separates one close's buckets from the next's.
 */
record CloseSchedule(Duration window, Duration grace) {

  CloseSchedule {
    if (window.isNegative() || window.isZero() || grace.isNegative()) {
      throw new IllegalArgumentException("a window must be positive and a grace not negative");
    }
  }

  /** Where in each window the scrapes fall, from the window's start. */
  Duration scrapeOffset() {
    return Duration.ofMillis((grace.toMillis() + window.toMillis() / 2) % window.toMillis());
  }

  /** The first scrape point at or after {@code instant}. */
  Instant firstScrapeAtOrAfter(final Instant instant) {
    final long windowMillis = window.toMillis();
    final long millis = instant.toEpochMilli();
    final long windowStart = Math.floorDiv(millis, windowMillis) * windowMillis;
    long scrape = windowStart + scrapeOffset().toMillis();
    if (scrape < millis) {
      scrape += windowMillis;
    }
    return Instant.ofEpochMilli(scrape);
  }
}
