package io.bucketer.bench;

import io.bucketer.embedded.MongoOperationCounter.Counts;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.LongConsumer;
import org.apache.kafka.common.utils.Utils;

/**
 * MongoDB's Kafka sink connector on the same readings: one document per reading. Its JVM starts
 * cold, so the clock runs from the moment a quarter of the documents are written to the moment all
 * are: its rate after its own JIT warm-up, as bucketer's is measured after a warm-up round.
 */
final class ConnectorRun {

  /** The fraction of the readings the connector writes before the clock starts. */
  static final double WARMUP_SHARE = 0.25;

  private ConnectorRun() {}

  static BenchResults.Rate run(
      final SinkConnectorSettings settings,
      final StandInOperations operations,
      final PhaseClock rowClock,
      final long readings,
      final Duration timeout,
      final LongConsumer progress)
      throws Exception {
    final Path work = Files.createTempDirectory("bucketer-bench-connector-");
    final long writtenBefore = operations.counts().writeStatements();
    final Deadline deadline = new Deadline(timeout);
    try (SinkConnectorProcess connector =
        new SinkConnectorProcess(ConnectorClasspath.locate(), settings, work).start()) {
      final long warm = (long) (readings * WARMUP_SHARE);
      awaitWritten(connector, operations, writtenBefore + warm, deadline, progress);
      final PhaseClock clock = rowClock.alsoCounting(connector.processHandle()).start();
      final Counts start = operations.counts();
      awaitWritten(connector, operations, writtenBefore + readings, deadline, progress);
      final PhaseClock.Measured time = clock.stop();
      final Counts measured = operations.counts().minus(start);
      return new BenchResults.Rate(measured.writeStatements(), time, measured, null);
    } finally {
      Utils.delete(work.toFile());
    }
  }

  private static void awaitWritten(
      final SinkConnectorProcess connector,
      final StandInOperations operations,
      final long target,
      final Deadline deadline,
      final LongConsumer progress)
      throws InterruptedException {
    long lastReport = System.nanoTime();
    while (operations.counts().writeStatements() < target) {
      deadline.check("the sink connector to write documents; its log: " + connector.logFile());
      if (!connector.isAlive()) {
        throw new IllegalStateException(connector + " stopped");
      }
      TimeUnit.MILLISECONDS.sleep(StandInOperations.POLL_MILLIS);
      if (System.nanoTime() - lastReport > TimeUnit.SECONDS.toNanos(2)) {
        lastReport = System.nanoTime();
        progress.accept(operations.counts().writeStatements());
      }
    }
  }
}
