package io.bucketer.pipeline;

import io.bucketer.testing.Endpoints;
import io.bucketer.testing.LocalInfrastructure;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** The pipeline against a real Kafka broker in this JVM and the in-JVM MongoDB stand-in. */
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
