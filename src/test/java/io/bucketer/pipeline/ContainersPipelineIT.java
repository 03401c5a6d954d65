package io.bucketer.pipeline;

import io.bucketer.embedded.InProcessSchemaRegistry;
import io.bucketer.testing.Endpoints;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;
import org.testcontainers.kafka.KafkaContainer;
import org.testcontainers.mongodb.MongoDBContainer;

/**
 * The same pipeline against real Kafka and MongoDB images, wherever Docker runs. Without Docker the
 * class is reported as skipped ("Docker is not available"), never silently passed. The registry is
 * the in-process endpoint: the wire format and REST calls are what is under test.
 */
@Testcontainers(disabledWithoutDocker = true)
// A hung run fails here, after five minutes, instead of holding CI until its limit.
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class ContainersPipelineIT extends PipelineContract {

  @Container static final KafkaContainer KAFKA = new KafkaContainer("apache/kafka:4.1.0");

  @Container static final MongoDBContainer MONGO = new MongoDBContainer("mongo:8.0");

  private static InProcessSchemaRegistry registry;

  @BeforeAll
  static void startRegistry() {
    registry = InProcessSchemaRegistry.start();
  }

  @AfterAll
  static void stopRegistry() {
    registry.close();
  }

  @Override
  Endpoints endpoints() {
    return new Endpoints(KAFKA.getBootstrapServers(), registry.url(), MONGO.getConnectionString());
  }
}
