package io.bucketer.testing;

import java.util.ArrayList;
import java.util.List;

/**
 * What happened when in a test, in seconds since it began: printed at the end, it shows how long
 * kills, restarts and takeovers took, which the assertions do not.
 */
public final class Timeline {

  private final long began = System.nanoTime();
  private final List<String> events = new ArrayList<>();

  public synchronized void mark(final String event) {
    events.add(String.format("%.1fs %s", (System.nanoTime() - began) / 1e9, event));
  }

  @Override
  public synchronized String toString() {
    return String.join("; ", events);
  }
}
