package io.bucketer.resink;

import static io.bucketer.buckets.TestBuckets.HOUR;
import static io.bucketer.buckets.TestBuckets.MINUTE;
import static io.bucketer.buckets.TestBuckets.START;
import static io.bucketer.buckets.TestBuckets.bucket;
import static io.bucketer.buckets.TestBuckets.minute;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.backend.memory.MemoryBackend;
import io.bucketer.buckets.ClosedBucket;
import io.bucketer.buckets.Retention;
import io.bucketer.sink.MongoBucketWriter;
import io.bucketer.sink.MongoConnection;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The resink's MongoDB target on the stand-in: rejections set aside one by one, and retries. */
class MongoTargetTest {

  private static final Duration TIMEOUT = Duration.ofSeconds(5);

  private final List<String> lines = new ArrayList<>();
  private MongoServer server;

  @AfterEach
  void stop() {
    if (server != null) {
      server.shutdownNow();
    }
  }

  private MongoTarget target(final String uri, final Duration giveUpAfter) {
    return new MongoTarget(
        MongoBucketWriter.connect(
            MongoConnection.of(uri),
            "rebuilt",
            "buckets_",
            List.of(MINUTE, HOUR),
            Retention.NONE,
            10,
            2,
            Duration.ofMillis(500)),
        Duration.ofMillis(500),
        Duration.ofMillis(400),
        giveUpAfter,
        lines::add);
  }

  @Test
  void shouldSetAsideOnlyTheBucketMongoDbRejectsAndWriteTheOthers() {
    server = new MongoServer(new MemoryBackend());
    final InetSocketAddress address = server.bind();
    // 400,000 measurements encode to about 18 MB, over MongoDB's 16 MB limit: the driver fails the
    // whole bulk write without naming the document (having sent those before it, which then count
    // as unchanged when each is tried alone).
    final ClosedBucket huge = bucket("sensor-1", null, MINUTE, START, null, new double[400_000]);
    final ClosedBucket fine = minute("sensor-2", START);
    final ClosedBucket alsoFine = minute("sensor-3", START);

    try (MongoTarget target =
        target("mongodb://" + address.getHostString() + ":" + address.getPort(), TIMEOUT)) {
      target.prepare();
      final ResinkTarget.Written first = target.write(List.of(fine, huge, alsoFine));
      final ResinkTarget.Written again = target.write(List.of(fine, alsoFine));

      assertThat(first.rejected()).containsExactly(huge);
      // Both are stored: written again, they change nothing.
      assertThat(again.unchanged()).containsExactly(fine, alsoFine);
      assertThat(again.rejected()).isEmpty();
    }
  }

  @Test
  void shouldStopWhenMongoDbDoesNotAnswerForTooLong() throws Exception {
    final int closedPort;
    try (ServerSocket socket = new ServerSocket(0)) {
      closedPort = socket.getLocalPort();
    }
    try (MongoTarget target =
        target(
            "mongodb://127.0.0.1:" + closedPort + "/?serverSelectionTimeoutMS=200",
            Duration.ofSeconds(2))) {
      assertThatThrownBy(() -> target.write(List.of(minute("sensor-1", START))))
          .isInstanceOf(ResinkException.class)
          .hasMessageStartingWith(
              "cannot write 1 buckets: MongoDB did not acknowledge for too long");
    }
    assertThat(lines)
        .isNotEmpty()
        .allMatch(line -> line.startsWith("MongoDB did not acknowledge, retrying: "));
  }
}
