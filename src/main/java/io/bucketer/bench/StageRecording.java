package io.bucketer.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingFile;

/**
 * A JFR recording of this JVM's stacks over one phase, read back as samples per {@link
 * StageClassifier.Stage}, with the CPU time of the threads the samples stand for.
 *
 * <p>{@code jdk.ExecutionSample} samples threads running Java code every {@value
 * #EXECUTION_PERIOD_MILLIS} ms: each counts 1. It never sees a thread in native code, so {@code
 * jdk.NativeMethodSample}, every {@value #NATIVE_PERIOD_MILLIS} ms, is read only for RocksDB's JNI
 * calls: a native sample whose top frame is in {@code org.rocksdb} counts for the state store,
 * weighted by the ratio of the periods. The other native samples are threads waiting in epoll or on
 * a socket, which is not CPU, and are ignored. JFR's native sampler takes one thread per period, so
 * RocksDB's weight is a lower bound.
 *
 * <p>The samples give shares, not times: what the sampled threads used is measured apart, as the
 * CPU time of every Java thread ({@code ThreadMXBean}); with it, the GC's threads' and JFR's own
 * threads' ({@link NamedThreadsCpu}), which no sample sees.
 */
final class StageRecording implements AutoCloseable {

  static final long EXECUTION_PERIOD_MILLIS = 10;
  static final long NATIVE_PERIOD_MILLIS = 20;
  private static final String ROCKSDB = "org.rocksdb";

  private static final Predicate<String> GC_THREAD =
      name -> name.startsWith("GC Thread") || name.startsWith("G1 ");
  private static final Predicate<String> JFR_THREAD = name -> name.startsWith("JFR ");

  /**
   * What the recording saw: samples per stage (weighted), and the CPU time over the phase of the
   * Java threads they were taken from, of the GC's threads and of JFR's own.
   */
  record Sampled(
      Map<StageClassifier.Stage, Double> samples,
      Duration javaThreads,
      Duration gc,
      Duration recorder) {

    Sampled {
      samples = Map.copyOf(samples);
    }

    double total() {
      return samples.values().stream().mapToDouble(Double::doubleValue).sum();
    }
  }

  private final Recording recording;
  private final Instant begin;
  private final Map<Long, Long> javaThreadsAtBegin;
  private final long gcAtBegin;
  private final long recorderAtBegin;

  private StageRecording(final Recording recording) {
    this.recording = recording;
    this.javaThreadsAtBegin = javaThreadsCpu();
    this.gcAtBegin = NamedThreadsCpu.nanos(GC_THREAD).orElse(0);
    this.recorderAtBegin = NamedThreadsCpu.nanos(JFR_THREAD).orElse(0);
    this.begin = Instant.now();
  }

  /** Starts recording; the phase begins when this returns (JFR's start-up is before it). */
  static StageRecording start() {
    final Recording recording = new Recording();
    recording.setName("bucketer-bench-stages");
    recording.enable("jdk.ExecutionSample").withPeriod(Duration.ofMillis(EXECUTION_PERIOD_MILLIS));
    recording.enable("jdk.NativeMethodSample").withPeriod(Duration.ofMillis(NATIVE_PERIOD_MILLIS));
    recording.start();
    return new StageRecording(recording);
  }

  /** Ends the phase, then stops recording and reads the samples taken within the phase. */
  Sampled stop() {
    final Instant end = Instant.now();
    final Map<Long, Long> javaThreadsAtEnd = javaThreadsCpu();
    final long gc = NamedThreadsCpu.nanos(GC_THREAD).orElse(0) - gcAtBegin;
    final long recorder = NamedThreadsCpu.nanos(JFR_THREAD).orElse(0) - recorderAtBegin;
    long javaThreads = 0;
    for (final Map.Entry<Long, Long> thread : javaThreadsAtEnd.entrySet()) {
      // a thread started during the phase counts from 0; one that ended during it is lost
      javaThreads += thread.getValue() - javaThreadsAtBegin.getOrDefault(thread.getKey(), 0L);
    }
    try {
      recording.stop();
      final Path file = Files.createTempFile("bucketer-bench-stages-", ".jfr");
      try {
        recording.dump(file);
        return new Sampled(
            samples(file, begin, end, true),
            Duration.ofNanos(javaThreads),
            Duration.ofNanos(gc),
            Duration.ofNanos(recorder));
      } finally {
        Files.deleteIfExists(file);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Stops recording, if it has not been stopped yet, and drops what it holds. */
  @Override
  public void close() {
    recording.close();
  }

  /**
   * The samples of a recording file taken between {@code begin} and {@code end}, weighted and
   * classified as described above: this JVM's, or another's recorded with the same periods.
   */
  static Map<StageClassifier.Stage, Double> samples(
      final Path file, final Instant begin, final Instant end, final boolean harnessInThisJvm)
      throws IOException {
    final Map<StageClassifier.Stage, Double> samples = new EnumMap<>(StageClassifier.Stage.class);
    final double nativeWeight = NATIVE_PERIOD_MILLIS / (double) EXECUTION_PERIOD_MILLIS;
    try (RecordingFile events = new RecordingFile(file)) {
      while (events.hasMoreEvents()) {
        final RecordedEvent event = events.readEvent();
        final String type = event.getEventType().getName();
        final boolean execution = type.equals("jdk.ExecutionSample");
        if ((!execution && !type.equals("jdk.NativeMethodSample"))
            || event.getStartTime().isBefore(begin)
            || event.getStartTime().isAfter(end)
            || event.getStackTrace() == null) {
          continue;
        }
        final List<String> frames = frames(event.getStackTrace());
        if (!execution && (frames.isEmpty() || !StageClassifier.matches(frames.get(0), ROCKSDB))) {
          continue;
        }
        samples.merge(
            StageClassifier.classify(threadName(event), frames, harnessInThisJvm),
            execution ? 1 : nativeWeight,
            Double::sum);
      }
    }
    return samples;
  }

  private static List<String> frames(final RecordedStackTrace stack) {
    return stack.getFrames().stream()
        .map(RecordedFrame::getMethod)
        .map(method -> method.getType().getName() + "." + method.getName())
        .toList();
  }

  private static String threadName(final RecordedEvent event) {
    final RecordedThread thread = event.getThread("sampledThread");
    if (thread == null) {
      return "";
    }
    return thread.getJavaName() != null ? thread.getJavaName() : thread.getOSName();
  }

  /** CPU time of every live Java thread, by id. */
  private static Map<Long, Long> javaThreadsCpu() {
    final com.sun.management.ThreadMXBean threads =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    final long[] ids = threads.getAllThreadIds();
    final long[] cpu = threads.getThreadCpuTime(ids);
    final Map<Long, Long> byId = new HashMap<>();
    for (int i = 0; i < ids.length; i++) {
      if (cpu[i] >= 0) {
        byId.put(ids[i], cpu[i]);
      }
    }
    return byId;
  }
}
