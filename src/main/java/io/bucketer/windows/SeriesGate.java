package io.bucketer.windows;

import io.bucketer.buckets.SeriesKey;

/**
 * Decides whether a series that holds no state may start to: the lifecycle asks before a series'
 * first window opens, and says when a series stops holding state. It bounds the state that a source
 * of ever-new series ids can make (the tenants' series limits). The series it admits are exactly
 * those the lifecycle holds, so what it counts comes back the same from the state after a restart.
 */
public interface SeriesGate {

  /** Admits every series. */
  SeriesGate OPEN =
      new SeriesGate() {
        @Override
        public boolean admit(final SeriesKey series, final long wallClock) {
          return true;
        }

        @Override
        public void restored(final SeriesKey series) {}

        @Override
        public void released(final SeriesKey series) {}

        @Override
        public void clear() {}
      };

  /**
   * Whether {@code series}, which holds no state, may start to at {@code wallClock}. Once admitted
   * it counts as held until {@link #released}.
   */
  boolean admit(SeriesKey series, long wallClock);

  /** {@code series} holds state from before: read from the store, it counts without a check. */
  void restored(SeriesKey series);

  /** {@code series} holds no state any more. */
  void released(SeriesKey series);

  /** Forgets every series: the state is about to be read again. */
  void clear();
}
