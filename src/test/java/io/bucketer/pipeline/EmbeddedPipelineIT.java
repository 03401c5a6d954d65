package io.bucketer.pipeline;

import io.bucketer.testing.Endpoints;
import io.bucketer.testing.LocalInfrastructure;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;

/** The pipeline against a real Kafka broker in this JVM and the in-JVM MongoDB stand-in. */
// A hung run fails here, after five minutes, instead of holding CI until its limit.
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class EmbeddedPipelineIT extends PipelineContract {

  private static LocalInfrastructure infrastructure;

  @BeforeAll
  static void startInfrastructure() {
    infrastructure = LocalInfrastructure.start();
  }

  @AfterAll
  static void stopInfrastructure() {
    infrastructure.close();
  }

  @Override
  Endpoints endpoints() {
    return infrastructure.endpoints();
  }
}
