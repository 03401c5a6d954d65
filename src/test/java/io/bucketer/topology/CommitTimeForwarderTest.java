package io.bucketer.topology;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.junit.jupiter.api.Test;

/**
 * The forwarder needs Kafka Streams' own processor context; its use at commit time is exercised by
 * every topology test (TopologyTestDriver commits after each record) and by the exactly-once ITs.
 */
class CommitTimeForwarderTest {

  @Test
  void shouldRefuseAContextThatIsNotKafkaStreamsOwnWithAMessageThatSaysWhy() {
    assertThatThrownBy(() -> new CommitTimeForwarder(new MockProcessorContext<>()))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("Kafka Streams' own processor context")
        .hasMessageContaining("MockProcessorContext");
  }
}
