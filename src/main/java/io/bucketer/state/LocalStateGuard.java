package io.bucketer.state;

import static java.util.concurrent.TimeUnit.SECONDS;

import com.fasterxml.jackson.core.JacksonException;
import io.bucketer.state.StateOwnership.Wipe;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.streams.KafkaStreams;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps Kafka Streams from resuming on local state that belongs to another Kafka cluster or to
 * other topics.
 *
 * <p>Kafka Streams trusts its state directory: a task reopens its RocksDB stores and reads its
 * changelog from the offset in its checkpoint file. It notices foreign state only by accident, when
 * the changelog ends before the checkpointed offset (the task is "corrupted" and wiped). When the
 * changelog of a new cluster is still empty, or already longer than the checkpoint, the old stores
 * are kept, and every reading they hold is counted again with the new cluster's (issue 11: a
 * cluster replaced under the same {@code application.id}, one task kept its RocksDB, and three
 * series were counted twice).
 *
 * <p>So the application's state directory ({@code <state.dir>/<application.id>}) holds a marker,
 * {@value #MARKER_FILE}: the Kafka cluster id and the ids of the topics the state derives from, the
 * input topic and the application's internal topics ({@code <application.id>-...-changelog} and
 * {@code -repartition}). Before Kafka Streams starts, {@link #wipeIfForeign} compares it with the
 * cluster ({@link StateOwnership}); state whose marker names another cluster, another input topic,
 * or a topic that is gone or has another id, is wiped ({@link KafkaStreams#cleanUp()}) and Kafka
 * Streams restores it from this cluster's changelogs. The marker is written once Kafka Streams is
 * {@code RUNNING} ({@link #recordOwnerWhenRunning}): only then do the internal topics exist, and
 * only then is the state this cluster's.
 *
 * <p>State without a marker is wiped too. An upgrade from a version without markers then costs one
 * restore from the changelogs, which exist in that case; in return, state nobody vouched for is
 * never trusted: that of a start that ended between a wipe and its first {@code RUNNING}, or state
 * copied in from elsewhere.
 *
 * <p>The marker's layout carries a format version ({@link StateOwnerMarker}).
 *
 * <p>Internal topics are recognised by name. A topic of another application whose id begins with
 * this one's and a dash ({@code bucketer-eu} beside {@code bucketer}) is recorded too; if it is
 * recreated, this state is wiped needlessly, which costs a restore and nothing else.
 */
public final class LocalStateGuard {

  /** The marker's name in the application's state directory. */
  public static final String MARKER_FILE = "bucketer-state-owner.json";

  private static final Logger LOG = LoggerFactory.getLogger(LocalStateGuard.class);
  private static final long ADMIN_TIMEOUT_SECONDS = 30;

  private final Path applicationStateDir;
  private final String applicationId;
  private final String inputTopic;
  private final Map<String, Object> adminProperties;
  private final AtomicBoolean recording = new AtomicBoolean();

  /**
   * @param stateDir Kafka Streams' {@code state.dir}
   * @param applicationId the application id, whose state is {@code stateDir/applicationId}
   * @param inputTopic the topic the state derives from, besides the internal ones
   * @param adminProperties properties of the admin client that asks the cluster
   */
  public LocalStateGuard(
      final Path stateDir,
      final String applicationId,
      final String inputTopic,
      final Map<String, Object> adminProperties) {
    this.applicationStateDir = stateDir.resolve(applicationId);
    this.applicationId = applicationId;
    this.inputTopic = inputTopic;
    this.adminProperties = Map.copyOf(adminProperties);
  }

  /** Where the marker is: the application's state directory. */
  public Path markerFile() {
    return applicationStateDir.resolve(MARKER_FILE);
  }

  /**
   * Before {@code streams} starts: wipes its local state if that belongs to another cluster or
   * other topics, and says why in one WARN line. Empty when the state was kept (or there was none).
   *
   * @throws IllegalStateException when the cluster does not answer: the processor cannot start
   */
  public Optional<Wipe> wipeIfForeign(final KafkaStreams streams) {
    final Optional<Wipe> wipe = check();
    wipe.ifPresent(
        w -> {
          LOG.warn(
              "wiping the local state in {} ({}): {}; Kafka Streams restores it from this"
                  + " cluster's changelogs",
              applicationStateDir,
              w.cause(),
              w.reason());
          streams.cleanUp();
          forgetOwner();
        });
    return wipe;
  }

  /**
   * Whether the local state must be wiped, and why: empty when it may be kept. Asks the cluster
   * only when there is state and a marker to compare.
   */
  public Optional<Wipe> check() {
    final boolean hasLocalState = hasLocalState();
    final Optional<StateOwner> recorded = hasLocalState ? readOwner() : Optional.empty();
    if (recorded.isEmpty()) {
      return StateOwnership.judge(recorded, hasLocalState, "", inputTopic, Map.of());
    }
    final Set<String> wanted = new HashSet<>(recorded.get().topicIds().keySet());
    wanted.add(inputTopic);
    try (Admin admin = Admin.create(adminProperties)) {
      final String clusterId = clusterId(admin);
      final Set<String> existing = admin.listTopics().names().get(ADMIN_TIMEOUT_SECONDS, SECONDS);
      wanted.retainAll(existing);
      return StateOwnership.judge(
          recorded, true, clusterId, inputTopic, topicIds(admin, wanted.stream()));
    } catch (ExecutionException | TimeoutException e) {
      throw new IllegalStateException("cannot compare the local state with the cluster: " + e, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while checking the local state", e);
    }
  }

  /**
   * A state listener that records the cluster and topics as the owner of the local state the first
   * time Kafka Streams is {@code RUNNING}, on a thread of its own so the stream thread that reports
   * the change does not wait for the cluster. A failed attempt is logged in one line and tried
   * again at the next {@code RUNNING}.
   *
   * @param describeFailure the line that says why the cluster could not be read (unreachable, a
   *     login refused, ...): no stack trace, since the application reports a refusal itself and
   *     ends, and a trace here would repeat it with the exception's class names
   */
  public KafkaStreams.StateListener recordOwnerWhenRunning(
      final Function<Throwable, String> describeFailure) {
    return (now, before) -> {
      if (now == KafkaStreams.State.RUNNING && recording.compareAndSet(false, true)) {
        final Thread thread =
            new Thread(() -> recordOwnerOrRetryLater(describeFailure), "bucketer-state-owner");
        thread.setDaemon(true);
        thread.start();
      }
    };
  }

  private void recordOwnerOrRetryLater(final Function<Throwable, String> describeFailure) {
    try {
      final StateOwner owner = recordOwner();
      LOG.info(
          "recorded the owner of the local state: cluster {}, topics {}",
          owner.clusterId(),
          owner.topicIds().keySet());
    } catch (RuntimeException e) {
      LOG.warn(
          "could not record the owner of the local state; will try again: {}",
          describeFailure.apply(e));
      recording.set(false);
    }
  }

  /**
   * Writes the marker: this cluster, and the ids of the input topic and the application's internal
   * topics as they are now. Replaces the file atomically, so a crash leaves the old marker or the
   * new one.
   */
  public StateOwner recordOwner() {
    try (Admin admin = Admin.create(adminProperties)) {
      final String clusterId = clusterId(admin);
      final Stream<String> topics =
          admin.listTopics().names().get(ADMIN_TIMEOUT_SECONDS, SECONDS).stream()
              .filter(name -> name.equals(inputTopic) || isInternal(name));
      final StateOwner owner = new StateOwner(clusterId, topicIds(admin, topics));
      write(owner);
      return owner;
    } catch (ExecutionException | TimeoutException e) {
      throw new IllegalStateException("cannot read the cluster's topics: " + e, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while recording the state's owner", e);
    }
  }

  /** Deletes the marker: the state it vouched for is gone. */
  public void forgetOwner() {
    try {
      Files.deleteIfExists(markerFile());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot delete " + markerFile(), e);
    }
  }

  /** The recorded owner; empty when there is no marker or it cannot be read. */
  public Optional<StateOwner> readOwner() {
    if (!Files.exists(markerFile())) {
      return Optional.empty();
    }
    try {
      return Optional.of(StateOwnerMarker.read(Files.readAllBytes(markerFile())));
    } catch (JacksonException e) {
      LOG.warn(
          "the marker {} cannot be read; treating it as missing: {}",
          markerFile(),
          e.getOriginalMessage());
      return Optional.empty();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + markerFile(), e);
    }
  }

  /** Kafka Streams keeps each task's stores in a directory of its own: any directory is state. */
  boolean hasLocalState() {
    if (!Files.isDirectory(applicationStateDir)) {
      return false;
    }
    try (Stream<Path> entries = Files.list(applicationStateDir)) {
      return entries.anyMatch(Files::isDirectory);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list " + applicationStateDir, e);
    }
  }

  private void write(final StateOwner owner) {
    try {
      Files.createDirectories(applicationStateDir);
      final Path temporary = applicationStateDir.resolve(MARKER_FILE + ".tmp");
      Files.write(temporary, StateOwnerMarker.write(owner));
      Files.move(
          temporary,
          markerFile(),
          StandardCopyOption.REPLACE_EXISTING,
          StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + markerFile(), e);
    }
  }

  // Kafka Streams names its internal topics <application.id>-<name>-changelog or -repartition.
  private boolean isInternal(final String topic) {
    return topic.startsWith(applicationId + "-")
        && (topic.endsWith("-changelog") || topic.endsWith("-repartition"));
  }

  private static String clusterId(final Admin admin)
      throws InterruptedException, ExecutionException, TimeoutException {
    return admin.describeCluster().clusterId().get(ADMIN_TIMEOUT_SECONDS, SECONDS);
  }

  private static Map<String, String> topicIds(final Admin admin, final Stream<String> names)
      throws InterruptedException, ExecutionException, TimeoutException {
    final Set<String> topics = names.collect(Collectors.toSet());
    if (topics.isEmpty()) {
      return Map.of();
    }
    final Map<String, TopicDescription> descriptions =
        admin.describeTopics(topics).allTopicNames().get(ADMIN_TIMEOUT_SECONDS, SECONDS);
    final Map<String, String> ids = new TreeMap<>();
    descriptions.forEach((name, description) -> ids.put(name, description.topicId().toString()));
    return ids;
  }
}
