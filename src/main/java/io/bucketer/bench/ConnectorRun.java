package io.bucketer.bench;

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
      final MongoOperationCounter operations,
      final long readings,
      final Duration timeout,
      final LongConsumer progress)
      throws Exception {
    final Path work = Files.createTempDirectory("bucketer-bench-connector-");
    final long insertedBefore = operations.counts().insertedDocuments();
    final Deadline deadline = new Deadline(timeout);
    try (SinkConnectorProcess connector =
        new SinkConnectorProcess(ConnectorClasspath.locate(), settings, work).start()) {
      final long warm = (long) (readings * WARMUP_SHARE);
      awaitInserted(connector, operations, insertedBefore + warm, deadline, progress);
      final PhaseClock clock = PhaseClock.withChild(connector.processHandle()).start();
      final MongoOperationCounter.Counts start = operations.counts();
      awaitInserted(connector, operations, insertedBefore + readings, deadline, progress);
      final PhaseClock.Measured time = clock.stop();
      final MongoOperationCounter.Counts work = operations.counts().minus(start);
      return new BenchResults.Rate(work.insertedDocuments(), time, work);
    } finally {
      Utils.delete(work.toFile());
    }
  }

  private static void awaitInserted(
      final SinkConnectorProcess connector,
      final MongoOperationCounter operations,
      final long target,
      final Deadline deadline,
      final LongConsumer progress)
      throws InterruptedException {
    long lastReport = System.nanoTime();
    while (operations.counts().insertedDocuments() < target) {
      deadline.check("the sink connector to insert documents; its log: " + connector.logFile());
      if (!connector.isAlive()) {
        throw new IllegalStateException(connector + " stopped");
      }
      TimeUnit.MILLISECONDS.sleep(2);
      if (System.nanoTime() - lastReport > TimeUnit.SECONDS.toNanos(2)) {
        lastReport = System.nanoTime();
        progress.accept(operations.counts().insertedDocuments());
      }
    }
  }
}
