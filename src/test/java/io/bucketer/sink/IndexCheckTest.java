package io.bucketer.sink;

import static org.assertj.core.api.Assertions.assertThat;

import org.bson.BsonDocument;
import org.junit.jupiter.api.Test;

/** Reading MongoDB's connectionStatus answer, written here as MongoDB 7 gives it. */
class IndexCheckTest {

  @Test
  void shouldFindCreateIndexOnTheBucketsDatabaseOrAnyDatabase() {
    final BsonDocument readWrite =
        BsonDocument.parse(
            """
            {"authInfo": {"authenticatedUsers": [{"user": "bucketer", "db": "admin"}],
              "authenticatedUserPrivileges": [
                {"resource": {"db": "iot", "collection": ""},
                 "actions": ["find", "insert", "update", "createIndex", "listIndexes"]}]},
             "ok": 1}
            """);
    final BsonDocument anyDatabase =
        BsonDocument.parse(
            """
            {"authInfo": {"authenticatedUsers": [{"user": "root", "db": "admin"}],
              "authenticatedUserPrivileges": [
                {"resource": {"db": "", "collection": ""}, "actions": ["createIndex"]}]}}
            """);

    assertThat(IndexCheck.mayCreateIndexes(readWrite, "iot")).contains(true);
    assertThat(IndexCheck.mayCreateIndexes(readWrite, "other")).contains(false);
    assertThat(IndexCheck.mayCreateIndexes(anyDatabase, "iot")).contains(true);
  }

  @Test
  void shouldRefuseAReadOnlyLoginAndLeaveAnAnonymousOneOpen() {
    final BsonDocument readOnly =
        BsonDocument.parse(
            """
            {"authInfo": {"authenticatedUsers": [{"user": "reader", "db": "admin"}],
              "authenticatedUserPrivileges": [
                {"resource": {"db": "iot", "collection": ""}, "actions": ["find", "listIndexes"]}]}}
            """);
    final BsonDocument anonymous =
        BsonDocument.parse(
            "{\"authInfo\": {\"authenticatedUsers\": [], \"authenticatedUserRoles\": []}}");

    assertThat(IndexCheck.mayCreateIndexes(readOnly, "iot")).contains(false);
    assertThat(IndexCheck.mayCreateIndexes(anonymous, "iot")).isEmpty();
  }
}
