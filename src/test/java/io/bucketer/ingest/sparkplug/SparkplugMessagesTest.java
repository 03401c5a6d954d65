package io.bucketer.ingest.sparkplug;

import static org.assertj.core.api.Assertions.assertThat;

import io.bucketer.ingest.sparkplug.SparkplugMessages.EdgeNode;
import io.bucketer.ingest.sparkplug.SparkplugMessages.Message;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SparkplugMessagesTest {

  private final SparkplugPayloads payloads = new SparkplugPayloads();
  private final EdgeNode node =
      new EdgeNode(
          "g",
          "e",
          List.of(
              new SparkplugMessages.Metric("a", SparkplugDataType.INT16),
              new SparkplugMessages.Metric("b", SparkplugDataType.FLOAT)));

  @Test
  void shouldWriteBirthsWithNamesAliasesAndDatatypesAndDataWithAliasesAlone() throws Exception {
    final SparkplugPayload birth = payloads.read(node.nbirth(5L, -3, 1.5).payload());
    final SparkplugPayload data = payloads.read(node.ndata(6L, 4, 2.5).payload());

    assertThat(birth.metrics())
        .extracting(SparkplugMetric::name, SparkplugMetric::alias, SparkplugMetric::datatype)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("a", 0L, 2),
            org.assertj.core.groups.Tuple.tuple("b", 1L, 9));
    assertThat(data.metrics())
        .extracting(SparkplugMetric::name, SparkplugMetric::alias, SparkplugMetric::datatype)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(null, 0L, 0),
            org.assertj.core.groups.Tuple.tuple(null, 1L, 0));
    assertThat(data.timestamp()).isEqualTo(6L);
    assertThat(List.of(birth.seq(), data.seq())).containsExactly(0L, 1L);
  }

  @Test
  void shouldGiveEveryDeviceAliasesOfItsOwnWithinItsEdgeNode() throws Exception {
    final Set<Long> aliases = new HashSet<>();
    for (final Message message :
        List.of(node.nbirth(1L, 0, 0), node.dbirth("d1", 1L, 0, 0), node.dbirth("d2", 1L, 0, 0))) {
      for (final SparkplugMetric metric : payloads.read(message.payload()).metrics()) {
        assertThat(aliases.add(metric.alias())).as("alias %d unique", metric.alias()).isTrue();
      }
    }
    assertThat(aliases).hasSize(6);
  }

  @Test
  void shouldNumberAnEdgeNodesMessagesFrom0To255AndWrapAndStartAgainAtItsNextBirth()
      throws Exception {
    node.nbirth(0L, 0, 0);
    long last = 0;
    for (int i = 0; i < 300; i++) {
      last = payloads.read(node.ndata(0L, 0, 0).payload()).seq();
    }
    assertThat(last).isEqualTo(300 % 256);
    assertThat(payloads.read(node.nbirth(0L, 0, 0).payload()).seq()).isZero();
  }

  @Test
  void shouldWriteTheTopicsOfNodesAndDevices() {
    assertThat(node.nbirth(0L, 0, 0).topic()).isEqualTo("spBv1.0/g/NBIRTH/e");
    assertThat(node.dbirth("d", 0L, 0, 0).topic()).isEqualTo("spBv1.0/g/DBIRTH/e/d");
    assertThat(node.ddata("d", 0L, 0, 0).topic()).isEqualTo("spBv1.0/g/DDATA/e/d");
    assertThat(node.ndeath().topic()).isEqualTo("spBv1.0/g/NDEATH/e");
  }
}
