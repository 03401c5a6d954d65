package io.bucketer.pipeline;

import io.bucketer.embedded.EmbeddedKafkaBroker;
import io.bucketer.embedded.EmbeddedMongoServer;
import io.bucketer.embedded.InProcessSchemaRegistry;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** The pipeline against a real Kafka broker in this JVM and the in-JVM MongoDB stand-in. */
class EmbeddedPipelineIT extends PipelineContract {

  private static EmbeddedKafkaBroker broker;
  private static EmbeddedMongoServer mongo;
  private static InProcessSchemaRegistry registry;

  @BeforeAll
  static void startInfrastructure() {
    broker = EmbeddedKafkaBroker.start();
    mongo = EmbeddedMongoServer.start();
    registry = InProcessSchemaRegistry.start();
  }

  @AfterAll
  static void stopInfrastructure() {
    registry.close();
    mongo.close();
    broker.close();
  }

  @Override
  String bootstrapServers() {
    return broker.bootstrapServers();
  }

  @Override
  String schemaRegistryUrl() {
    return registry.url();
  }

  @Override
  String mongoUri() {
    return mongo.connectionString();
  }
}
