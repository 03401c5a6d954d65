package io.bucketer.resilience;

import io.bucketer.config.KafkaSettings;
import io.bucketer.config.WindowSettings;
import java.util.HashMap;
import java.util.Map;

/** The broker and processor settings of the resilience tests, and why. */
final class ResilienceSettings {

  private static final int SESSION_TIMEOUT_MS = 3_000;

  private ResilienceSettings() {}

  /**
   * The broker accepts session timeouts down to 1 s (its default minimum is 6 s), so that the
   * processors can use a short one.
   */
  static Map<String, String> broker() {
    return Map.of("group.min.session.timeout.ms", "1000");
  }

  /**
   * The processors' settings, plus {@code more}:
   *
   * <ul>
   *   <li>{@code idle.timeout=2s}, short on purpose: the wall-clock idle close cannot tell a quiet
   *       sensor from one whose readings are held up upstream, waiting for a takeover or lagging in
   *       a catch-up, so it closes such windows early. The held-up readings then arrive late and
   *       must be merged into the closed windows (written again with a higher revision), not
   *       dead-lettered: before late merging existed, 2 s made the failover dead-letter 6,194 of
   *       24,000 readings. Once the stream ends, it also closes the last windows.
   *   <li>{@code session.timeout.ms=3000}, {@code heartbeat.interval.ms=1000}: Kafka Streams 4.3
   *       joins with {@code group.protocol=classic} by default, so its consumer's session timeout
   *       decides how long the group waits before it gives a dead member's tasks to another member,
   *       or lets a restarted dynamic member in. The default 45 s would make every takeover and
   *       such restart wait that long. Heartbeats at a third of it, as Kafka advises. The sink's
   *       consumer gets the same settings (every {@code kafka.*} setting reaches all clients). With
   *       {@code group.protocol=streams} the broker's {@code group.streams.session.timeout.ms}
   *       would decide instead.
   * </ul>
   */
  static Map<String, String> processor(final Map<String, String> more) {
    final Map<String, String> settings = new HashMap<>(asDeployed(Map.of()));
    settings.put(
        KafkaSettings.CLIENT_PREFIX + "session.timeout.ms", String.valueOf(SESSION_TIMEOUT_MS));
    settings.put(
        KafkaSettings.CLIENT_PREFIX + "heartbeat.interval.ms",
        String.valueOf(SESSION_TIMEOUT_MS / 3));
    settings.putAll(more);
    return settings;
  }

  /**
   * {@code idle.timeout=2s} (see {@link #processor}) plus {@code more}, with Kafka's session
   * timeout, 45 s, as the deploy manifests keep it: for tests of how long a restart takes as
   * deployed, where the instance comes back as the same static member ({@code instance.id}) and
   * waits for no session.
   */
  static Map<String, String> asDeployed(final Map<String, String> more) {
    final Map<String, String> settings = new HashMap<>();
    settings.put(WindowSettings.IDLE_TIMEOUT, "2s");
    settings.putAll(more);
    return settings;
  }
}
