package io.bucketer.testing;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** A UTC clock the test moves. */
public final class MutableClock extends Clock {
  private Instant now;

  public MutableClock(final Instant start) {
    this.now = start;
  }

  public void advance(final Duration duration) {
    now = now.plus(duration);
  }

  @Override
  public Instant instant() {
    return now;
  }

  @Override
  public ZoneOffset getZone() {
    return ZoneOffset.UTC;
  }

  @Override
  public Clock withZone(final ZoneId zone) {
    return this;
  }
}
