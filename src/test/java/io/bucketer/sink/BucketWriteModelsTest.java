package io.bucketer.sink;

import static io.bucketer.buckets.TestBuckets.MINUTE;
import static io.bucketer.buckets.TestBuckets.START;
import static io.bucketer.buckets.TestBuckets.bucket;
import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.client.model.InsertOneModel;
import com.mongodb.client.model.ReplaceOneModel;
import com.mongodb.client.model.WriteModel;
import io.bucketer.buckets.ClosedBucket;
import java.util.List;
import org.bson.BsonDocument;
import org.junit.jupiter.api.Test;

class BucketWriteModelsTest {

  private static final ClosedBucket FIRST_CLOSE =
      bucket("sensor-1", "temperature", MINUTE, START, null, 1.0, 2.0);

  @Test
  void shouldInsertTheFirstRevisionSoThatAStoredOneCollidesOnItsId() {
    final ClosedBucket first = FIRST_CLOSE.atRevision(0);

    final WriteModel<BsonDocument> model = BucketWriteModels.of(first);

    assertThat(model).isInstanceOf(InsertOneModel.class);
    assertThat(((InsertOneModel<BsonDocument>) model).getDocument())
        .isEqualTo(BucketDocuments.toDocument(first));
  }

  @Test
  void shouldUpsertALaterRevisionReplacingOnlyAnOlderOne() {
    final ClosedBucket later = FIRST_CLOSE.atRevision(3);

    final WriteModel<BsonDocument> model = BucketWriteModels.of(later);

    assertThat(model).isInstanceOf(ReplaceOneModel.class);
    final ReplaceOneModel<BsonDocument> replace = (ReplaceOneModel<BsonDocument>) model;
    assertThat(replace.getReplaceOptions().isUpsert()).isTrue();
    assertThat(replace.getReplacement()).isEqualTo(BucketDocuments.toDocument(later));
    final BsonDocument filter = (BsonDocument) replace.getFilter();
    assertThat(filter.get("_id")).isEqualTo(BucketDocuments.idOf(later));
    assertThat(filter.getString("metric").getValue()).isEqualTo("temperature");
    assertThat(filter.getDocument("revision").toJson()).isEqualTo("{\"$lt\": 3}");
  }

  @Test
  void shouldPutAnExplicitNullMetricInTheFilterOfASeriesWithoutOne() {
    final ClosedBucket b = bucket("sensor-1", null, MINUTE, START, null, 1.0);
    final ClosedBucket later =
        new ClosedBucket(
            b.series(),
            b.granularity(),
            b.windowStart(),
            b.stats(),
            b.measurements(),
            List.of(),
            b.window(),
            0,
            1,
            1);

    final BsonDocument filter =
        (BsonDocument) ((ReplaceOneModel<BsonDocument>) BucketWriteModels.of(later)).getFilter();

    assertThat(filter.containsKey("metric")).isTrue();
    assertThat(filter.isNull("metric")).isTrue();
  }
}
