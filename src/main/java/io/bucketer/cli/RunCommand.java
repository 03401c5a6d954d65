package io.bucketer.cli;

import io.bucketer.app.BucketerApp;
import io.bucketer.config.BucketerConfig;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code bucketer run}: the processor, against a real cluster, registry and MongoDB. */
@Command(
    name = "run",
    mixinStandardHelpOptions = true,
    description = {
      "Runs the processor: readings from Kafka into bucket documents in MongoDB.",
      "Required settings: bootstrap.servers, schema.registry.url, mongodb.uri."
    })
final class RunCommand implements Callable<Integer> {

  @Mixin ConfigOptions configOptions;

  @Override
  public Integer call() throws InterruptedException {
    final BucketerConfig config = configOptions.load();
    final CountDownLatch stopped = new CountDownLatch(1);
    final BucketerApp app = BucketerApp.start(config, new SimpleMeterRegistry());
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  app.close();
                  stopped.countDown();
                },
                "bucketer-shutdown"));
    stopped.await();
    return 0;
  }
}
